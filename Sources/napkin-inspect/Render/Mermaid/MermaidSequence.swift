import NapkinTrace

extension MermaidRenderer {
    /// At most this many participants in a sequence diagram.
    static let maxParticipants = 200
    /// At most this many messages and notes in a sequence diagram.
    static let maxMessages = 600

    /// A `sequenceDiagram` of how routers attached and detached each other, in
    /// trace order: participants are the routers (`participant nN as Type #id`) in
    /// order of appearance, launches and deinits are notes over the router, marks
    /// notes across the diagram.
    static func sequence(_ history: TraceHistory) -> String {
        /// One thing that happened, in trace order.
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
        if participants.isEmpty { lines.append("  participant n0 as \(label(history.session?.app ?? "trace"))") }
        let first = participants.first ?? 0
        let last = participants.last ?? 0
        let span = first == last ? "n\(first)" : "n\(first),n\(last)"

        var size = Self.size(of: lines)
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
                line = "  Note over \(span): \(label(text))"
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
