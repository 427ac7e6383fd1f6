import NapkinTrace

/// The nodes the inspector's filter keeps in the tree: the routers (and
/// lone interactors) it matches (``NodeFilter``: a type name containing the
/// text, ignoring case, or the id), and the routers above them, so that each
/// match is shown where it is in the tree.
///
/// Finding matches anywhere means looking at every live node once: O(live
/// nodes), paid per frame while a filter is on and the tree changes.
struct FilterMatches {
    /// The matches and their ancestors.
    let kept: Set<NodeID>
    /// How many nodes match.
    let matched: Int

    /// The matches of `filter` in `state`.
    init(_ state: TraceState, filter: NodeFilter) {
        var kept = Set<NodeID>()
        var matched = 0
        for node in state.aliveNodes() where node.kind == .router || node.router == nil {
            guard filter.matches(type: node.type, id: node.id, interactor: node.interactor) else { continue }
            matched += 1
            var cursor: NodeID? = node.id
            // Stops at a node already kept: its ancestors are kept too. A trace
            // cannot make a cycle (the model refuses one), and the bound keeps it so.
            var steps = 0
            while let id = cursor, steps <= state.nodeCount, kept.insert(id).inserted {
                cursor = state[id]?.parent
                steps += 1
            }
        }
        self.kept = kept
        self.matched = matched
    }
}
