import NapkinTrace

/// Which routers of a history are alive at its end, and of those, which are
/// in the tree: attached (or launched) through parents that all are.
struct RoutersAtEnd {
    /// Alive and in the tree.
    var inTree: Set<NodeID> = []
    /// Alive, but detached or under a parent that is not in the tree.
    var outside: Set<NodeID> = []

    /// The routers alive at the end of `history`.
    init(_ history: TraceHistory) {
        let nodes = history.nodes
        var position: [NodeID: Int] = [:]
        for (i, node) in nodes.enumerated() where node.kind == .router && position[node.id] == nil { position[node.id] = i }

        // 0: not decided, 1: on the chain being walked, 2: in the tree, 3: not.
        var state = [UInt8](repeating: 0, count: nodes.count)
        var chain: [Int] = []
        for first in nodes.indices where nodes[first].kind == .router && state[first] == 0 {
            chain.removeAll(keepingCapacity: true)
            var cursor = first
            var verdict: UInt8 = 3
            walk: while true {
                switch state[cursor] {
                case 2, 3:
                    verdict = state[cursor]
                    break walk
                case 1:
                    // First parents that loop (a corrupt trace): not a tree.
                    verdict = 3
                    break walk
                default:
                    break
                }
                let node = nodes[cursor]
                guard node.deallocated == nil, let last = node.attached.last, last.span.end == nil else {
                    state[cursor] = 3
                    verdict = 3
                    break walk
                }
                state[cursor] = 1
                chain.append(cursor)
                guard let parent = last.parent else {
                    verdict = 2
                    break walk
                }
                guard let next = position[parent] else {
                    verdict = 3
                    break walk
                }
                cursor = next
            }
            for i in chain { state[i] = verdict }
        }
        for (i, node) in nodes.enumerated() where node.kind == .router && node.deallocated == nil {
            if state[i] == 2 { inTree.insert(node.id) } else { outside.insert(node.id) }
        }
    }
}
