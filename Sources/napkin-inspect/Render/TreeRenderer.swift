import NapkinTrace

/// Draws the tree of a ``TraceState`` as text: each router under its parent
/// with its state, age, running tasks and any finding about it.
struct TreeRenderer {
    /// Colours, or none.
    var style: Style
    /// Findings to mark, by the node they are about.
    var findings: [Finding] = []

    /// One rendered row.
    struct Row {
        /// The row as printed.
        var text: String
        /// Whether a finding is marked on the row.
        var hasFinding: Bool
    }

    /// The rows of the tree: the live tree, then routers outside it that are
    /// still alive, then interactors whose router is gone.
    func rows(_ state: TraceState) -> [Row] {
        var marks: [NodeID: [Finding]] = [:]
        for finding in findings where finding.subject != .trace {
            marks[finding.id, default: []].append(finding)
        }
        var entries: [(prefix: String, node: TraceNode, note: String?)] = []
        for root in state.roots {
            collect(state, root, prefix: "", childPrefix: "", into: &entries, note: nil)
        }
        let outside = state.detachedRouters()
        var outsideEntries: [(prefix: String, node: TraceNode, note: String?)] = []
        for node in outside {
            let note: String
            if let orphan = node.orphanedFrom {
                note = "parent \(orphan.parentType)#\(orphan.parent) deallocated"
            } else if let left = node.leftTreeAt {
                note = "detached \(TimeFormat.duration(state.time &- left.time)) ago"
            } else {
                note = "never attached"
            }
            collect(state, node.id, prefix: "", childPrefix: "", into: &outsideEntries, note: note)
        }
        let lone = state.loneInteractors()
        let width = max(24, (entries + outsideEntries).map { $0.prefix.count + $0.node.name.count }.max() ?? 0) + 2

        var rows: [Row] = []
        func row(_ prefix: String, _ node: TraceNode, note: String?) {
            let status = NodeStatus(of: node, in: state)
            let word = status.state.rawValue.padded(to: 9)
            let stateText: String
            switch status.state {
            case .detached: stateText = style.yellow(word)
            case .active: stateText = style.green(word)
            case .inactive: stateText = style.dim(word)
            }
            let age = TimeFormat.duration(state.time &- node.createdTime).padded(to: 7)
            let tasks = status.tasksText.padded(to: 8)
            var text = prefix + style.bold(node.name) + String(repeating: " ", count: max(1, width - prefix.count - node.name.count))
            text += "\(stateText) \(age) \(tasks)"
            if let note { text += " " + style.dim(note) }
            let about = (marks[node.id] ?? []) + (status.interactorID.flatMap { marks[$0] } ?? [])
            for finding in about {
                let mark = "! \(finding.rule.rawValue)"
                text += " " + (finding.severity == .error ? style.red(mark) : style.yellow(mark))
            }
            rows.append(Row(text: text.trimmingTrailingSpaces(), hasFinding: !about.isEmpty))
        }
        for entry in entries { row(entry.prefix, entry.node, note: entry.note) }
        if !outsideEntries.isEmpty {
            rows.append(Row(text: style.bold("Outside the tree, still alive:"), hasFinding: false))
            for entry in outsideEntries { row("  " + entry.prefix, entry.node, note: entry.note) }
        }
        if !lone.isEmpty {
            rows.append(Row(text: style.bold("Interactors without a router:"), hasFinding: false))
            for node in lone { row("  ", node, note: nil) }
        }
        if rows.isEmpty {
            rows.append(Row(text: style.dim("(no routers alive)"), hasFinding: false))
        }
        return rows
    }

    /// Appends `id` and its attached descendants, pre-order, with box-drawing
    /// prefixes. Iterative: a trace may describe a very deep tree.
    private func collect(_ state: TraceState, _ id: NodeID, prefix: String, childPrefix: String,
                         into entries: inout [(prefix: String, node: TraceNode, note: String?)], note: String?) {
        var stack: [(id: NodeID, prefix: String, childPrefix: String, note: String?)] = [(id, prefix, childPrefix, note)]
        while let (current, linePrefix, nextPrefix, lineNote) = stack.popLast() {
            guard let node = state[current] else { continue }
            entries.append((linePrefix, node, lineNote))
            let children = node.children.filter { state[$0] != nil }
            for (i, child) in children.enumerated().reversed() {
                let last = i == children.count - 1
                stack.append((child, nextPrefix + (last ? "└─ " : "├─ "), nextPrefix + (last ? "   " : "│  "), nil))
            }
        }
    }

    /// A one-line title: app, pid and the moment shown.
    static func title(_ state: TraceState, style: Style) -> String {
        let app = state.session?.heading ?? "trace"
        return style.bold(app) + style.dim(" at t=\(TimeFormat.point(state.time)) (after seq \(state.lastSeq))")
    }
}
