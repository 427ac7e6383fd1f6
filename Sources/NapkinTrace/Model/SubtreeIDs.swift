/// The ids a walk of a subtree found, in the order found. The first is
/// held inline, so that the walk of a leaf (most walks: a detached screen
/// without children) allocates nothing.
struct SubtreeIDs: Sequence {
    /// The first id found, or 0 (ids are never 0).
    private var first: NodeID = 0
    /// The others.
    private var rest: [NodeID] = []

    /// Adds `id` (not 0) after the others.
    mutating func append(_ id: NodeID) {
        if first == 0 { first = id } else { rest.append(id) }
    }

    /// How many ids were found.
    var count: Int { first == 0 ? 0 : 1 + rest.count }

    func makeIterator() -> Iterator { Iterator(ids: self) }

    /// The ids in the order found.
    struct Iterator: IteratorProtocol {
        let ids: SubtreeIDs
        var position = -1

        mutating func next() -> NodeID? {
            defer { position += 1 }
            if position < 0 { return ids.first == 0 ? nil : ids.first }
            return position < ids.rest.count ? ids.rest[position] : nil
        }
    }
}
