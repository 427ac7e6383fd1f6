import NapkinTrace

/// Draws the tree of a ``TraceState`` as text: each router under its parent
/// with its state, age, running tasks, where its view is (only when the app
/// reports views: `view gone`, `view covered`, and `view shown` outside the
/// tree) and any finding about it.
///
/// The output is bounded whatever the trace: at most `limit` rows (the rest
/// are counted in a last row that says how to see them), prefixes folded
/// beyond ``TreeLayout/maxDrawnLevels`` levels, names cut to ``maxName``
/// characters, and each rule marked once per row. Rows are made lazily, so
/// the cost follows the rows shown (a live view draws only what fits).
struct TreeRenderer {
    /// Colours, or none.
    var style: Style
    /// Findings to mark, by the node they are about.
    var findings: [Finding] = []

    /// The rows `tree` prints at most.
    static let maxRows = 1_000
    /// Names longer than this are cut with an ellipsis.
    static let maxName = 80
    /// The last row's advice when rows are left out of `tree`.
    static let treeHint = "to see them, pick a moment with --at SEQ|TIME, or one router's life with timeline --node NAME"

    /// One rendered row.
    struct Row {
        /// The row as printed.
        var text: String
        /// Whether a finding is marked on the row.
        var hasFinding: Bool
    }

    /// The rows of the tree, at most `limit` of them (the last may say how
    /// many were left out, and `hint` how to see them): the live tree, then
    /// routers outside it that are still alive, then interactors whose router is gone.
    func rows(_ state: TraceState, limit: Int = maxRows, hint: String = treeHint) -> [Row] {
        var entries: [(entry: TreeLayout.Entry, note: String?)] = []
        var headings: [Int: String] = [:]
        let room = max(1, limit - 2)  // a row for what is left out, one for the note on folded levels
        func take(_ layout: inout TreeLayout, note: String?) {
            var first = true
            while entries.count + headings.count < room, let entry = layout.next() {
                entries.append((entry, first ? note : nil))
                first = false
            }
        }
        for root in state.roots where entries.count + headings.count < room {
            var layout = TreeLayout(state: state, root: root)
            take(&layout, note: nil)
        }
        // Only when there is room: the queries below look at every node alive.
        if entries.count + headings.count < room {
            let outside = state.detachedRouters(limit: room - entries.count - headings.count)
            if !outside.isEmpty { headings[entries.count] = "Outside the tree, still alive:" }
            for node in outside where entries.count + headings.count < room {
                var layout = TreeLayout(state: state, root: node.id, indent: "  ")
                take(&layout, note: outsideNote(node, state))
            }
        }
        if entries.count + headings.count < room {
            let lone = state.loneInteractors(limit: room - entries.count - headings.count)
            if !lone.isEmpty { headings[entries.count] = "Interactors without a router:" }
            for node in lone where entries.count + headings.count < room {
                entries.append((TreeLayout.Entry(node: node, prefix: "  ", folded: false), nil))
            }
        }
        return render(entries, headings: headings, state: state, hint: hint)
    }

    /// The rows for `entries`, with `headings` before the entries at their
    /// index, and the notes on what was left out and folded.
    private func render(_ entries: [(entry: TreeLayout.Entry, note: String?)], headings: [Int: String],
                        state: TraceState, hint: String) -> [Row] {
        let marks = Self.marks(findings)
        let names = entries.map { Self.name($0.entry.node) }
        let width = Self.nameColumn(zip(entries, names).map { $0.0.entry.prefix.count + $0.1.count })
        var rows: [Row] = []
        rows.reserveCapacity(entries.count + headings.count + 2)
        for (index, (entry, note)) in entries.enumerated() {
            if let heading = headings[index] { rows.append(Row(text: style.bold(heading), hasFinding: false)) }
            rows.append(row(entry, name: names[index], width: width, note: note, marks: marks, state: state))
        }
        if let heading = headings[entries.count] { rows.append(Row(text: style.bold(heading), hasFinding: false)) }
        if rows.isEmpty { rows.append(Row(text: style.dim("(no routers alive)"), hasFinding: false)) }
        let shownRouters = entries.filter { $0.entry.node.kind == .router }.count
        let hidden = state.routerCount - shownRouters
        if hidden > 0 {
            let what = hidden == 1 ? "router" : "routers"
            rows.append(Row(text: style.dim("\u{2026} \(NumberFormat.grouped(hidden)) more \(what) not shown; \(hint)"), hasFinding: false))
        }
        if entries.contains(where: \.entry.folded) {
            rows.append(Row(text: style.dim("note: levels deeper than \(TreeLayout.maxDrawnLevels) are folded into '\u{2026} N levels \u{2026}'"),
                            hasFinding: false))
        }
        return rows
    }

