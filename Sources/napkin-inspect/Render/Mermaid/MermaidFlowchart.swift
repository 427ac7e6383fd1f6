import NapkinTrace

extension MermaidRenderer {
    /// At most this many routers (and lone interactors) in a flowchart.
    static let maxNodes = 200

    // MARK: - The chart

    /// A `flowchart TD` of the live tree (each root and its attached descendants),
    /// then, in a subgraph "outside the tree", the routers still alive that are not
    /// in it (with their attached descendants) and interactors whose router is gone.
    /// Each node shows its type, id and state (active, inactive, detached), its
    /// view when the app reports views (`view gone`, `view covered`, and `view
    /// shown` outside the tree) and the rule ids of the findings about it;
    /// nodes with an error are red, with a warning amber, detached ones dashed,
    /// routers in the tree whose view is gone violet and dotted (`viewGone`),
    /// whose view is covered blue-grey (`viewCovered`), inactive ones grey.
    ///
    /// The cost follows the nodes drawn: the tree is walked lazily and the walk
    /// stops at the cap; routers outside the tree are looked up only if there
    /// is room left. The note counts the routers left out.
    static func flowchart(_ state: TraceState, findings: [Finding]) -> String {
        var chart = Flowchart(state: state, findings: findings)
        for root in state.roots where chart.hasRoom { chart.declareSubtree(root, indent: "  ") }
        var loneLeftOut = 0
        if chart.hasRoom {
            let outside = state.detachedRouters()
            let lone = state.loneInteractors()
            if !outside.isEmpty || !lone.isEmpty {
                let before = chart.lines.count
                chart.lines.append("  subgraph outside[\"outside the tree, still alive\"]")
                for router in outside where chart.hasRoom { chart.declareSubtree(router.id, indent: "    ") }
                for interactor in lone where !chart.shown.contains(interactor.id) {
                    if !chart.declare(interactor, indent: "    ") { loneLeftOut += 1 }
                }
                if chart.lines.count == before + 1 { chart.lines.removeLast() } else { chart.lines.append("  end") }
            }
        }
        chart.omitted = max(0, state.routerCount - chart.shownRouters) + loneLeftOut
        chart.addNotes()
        chart.addClasses()
        return chart.lines.joined(separator: "\n") + "\n"
    }
}

// MARK: - Building it

/// A flowchart being drawn: its lines so far, the nodes declared, the caps.
private struct Flowchart {
    /// The tree drawn.
    let state: TraceState
    /// Every finding so far.
    let findings: [Finding]
    /// Findings about each node.
    var about: [NodeID: [Finding]] = [:]
    /// Findings about the trace as a whole.
    var traceFindings: [Finding] = []
    /// The diagram so far.
    var lines = ["flowchart TD"]
    /// The node ids of each class (`error`, `active`, ...).
    var classes: [String: [String]] = [:]
    /// The nodes declared.
    var shown = Set<NodeID>()
    /// Nodes left out by the caps.
    var omitted = 0
    /// Routers declared.
    var shownRouters = 0
    /// The diagram's size so far, in bytes.
    var size = 0

    /// Starts a flowchart of `state`, sorting `findings` by what they are about.
    init(state: TraceState, findings: [Finding]) {
        self.state = state
        self.findings = findings
        for finding in findings {
            if finding.subject == .trace { traceFindings.append(finding) } else { about[finding.id, default: []].append(finding) }
        }
    }

    /// Declares one node (if the caps allow); returns whether it was declared.
    mutating func declare(_ node: TraceNode, indent: String) -> Bool {
        // Room for the node's line and its edge, whatever the label's length.
        guard hasRoom else { return false }
        let status = NodeStatus(of: node, in: state)
        let stateText: String
        if node.kind == .interactor {
            stateText = "interactor, " + status.state.rawValue + ", router gone"
        } else if status.state == .detached {
            stateText = status.isActive ? "detached, still active" : "detached"
        } else {
            stateText = status.state.rawValue
        }
        // Lines are separated by real newlines: with <br/> mermaid decodes the
        // entity codes before it applies Markdown, so `*` or `_` would format.
        var label = MermaidRenderer.name(node.type, node.id) + "\n" + MermaidRenderer.escape(stateText)
        if !status.tasksText.isEmpty { label += MermaidRenderer.escape(", " + status.tasksText) }
        if let viewText = status.viewText { label += MermaidRenderer.escape(", " + viewText) }
        var nodeFindings = about[node.id] ?? []
        if let interactorID = status.interactorID, interactorID != node.id { nodeFindings += about[interactorID] ?? [] }
        var rules: [String] = []
        for finding in nodeFindings where !rules.contains(finding.rule.rawValue) { rules.append(finding.rule.rawValue) }
        if !rules.isEmpty { label += "\n" + rules.map { "! " + MermaidRenderer.escape($0) }.joined(separator: "\n") }

        let shape: (String, String)
        if node.kind == .interactor { shape = ("{{\"", "\"}}") } else if status.state == .detached { shape = ("(\"", "\")") } else { shape = ("[\"", "\"]") }
        let line = "\(indent)n\(node.id)\(shape.0)\(label)\(shape.1)"
        lines.append(line)
        size += line.utf8.count + 1
        shown.insert(node.id)
        if node.kind == .router { shownRouters += 1 }

        let className: String
        if nodeFindings.contains(where: { $0.severity == .error }) {
            className = "error"
        } else if !nodeFindings.isEmpty {
            className = "warning"
        } else if node.kind == .interactor || status.state == .detached {
            className = "detached"
        } else if status.view == .removed {
            className = "viewGone"
        } else if status.view == .covered {
            className = "viewCovered"
        } else {
            className = status.state.rawValue
        }
        classes[className, default: []].append("n\(node.id)")
        return true
    }

