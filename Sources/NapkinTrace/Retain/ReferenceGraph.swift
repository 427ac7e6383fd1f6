/// The strong references a retainer search explored, as a graph of names
/// (no object in it), and the paths it explains a leak by: every reference
/// into the leaked object, each reached by the shortest chain from an object
/// expected alive, else as a cycle from the object itself, else from
/// another object still alive; the suspect reference marked.
///
/// Pure: the search builds it where the objects live and hands it here, so
/// the choice of paths, their order and their marks are tested on graphs
/// made by hand (`ReferenceGraphTests`).
struct ReferenceGraph {
    /// An object the search reached.
    struct Node {
        /// How a path names it: `LoggedInRouter#6`, `ScreenStore`, or a root's name.
        var name: String
        /// An attached router, an active interactor or a named root: an
        /// object that is meant to be alive now.
        var expectedAlive = false
        /// A traced router: its `interactor`, `interactable`,
        /// `viewController`, `viewControllable` and `children` are napkin's
        /// own references, never the suspect one.
        var isRouter = false
        /// A traced interactor: its `presenter` is napkin's own reference
        /// (an interactor owns its presenter; the presenter's listener is
        /// the one that must be weak).
        var isInteractor = false
        /// A named root: its name is the whole hop (`ServiceLocator.shared`).
        var isNamedRoot = false
        /// One of napkin's own builders or components: expected alive when
        /// the object before it on a path is (the live tree's plumbing),
        /// and its `dependency` and `sharedInstances` are napkin's own
        /// references.
        var isPlumbing = false
        /// Its strong references, in the order the walk found them.
        var edges: [Edge] = []
    }

    /// A strong reference from one node to another.
    struct Edge: Equatable {
        /// How it is held (`store`, `screens[0]`).
        var label: String
        /// The node held.
        var to: Int
        /// The heap slot that holds it (a buffer's element, a closure
        /// context's capture): references through one slot count once.
        var holder: HeapSlot? = nil
    }

    var nodes: [Node] = []
    /// The leaked object's node.
    var target: Int
    /// The nodes the walk started from (traced objects still alive, named roots).
    var roots: [Int] = []

    /// The most paths a result lists.
    static let maxPaths = 5

    // MARK: - Paths

    /// The strong references into the target (one per holding field or
    /// element; one per closure context, however many stored closures
    /// share it), and the paths that explain them (one per holding
    /// place), at most ``maxPaths``, shortest first.
    func paths() -> (found: Int, paths: [String]) {
        var incoming: [(source: Int, label: String)] = []
        var contexts: Set<HeapSlot> = []
        var references = 0
        for (index, node) in nodes.enumerated() {
            for edge in node.edges where edge.to == target {
                incoming.append((index, edge.label))
                if let holder = edge.holder {
                    if contexts.insert(holder).inserted { references += 1 }
                } else {
                    references += 1
                }
            }
        }
        guard !incoming.isEmpty else { return (0, []) }
        let expected = roots.filter { nodes[$0].expectedAlive }
        let fromExpected = breadthFirst(from: expected)
        let fromTarget = breadthFirst(from: [target], passingTarget: true)
        let fromAny = breadthFirst(from: roots)
        var explained: [(hops: [(node: Int, label: String)], cycle: Bool)] = []
        for (source, label) in incoming {
            let tail = (node: source, label: label)
            if let chain = chain(to: source, in: fromExpected) {
                explained.append((chain + [tail], false))
            } else if let chain = chain(to: source, in: fromTarget) {
                explained.append((chain + [tail], true))
            } else if let chain = chain(to: source, in: fromAny) {
                explained.append((chain + [tail], false))
            } else {
                explained.append(([tail], source == target))
            }
        }
        let ordered = explained.enumerated().sorted { a, b in
            a.element.hops.count != b.element.hops.count ? a.element.hops.count < b.element.hops.count : a.offset < b.offset
        }
        let paths = ordered.prefix(Self.maxPaths).map { render($0.element.hops, cycle: $0.element.cycle) }
        return (references, paths)
    }