    /// `findings` by the node they are about (none for the trace as a whole).
    static func marks(_ findings: [Finding]) -> [NodeID: [Finding]] {
        var marks: [NodeID: [Finding]] = [:]
        for finding in findings where finding.subject != .trace { marks[finding.id, default: []].append(finding) }
        return marks
    }

    /// A node's name as a row shows it: printable, cut to ``maxName``.
    static func name(_ node: TraceNode) -> String {
        PrintableText.printable(node.name, limit: maxName)
    }

    /// Where the state column starts, for rows whose prefix and name take these widths.
    static func nameColumn(_ widths: some Sequence<Int>) -> Int {
        min(maxName + 40, widths.reduce(24, max)) + 2
    }

    /// One node's row: name (from ``name(_:)``), state starting at column
    /// `width`, age, tasks, view, note, and a mark per rule found about it
    /// (`marks` from ``marks(_:)``).
    func row(_ entry: TreeLayout.Entry, name: String, width: Int, note: String?,
                     marks: [NodeID: [Finding]], state: TraceState) -> Row {
        let node = entry.node
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
        let used = entry.prefix.count + name.count
        var text = entry.prefix + style.bold(name) + String(repeating: " ", count: max(1, width - used))
        text += "\(stateText) \(age) \(tasks)"
        if let viewText = status.viewText {
            // Two spaces before a note, so that `view shown  detached 2s ago` reads as two facts.
            text += " " + (status.view == .covered ? style.dim(viewText) : style.yellow(viewText)) + (note == nil ? "" : " ")
        }
        if let note { text += " " + style.dim(note) }
        let about = (marks[node.id] ?? []) + (status.interactorID.flatMap { $0 == node.id ? nil : marks[$0] } ?? [])
        var counts: [(rule: Finding.Rule, count: Int)] = []
        for finding in about {
            if let i = counts.firstIndex(where: { $0.rule == finding.rule }) { counts[i].count += 1 } else { counts.append((finding.rule, 1)) }
        }
        for (rule, count) in counts {
            let mark = "! \(rule.rawValue)" + (count > 1 ? " \u{00D7}\(NumberFormat.grouped(count))" : "")
            text += " " + (rule.severity == .error ? style.red(mark) : style.yellow(mark))
        }
        return Row(text: text.trimmingTrailingSpaces(), hasFinding: !about.isEmpty)
    }

    /// Why a router outside the tree is there: orphaned, detached, or never attached.
    func outsideNote(_ node: TraceNode, _ state: TraceState) -> String {
        if let orphan = node.orphanedFrom {
            return "parent \(PrintableText.printable(orphan.parentType, limit: Self.maxName))#\(orphan.parent) deallocated"
        }
        if let left = node.leftTreeAt { return "detached \(TimeFormat.duration(state.time &- left.time)) ago" }
        return "never attached"
    }

    /// A one-line title: app, pid and the moment shown.
    static func title(_ state: TraceState, style: Style) -> String {
        let app = state.session.map { PrintableText.printable($0.heading, limit: maxName) } ?? "trace"
        return style.bold(app) + style.dim(" at t=\(TimeFormat.point(state.time)) (after seq \(state.lastSeq))")
    }
}