    /// Whether another node fits: under the node cap, with room for its line
    /// and its edge whatever the label's length.
    var hasRoom: Bool {
        shown.count < MermaidRenderer.maxNodes && size + 2_000 < MermaidRenderer.maxCharacters
    }

    /// Declares `root` and its attached descendants (pre-order, as long as
    /// there is room), then their edges.
    mutating func declareSubtree(_ root: NodeID, indent: String) {
        var edges: [String] = []
        var walk = TreeLayout(state: state, root: root)
        while hasRoom, let entry = walk.next() {
            let node = entry.node
            guard !shown.contains(node.id), declare(node, indent: indent) else { continue }
            if let parent = node.parent, shown.contains(parent) {
                let edge = "\(indent)n\(parent) --> n\(node.id)"
                edges.append(edge)
                size += edge.utf8.count + 1
            }
        }
        lines += edges
    }

    // MARK: - Notes and classes

    /// The id of the note node (never `n<number>`, the ids of the trace's nodes).
    static let noteID = "traceNotes"

    /// A note node: findings about the trace as a whole or about nodes no
    /// longer alive, and what was left out.
    mutating func addNotes() {
        var notes: [String] = []
        if shown.isEmpty { notes.append("no routers alive") }
        for (rule, count) in Self.countByRule(traceFindings) { notes.append("! " + rule + (count == 1 ? "" : " x\(count)")) }
        let gone = findings.filter { $0.subject != .trace && !shown.contains($0.id) && state[$0.id] == nil }
        if !gone.isEmpty {
            notes.append("findings about nodes no longer alive: "
                + Self.countByRule(gone).map { $0.count == 1 ? $0.rule : "\($0.rule) x\($0.count)" }.joined(separator: ", "))
        }
        if omitted > 0 { notes.append("\u{2026} \(omitted) more not shown") }
        guard !notes.isEmpty else { return }
        lines.append("  \(Self.noteID)[\"" + notes.map { MermaidRenderer.escape($0, limit: 200) }.joined(separator: "\n") + "\"]")
        let severe = traceFindings.contains { $0.severity == .error } || gone.contains { $0.severity == .error }
        classes[severe ? "error" : (traceFindings.isEmpty && gone.isEmpty ? "note" : "warning"), default: []].append(Self.noteID)
    }

    /// How many of `findings` each rule has, in the order the rules first appear.
    static func countByRule(_ findings: [Finding]) -> [(rule: String, count: Int)] {
        var counts: [(rule: String, count: Int)] = []
        for finding in findings {
            if let i = counts.firstIndex(where: { $0.rule == finding.rule.rawValue }) { counts[i].count += 1 } else { counts.append((finding.rule.rawValue, 1)) }
        }
        return counts
    }

    /// The class definitions in use, and which nodes have each.
    mutating func addClasses() {
        let definitions: [(String, String)] = [
            ("active", "fill:#e6f4ea,stroke:#2e7d32,color:#000"),
            ("inactive", "fill:#f1f3f4,stroke:#80868b,color:#333"),
            ("detached", "fill:#fff8e1,stroke:#b58900,color:#000,stroke-dasharray: 5 5"),
            ("viewGone", "fill:#ede7f6,stroke:#5e35b1,stroke-width:2px,color:#000,stroke-dasharray: 2 3"),
            ("viewCovered", "fill:#eceff1,stroke:#78909c,color:#333"),
            ("warning", "fill:#ffe8b3,stroke:#d98e00,stroke-width:2px,color:#000"),
            ("error", "fill:#ffd6d6,stroke:#c62828,stroke-width:3px,color:#000"),
            ("note", "fill:#ffffff,stroke:#999999,color:#333"),
        ]
        for (className, style) in definitions {
            guard let ids = classes[className], !ids.isEmpty else { continue }
            lines.append("  classDef \(className) \(style)")
            // Chunked, so that no line gets very long.
            var start = 0
            while start < ids.count {
                let chunk = ids[start..<min(ids.count, start + 50)]
                lines.append("  class " + chunk.joined(separator: ",") + " \(className)")
                start += 50
            }
        }
    }
}
