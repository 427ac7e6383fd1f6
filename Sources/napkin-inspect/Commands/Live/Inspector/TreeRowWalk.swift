import NapkinTrace

/// The rows of the inspector's tree, one at a time, in the order `tree`
/// prints them: the live tree from each root, then the routers outside it
/// that are still alive (under a heading), then the interactors whose router
/// is gone (under another). With a filter, only the nodes it keeps.
///
/// The walk is lazy and costs what it visits: rows scrolled past are walked
/// without drawing their prefix (``next(drawing:)``). The sections after the
/// live tree come from queries that look at every live node once, so they
/// are asked only when the walk gets there, for no more heads than the rows
/// still wanted.
struct TreeRowWalk {
    /// One row.
    enum Item {
        /// A node, its prefix (empty when not drawn) and the note after it.
        case node(TreeLayout.Entry, note: String?)
        /// A section heading.
        case heading(String)

        /// The node on the row, if it is one.
        var node: TraceNode? {
            if case .node(let entry, _) = self { return entry.node }
            return nil
        }
    }

    /// The part of the rows being walked.
    private enum Section {
        /// The live tree, root by root.
        case roots
        /// The routers outside the tree that are still alive.
        case outside
        /// The interactors without a router.
        case lone
        /// Nothing more.
        case done
    }

    /// The state walked.
    private let state: TraceState
    /// The filter's test, if one is on.
    private let keep: ((NodeID) -> Bool)?
    /// Words the notes of routers outside the tree.
    private let renderer: TreeRenderer
    /// Rows to walk at most.
    private let wanted: Int
    /// Rows walked so far.
    private var produced = 0
    /// The section being walked.
    private var section = Section.roots
    /// The heads of the section: roots, routers heading a subtree outside the tree, lone interactors.
    private var heads: [TraceNode] = []
    /// The next head to walk.
    private var headIndex = 0
    /// The walk of the current head's subtree.
    private var layout: TreeLayout?
    /// The note for the next row (the first of a subtree outside the tree).
    private var noteNext: String?

    /// A walk of `state`'s rows, at most `wanted` of them; with `keep`, only
    /// the nodes it keeps. `renderer` words the notes of routers outside the tree.
    init(_ state: TraceState, keep: ((NodeID) -> Bool)?, wanted: Int, renderer: TreeRenderer) {
        self.state = state
        self.keep = keep
        self.wanted = wanted
        self.renderer = renderer
        heads = state.roots.compactMap { id in keep.map { $0(id) } ?? true ? state[id] : nil }
    }

    /// The next row, or nil at the end (or once `wanted` rows were walked);
    /// a node's prefix is built only when `drawing`.
    mutating func next(drawing: Bool) -> Item? {
        guard produced < wanted else { return nil }
        guard let item = step(drawing: drawing) else { return nil }
        produced += 1
        return item
    }

    /// The next row, whatever the count.
    private mutating func step(drawing: Bool) -> Item? {
        while true {
            if layout != nil {
                let entry = drawing ? layout!.next() : layout!.skip().map { TreeLayout.Entry(node: $0, prefix: "", folded: false) }
                if let entry {
                    defer { noteNext = nil }
                    return .node(entry, note: noteNext)
                }
                layout = nil
            }
            if headIndex < heads.count {
                let head = heads[headIndex]
                headIndex += 1
                switch section {
                case .roots:
                    layout = TreeLayout(state: state, root: head.id, keep: keep)
                case .outside:
                    layout = TreeLayout(state: state, root: head.id, indent: "  ", keep: keep)
                    noteNext = renderer.outsideNote(head, state)
                case .lone:
                    return .node(TreeLayout.Entry(node: head, prefix: "  ", folded: false), note: nil)
                case .done:
                    return nil
                }
                continue
            }
            // The next section: its heads, and its heading when it has any.
            let room = max(1, wanted - produced)
            headIndex = 0
            switch section {
            case .roots:
                section = .outside
                heads = kept(room) { state.detachedRouters(limit: $0) }
                if !heads.isEmpty { return .heading("Outside the tree, still alive:") }
            case .outside:
                section = .lone
                heads = kept(room) { state.loneInteractors(limit: $0) }
                if !heads.isEmpty { return .heading("Interactors without a router:") }
            case .lone, .done:
                section = .done
                heads = []
                return nil
            }
        }
    }

    /// At most `limit` of the nodes `query` gives that the filter keeps
    /// (with a filter, all of them are asked for: it may keep few).
    private func kept(_ limit: Int, _ query: (Int) -> [TraceNode]) -> [TraceNode] {
        guard let keep else { return query(limit) }
        return Array(query(.max).lazy.filter { keep($0.id) }.prefix(limit))
    }
}