    /// `A#1.store (suspect) → ScreenStore.screens[0] → Target#2`.
    private func render(_ hops: [(node: Int, label: String)], cycle: Bool) -> String {
        let suspect = suspectIndex(hops)
        var parts: [String] = []
        for (index, hop) in hops.enumerated() {
            let node = nodes[hop.node]
            var text = node.isNamedRoot && hop.label.isEmpty ? node.name : node.name + "." + hop.label
            if index == suspect { text += Retainers.suspectMarker }
            parts.append(text)
        }
        parts.append(nodes[target].name + (cycle ? Retainers.cycleMarker : ""))
        return Self.bounded(parts, keeping: suspect).joined(separator: Retainers.separator)
    }

    /// The most hops a printed path shows: a longer chain keeps its start,
    /// its suspect hop and its end, and says how many hops it leaves out.
    static let maxShownHops = 16

    /// `parts` with the middle of a chain longer than ``maxShownHops`` left
    /// out (the hop at `keeping` stays).
    static func bounded(_ parts: [String], keeping suspect: Int?) -> [String] {
        guard parts.count > maxShownHops else { return parts }
        let head = 6, tail = 8
        var shown = Set(0..<head).union((parts.count - tail)..<parts.count)
        if let suspect { shown.insert(suspect) }
        var out: [String] = []
        var skipped = 0
        for (index, part) in parts.enumerated() {
            if shown.contains(index) {
                if skipped > 0 { out.append("… \(skipped) hops …"); skipped = 0 }
                out.append(part)
            } else {
                skipped += 1
            }
        }
        return out
    }

    /// The first reference that should not be there: the one leaving the
    /// last object on the path expected alive (the first hop when none is;
    /// napkin's builders and components count as expected alive right
    /// after one that is),
    /// napkin's own references skipped; nil when only napkin's own are left
    /// (a router holding its interactor: what holds the router is the
    /// question, and the router's own finding answers it).
    func suspectIndex(_ hops: [(node: Int, label: String)]) -> Int? {
        var start = 0
        var aliveSoFar = false
        for (index, hop) in hops.enumerated() {
            let node = nodes[hop.node]
            aliveSoFar = node.expectedAlive || (aliveSoFar && node.isPlumbing)
            if aliveSoFar { start = index }
        }
        return hops.indices.dropFirst(start).first { !isNapkinOwnership(hops[$0]) }
    }

    /// A router's hold on its interactor, its view and its attached
    /// children; an interactor's on its presenter; a builder's or
    /// component's on its dependency and shared instances.
    private func isNapkinOwnership(_ hop: (node: Int, label: String)) -> Bool {
        let node = nodes[hop.node]
        if node.isInteractor { return hop.label == "presenter" }
        if node.isPlumbing { return hop.label == "dependency" || hop.label.hasPrefix("sharedInstances[") }
        guard node.isRouter else { return false }
        return ["interactor", "interactable", "viewController", "viewControllable"].contains(hop.label)
            || hop.label.hasPrefix("children[")
    }

    // MARK: - Breadth-first search

    /// For each node reached from `sources`, the edge it was first reached
    /// by (`parent`, `label`); never through the target unless
    /// `passingTarget` (a cycle starts at it).
    private func breadthFirst(from sources: [Int], passingTarget: Bool = false) -> [Int: (parent: Int, label: String)?] {
        var reached: [Int: (parent: Int, label: String)?] = [:]
        var queue: [Int] = []
        for source in sources where reached[source] == nil {
            reached[source] = .some(nil)
            queue.append(source)
        }
        var head = 0
        while head < queue.count {
            let node = queue[head]
            head += 1
            if node == target && !(passingTarget && head == 1) { continue }
            for edge in nodes[node].edges where reached[edge.to] == nil {
                reached[edge.to] = .some((node, edge.label))
                queue.append(edge.to)
            }
        }
        return reached
    }

    /// The hops from a source of `tree` to `node` (empty when `node` is a
    /// source), or nil when `tree` does not reach it.
    private func chain(to node: Int, in tree: [Int: (parent: Int, label: String)?]) -> [(node: Int, label: String)]? {
        guard let entry = tree[node] else { return nil }
        var hops: [(node: Int, label: String)] = []
        var step = entry
        while let (parent, label) = step {
            hops.append((parent, label))
            guard let next = tree[parent] else { break }
            step = next
        }
        return hops.reversed()
    }
}
