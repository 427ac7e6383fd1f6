import NapkinTrace

/// Draws traces as Mermaid diagrams that mermaid.js 11 and GitHub Markdown render:
/// the tree as a flowchart, lifecycles as a Gantt chart, attach/detach as a
/// sequence diagram.
///
/// Every piece of text that comes from the trace (type names, task labels,
/// marks) goes through ``escape(_:)``, ids are always `n<number>`, and every
/// diagram is capped (nodes, participants, bars, messages, characters) so that it
/// stays under mermaid's default limits (50,000 characters, 500 edges).
enum MermaidRenderer {
    /// At most this many routers (and lone interactors) in a flowchart.
    static let maxNodes = 200
    /// At most this many routers (sections) in a Gantt chart.
    static let maxSections = 200
    /// At most this many bars in one Gantt section.
    static let maxBarsPerSection = 40
    /// At most this many marks in a Gantt chart.
    static let maxMarks = 40
    /// At most this many participants in a sequence diagram.
    static let maxParticipants = 200
    /// At most this many messages and notes in a sequence diagram.
    static let maxMessages = 600
    /// Stop adding to a diagram once its text is this long (mermaid refuses 50,000).
    static let maxCharacters = 40_000
    /// Marks and labels longer than this are shortened.
    static let maxLabel = 80

    // MARK: - Escaping

