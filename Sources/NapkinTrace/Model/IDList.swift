/// Ids in the order they were added, with constant-time append and removal:
/// a router's attached children (a parent may hold a hundred thousand: a
/// list), an interactor's running tasks.
///
/// A removed id leaves a hole (id 0) that iteration skips; once holes are
/// the majority the list is compacted, and the owner renumbers the slots it
/// handed out. Each member remembers its slot, so removal does not search.
struct IDList: Sendable, Hashable, Sequence {
    private var slots: [NodeID] = []
    /// How many children the list holds.
    private(set) var count = 0

    /// Whether the list holds no child.
    var isEmpty: Bool { count == 0 }

    /// Appends `id`; returns its slot.
    mutating func append(_ id: NodeID) -> Int {
        slots.append(id)
        count += 1
        return slots.count - 1
    }

    /// Removes `id`, expected in `slot` (searched for otherwise); returns whether it was there.
    @discardableResult
    mutating func remove(_ id: NodeID, slot: Int) -> Bool {
        if slot >= 0 && slot < slots.count && slots[slot] == id {
            slots[slot] = 0
        } else if let index = slots.lastIndex(of: id) {
            slots[index] = 0
        } else {
            return false
        }
        count -= 1
        if count == 0 { slots.removeAll(keepingCapacity: slots.count <= 64) }
        return true
    }

    /// Whether holes have become the majority (then call ``compact()``).
    var needsCompaction: Bool { slots.count > 32 && count * 2 < slots.count }

    /// Drops the holes; returns the children, whose slots are now their positions.
    mutating func compact() -> [NodeID] {
        slots.removeAll { $0 == 0 }
        return slots
    }

    func makeIterator() -> Iterator { Iterator(slots: slots) }

    /// Calls `body` with the ids from the most recently added back, skipping
    /// holes, until it returns false.
    func forEachNewestFirst(_ body: (NodeID) -> Bool) {
        for id in slots.reversed() where id != 0 {
            if !body(id) { return }
        }
    }

    /// Iterates over the children, skipping holes.
    struct Iterator: IteratorProtocol {
        let slots: [NodeID]
        var index = 0

        mutating func next() -> NodeID? {
            while index < slots.count {
                let id = slots[index]
                index += 1
                if id != 0 { return id }
            }
            return nil
        }
    }
}