    /// Makes `text` safe inside any label, title, section, task name, participant
    /// alias or note: letters, digits and a few harmless punctuation marks are kept;
    /// everything else (quotes, `<>`, `#`, `&`, `:`, `;`, brackets, `%`, and the
    /// characters Markdown or KaTeX would act on in a flowchart label, like `*`,
    /// `_`, backticks, `~` and `$`, and all non-ASCII) becomes a Mermaid entity code
    /// `#<decimal>;`, which mermaid turns back into the character when it renders. Line breaks and tabs become spaces;
    /// other control characters are dropped. Text longer than `limit` characters is
    /// cut with an ellipsis.
    static func escape(_ text: String, limit: Int = maxLabel) -> String {
        var source = text
        if source.count > limit { source = String(source.prefix(max(1, limit - 1))) + "\u{2026}" }
        var out = ""
        out.reserveCapacity(source.utf8.count)
        for scalar in source.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", " ", ".", ",", "-", "'", "/", "+", "=", "!", "?", "(", ")":
                out.unicodeScalars.append(scalar)
            case "\n", "\r", "\t":
                out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) { continue }
                out += "#\(scalar.value);"
            }
        }
        return out
    }

    /// `Type #id`, escaped: how every diagram names a node.
    static func name(_ type: String, _ id: NodeID) -> String {
        escape(type) + " #35;\(id)"
    }

    /// Wraps a diagram in a ```mermaid fence for Markdown.
    static func markdown(_ diagram: String) -> String {
        "```mermaid\n" + diagram + (diagram.hasSuffix("\n") ? "" : "\n") + "```\n"
    }

    // MARK: - Flowchart (the tree)

    /// A `flowchart TD` of the live tree (each root and its attached descendants),
    /// then, in a subgraph "outside the tree", the routers still alive that are not
    /// in it (with their attached descendants) and interactors whose router is gone.
    /// Each node shows its type, id and state (active, inactive, detached) and the
    /// rule ids of the findings about it; nodes with an error are red, with a
    /// warning amber, detached ones dashed, inactive ones grey.
    static func flowchart(_ state: TraceState, findings: [Finding]) -> String {
        var about: [NodeID: [Finding]] = [:]
        var traceFindings: [Finding] = []
        for finding in findings {
            if finding.subject == .trace { traceFindings.append(finding) } else { about[finding.id, default: []].append(finding) }
        }
        var lines = ["flowchart TD"]
        var classes: [String: [NodeID]] = [:]
        var shown = Set<NodeID>()
        var omitted = 0
        var size = 0

        /// Declares one node (if the caps allow); returns whether it was declared.
        func declare(_ node: TraceNode, indent: String) -> Bool {
            guard shown.count < maxNodes, size < maxCharacters else {
                omitted += 1
                return false
            }
            let interactorID = node.kind == .router ? node.interactor : node.id
            let interactor = interactorID.flatMap { state[$0] }
            let active = interactor?.isActive ?? false
            let stateText: String
            if node.kind == .interactor {
                stateText = "interactor, " + (active ? "active" : "inactive") + ", router gone"
            } else if !node.isInLiveTree {
                stateText = active ? "detached, still active" : "detached"
            } else {
                stateText = active ? "active" : "inactive"
            }
            // Lines are separated by real newlines: with <br/> mermaid decodes the
            // entity codes before it applies Markdown, so `*` or `_` would format.
            var label = name(node.type, node.id) + "\n" + escape(stateText)
            let tasks = interactor?.runningTasks.count ?? 0
            if tasks > 0 { label += escape(tasks == 1 ? ", 1 task" : ", \(tasks) tasks") }
            var nodeFindings = about[node.id] ?? []
            if let interactorID, interactorID != node.id { nodeFindings += about[interactorID] ?? [] }
            var rules: [String] = []
            for finding in nodeFindings where !rules.contains(finding.rule.rawValue) { rules.append(finding.rule.rawValue) }
            if !rules.isEmpty { label += "\n" + rules.map { "! " + escape($0) }.joined(separator: "\n") }

            let shape: (String, String)
            if node.kind == .interactor { shape = ("{{\"", "\"}}") } else if !node.isInLiveTree { shape = ("(\"", "\")") } else { shape = ("[\"", "\"]") }
            let line = "\(indent)n\(node.id)\(shape.0)\(label)\(shape.1)"
            lines.append(line)
            size += line.utf8.count + 1
            shown.insert(node.id)

            let className: String
            if nodeFindings.contains(where: { $0.severity == .error }) {
                className = "error"
            } else if !nodeFindings.isEmpty {
                className = "warning"
            } else if node.kind == .interactor || !node.isInLiveTree {
                className = "detached"
            } else {
                className = active ? "active" : "inactive"
            }
            classes[className, default: []].append(node.id)
            return true
        }

        /// Declares `root` and its attached descendants, then their edges.
        func declareSubtree(_ root: NodeID, indent: String) {
            let rows = state.subtree(root)
            var edges: [String] = []
            for (node, _) in rows where !shown.contains(node.id) {
                guard declare(node, indent: indent) else { continue }
                if let parent = node.parent, shown.contains(parent) {
                    edges.append("\(indent)n\(parent) --> n\(node.id)")
                }
            }
            lines += edges
            size += edges.reduce(0) { $0 + $1.utf8.count + 1 }
        }

        for root in state.roots { declareSubtree(root, indent: "  ") }

        let outside = state.detachedRouters()
        let lone = state.loneInteractors()
        if !outside.isEmpty || !lone.isEmpty {
            let before = lines.count
            lines.append("  subgraph outside[\"outside the tree, still alive\"]")
            for router in outside { declareSubtree(router.id, indent: "    ") }
            for interactor in lone where !shown.contains(interactor.id) { _ = declare(interactor, indent: "    ") }
            if lines.count == before + 1 { lines.removeLast() } else { lines.append("  end") }
        }

        // Notes: findings about the trace as a whole or about nodes no longer alive, and what was left out.
        var notes: [String] = []
        if shown.isEmpty { notes.append("no routers alive") }
        for finding in traceFindings { notes.append("! " + finding.rule.rawValue) }
        let gone = findings.filter { $0.subject != .trace && !shown.contains($0.id) && state[$0.id] == nil }
        if !gone.isEmpty {
            var counts: [(String, Int)] = []
            for finding in gone {
                if let i = counts.firstIndex(where: { $0.0 == finding.rule.rawValue }) { counts[i].1 += 1 } else { counts.append((finding.rule.rawValue, 1)) }
            }
            notes.append("findings about nodes no longer alive: " + counts.map { $0.1 == 1 ? $0.0 : "\($0.0) x\($0.1)" }.joined(separator: ", "))
        }
        if omitted > 0 { notes.append("\u{2026} \(omitted) more not shown") }
        if !notes.isEmpty {
            lines.append("  n0[\"" + notes.map { escape($0, limit: 200) }.joined(separator: "\n") + "\"]")
            let severe = traceFindings.contains { $0.severity == .error } || gone.contains { $0.severity == .error }
            classes[severe ? "error" : (traceFindings.isEmpty && gone.isEmpty ? "note" : "warning"), default: []].append(0)
        }

        let definitions: [(String, String)] = [
            ("active", "fill:#e6f4ea,stroke:#2e7d32,color:#000"),
            ("inactive", "fill:#f1f3f4,stroke:#80868b,color:#333"),
            ("detached", "fill:#fff8e1,stroke:#b58900,color:#000,stroke-dasharray: 5 5"),
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
                lines.append("  class " + chunk.map { "n\($0)" }.joined(separator: ",") + " \(className)")
                start += 50
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Gantt (lifecycles)

    /// A `gantt` chart with one section per router (and per lone interactor), one
    /// row per bar (mermaid's compact mode would put a short bar's text over the next one):
    /// `attached` bars, `detached (alive)` bars while it is alive but not attached,
    /// `active` bars for its interactor, one bar per bound task (red from the
    /// cancellation request while it keeps running), and a `deinit` milestone.
    /// Marks are milestones in a section of their own. Times are milliseconds
    /// since the start of the session (`dateFormat x`).
    static func gantt(_ history: TraceHistory, filter: NodeFilter? = nil) -> String {
        let end = history.endTime
        let selected = history.nodes.filter { filter?.matches($0) ?? true }
        var body: [String] = []
        var size = 0
        var sections = 0
        var longest = 8
        let minGap = max(2_000_000, end / 200)

        for life in selected {
            guard sections < maxSections, size < maxCharacters else { break }
            sections += 1
            let title = name(life.type, life.id)
            longest = max(longest, life.type.count + 2 + String(life.id).count)
            var bars: [String] = []
            var count = 0
            func bar(_ text: String, tags: String?, id: String, from start: UInt64, to stop: UInt64?) {
                guard count < maxBarsPerSection else { count += 1; return }
                count += 1
                let a = ms(start)
                var b = ms(stop ?? end)
                if b <= a { b = a + 1 }  // visible, however short
                bars.append("    \(text) :\(tags.map { "\($0), " } ?? "")\(id), \(a), \(b)")
            }
            let gone = life.deallocated ?? end
            // Attached spans, and the time alive but not attached after them
            // (short gaps, like the moment between a detach and the deinit, are left out).
            var cursor: UInt64?
            for (k, attachment) in life.attached.enumerated() {
                let span = attachment.span
                if let from = cursor, span.start > from, span.start - from >= minGap {
                    bar("detached (alive)", tags: "done", id: "n\(life.id)x\(k)", from: from, to: span.start)
                }
                bar(attachment.parent == nil ? "launched" : "attached", tags: nil, id: "n\(life.id)a\(k)", from: span.start, to: span.end)
                cursor = span.end ?? end
            }
            if life.kind == .router {
                let from = cursor ?? life.created
                if gone > from && (life.deallocated == nil || gone - from >= minGap) {
                    bar(cursor == nil ? "never attached (alive)" : "detached (alive)", tags: life.deallocated == nil ? "crit" : "done",
                        id: "n\(life.id)x\(life.attached.count)", from: from, to: gone)
                }
            }
            for (k, span) in life.active.enumerated() {
                bar("active", tags: "active", id: "n\(life.id)b\(k)", from: span.start, to: span.end)
            }
            for (k, task) in life.tasks.enumerated() {
                let label = "task" + (task.label.map { " '" + $0 + "'" } ?? "")
                if let cancel = task.cancel {
                    bar(escape(label), tags: "done", id: "n\(life.id)t\(k)", from: task.start, to: cancel)
                    if (task.end ?? end) > cancel && ms(task.end ?? end) > ms(cancel) {
                        bar(escape(label + " after cancel"), tags: "crit", id: "n\(life.id)c\(k)", from: cancel, to: task.end)
                    }
                } else {
                    bar(escape(label), tags: task.end == nil ? "crit" : "done", id: "n\(life.id)t\(k)", from: task.start, to: task.end)
                }
            }
            if count > maxBarsPerSection {
                bars.append("    #8230; \(count - maxBarsPerSection) more :n\(life.id)m, \(ms(gone)), \(ms(gone) + 1)")
            }
            if let deallocated = life.deallocated {
                bars.append("    deinit :milestone, n\(life.id)d, \(ms(deallocated)), 0ms")
            }
            if bars.isEmpty { bars.append("    created :milestone, n\(life.id)n, \(ms(life.created)), 0ms") }
            let text = ["  section \(title)"] + bars
            body += text
            size += text.reduce(0) { $0 + $1.utf8.count + 1 }
        }

        // Marks: a milestone each, in a section of their own (one row per task, so texts never overlap).
        if filter == nil && !history.marks.isEmpty {
            body.append("  section marks")
            for (k, mark) in history.marks.enumerated() {
                guard k < maxMarks, size < maxCharacters else {
                    body.append("    #8230; \(history.marks.count - k) more marks :milestone, k\(k), \(ms(end)), 0ms")
                    break
                }
                let line = "    \(escape(mark.text, limit: 60)) :milestone, k\(k), \(ms(mark.time)), 0ms"
                body.append(line)
                size += line.utf8.count + 1
            }
        }

        var title = history.session.map { "\($0.app) (pid \($0.pid))" } ?? "trace"
        title += ": lifecycles"
        if let filter { title += " of '\(filter.name)'" }
        if selected.count > sections { title += ", \u{2026} \(selected.count - sections) more not shown" }
        if selected.isEmpty { body.append("  section no routers"); body.append("    nothing traced :milestone, e0, 0, 0ms") }

        let padding = min(420, max(120, longest * 7 + 24))
        var lines = [
            "---",
            "config:",
            "  gantt:",
            "    leftPadding: \(padding)",
            "---",
            "gantt",
            "  title \(escape(title, limit: 160))",
            "  dateFormat x",
            "  axisFormat \(axisFormat(end))",
            "  todayMarker off",
        ]
        lines += body
        return lines.joined(separator: "\n") + "\n"
    }

    /// Nanoseconds to whole milliseconds.
    private static func ms(_ ns: UInt64) -> UInt64 { ns / 1_000_000 }

    /// A d3 time format for the axis that reads well for a trace of this length
    /// (dates are milliseconds since the session start, shown as seconds or minutes).
    static func axisFormat(_ end: UInt64) -> String {
        if end < 10_000_000_000 { return "%-S.%L s" }
        if end < 60_000_000_000 { return "%-S s" }
        return "%-M:%S"
    }

    // MARK: - Sequence (attach/detach)

    /// A `sequenceDiagram` of how routers attached and detached each other, in
    /// trace order: participants are the routers (`participant nN as Type #id`) in
    /// order of appearance, launches and deinits are notes over the router, marks
    /// notes across the diagram.
    static func sequence(_ history: TraceHistory) -> String {
        enum Step {
            case link(attach: Bool, parent: NodeID, child: NodeID)
            case launch(NodeID)
            case gone(NodeID)
            case mark(String)
        }
        var steps: [(seq: UInt64, step: Step)] = []
        for link in history.links { steps.append((link.at.seq, .link(attach: link.isAttach, parent: link.parent, child: link.child))) }
        for node in history.nodes {
            for attachment in node.attached where attachment.parent == nil { steps.append((attachment.span.startSeq, .launch(node.id))) }
        }
        for gone in history.deinits { steps.append((gone.at.seq, .gone(gone.id))) }
        for mark in history.marks { steps.append((mark.seq, .mark(mark.text))) }
        steps.sort { $0.seq < $1.seq }

        // Participants in order of first appearance, capped.
        var participants: [NodeID] = []
        var known = Set<NodeID>()
        var extra = Set<NodeID>()
        func meet(_ id: NodeID) {
            guard !known.contains(id) else { return }
            if participants.count < maxParticipants { participants.append(id); known.insert(id) } else { extra.insert(id) }
        }
        for (_, step) in steps {
            switch step {
            case .link(_, let parent, let child): meet(parent); meet(child)
            case .launch(let id), .gone(let id): meet(id)
            case .mark: break
            }
        }

        var lines = ["sequenceDiagram"]
        for id in participants {
            let life = history.life(of: id)
            lines.append("  participant n\(id) as \(name(life?.type ?? "unknown", id))")
        }
        if participants.isEmpty { lines.append("  participant n0 as \(escape(history.session?.app ?? "trace"))") }
        let first = participants.first ?? 0
        let last = participants.last ?? 0
        let span = first == last ? "n\(first)" : "n\(first),n\(last)"

        var size = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        var messages = 0
        var skipped = 0
        for (_, step) in steps {
            guard messages < maxMessages, size < maxCharacters else { skipped += 1; continue }
            let line: String
            switch step {
            case .link(let attach, let parent, let child):
                guard known.contains(parent), known.contains(child) else { skipped += 1; continue }
                line = attach ? "  n\(parent)->>n\(child): attach" : "  n\(parent)-xn\(child): detach"
            case .launch(let id):
                guard known.contains(id) else { skipped += 1; continue }
                line = "  Note over n\(id): launch"
            case .gone(let id):
                guard known.contains(id) else { skipped += 1; continue }
                line = "  Note over n\(id): deinit"
            case .mark(let text):
                line = "  Note over \(span): \(escape(text))"
            }
            lines.append(line)
            size += line.utf8.count + 1
            messages += 1
        }
        if steps.isEmpty { lines.append("  Note over \(span): no attach or detach in this trace") }
        if skipped > 0 || !extra.isEmpty {
            var text = "#8230; \(skipped) more events not shown"
            if !extra.isEmpty { text += " (\(extra.count) more routers)" }
            lines.append("  Note over \(span): \(text)")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

/// Which timeline rows to show: `--node NAME` (a type name containing NAME,
/// ignoring case, or the router or interactor with id NAME).
struct NodeFilter: Sendable, Equatable {
    var name: String

    func matches(_ life: TraceHistory.NodeLife) -> Bool {
        if let id = NodeID(name) { return life.id == id || life.interactor == id }
        return life.type.lowercased().contains(name.lowercased())
    }
}
