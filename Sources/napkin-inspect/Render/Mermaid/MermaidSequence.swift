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
        let steps = sequenceSteps(history)
        let cast = SequenceCast(steps)
        var lines = ["sequenceDiagram"]
        for id in cast.participants {
            let life = history.life(of: id)
            lines.append("  participant n\(id) as \(name(life?.type ?? "unknown", id))")
        }
        if cast.participants.isEmpty { lines.append("  participant n0 as \(label(history.session?.app ?? "trace"))") }
        let first = cast.participants.first ?? 0
        let last = cast.participants.last ?? 0
        let span = first == last ? "n\(first)" : "n\(first),n\(last)"

        let skipped = appendSequenceMessages(steps, cast: cast, span: span, to: &lines)
        if steps.isEmpty { lines.append("  Note over \(span): no attach or detach in this trace") }
        if skipped > 0 || !cast.extra.isEmpty {
            var text = "#8230; \(skipped) more events not shown"
            if !cast.extra.isEmpty { text += " (\(cast.extra.count) more routers)" }
            lines.append("  Note over \(span): \(text)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: - Steps and participants

    /// One thing that happened, in trace order.
    private enum SequenceStep {
        case link(attach: Bool, parent: NodeID, child: NodeID)
        case launch(NodeID)
        case gone(NodeID)
        case mark(String)
    }

    /// The links, launches, deinits and marks of `history`, in trace order.
    private static func sequenceSteps(_ history: TraceHistory) -> [(seq: UInt64, step: SequenceStep)] {
        var steps: [(seq: UInt64, step: SequenceStep)] = []
        for link in history.links { steps.append((link.at.seq, .link(attach: link.isAttach, parent: link.parent, child: link.child))) }
        for node in history.nodes {
            for attachment in node.attached where attachment.parent == nil { steps.append((attachment.span.startSeq, .launch(node.id))) }
        }
        for gone in history.deinits { steps.append((gone.at.seq, .gone(gone.id))) }
        for mark in history.marks { steps.append((mark.seq, .mark(mark.text))) }
        steps.sort { $0.seq < $1.seq }
        return steps
    }

    /// The routers the steps name: the participants in order of first
    /// appearance (at most ``maxParticipants``), and those left out.
    private struct SequenceCast {
        /// The participants, in order of first appearance.
        var participants: [NodeID] = []
        /// The participants, for lookup.
        var known = Set<NodeID>()
        /// The routers beyond ``maxParticipants``.
        var extra = Set<NodeID>()

        /// The routers of `steps`.
        init(_ steps: [(seq: UInt64, step: SequenceStep)]) {
            for (_, step) in steps {
                switch step {
                case .link(_, let parent, let child): meet(parent); meet(child)
                case .launch(let id), .gone(let id): meet(id)
                case .mark: break
                }
            }
        }

        /// Counts `id` in, as a participant while there is room.
        private mutating func meet(_ id: NodeID) {
            guard !known.contains(id) else { return }
            if participants.count < maxParticipants { participants.append(id); known.insert(id) } else { extra.insert(id) }
        }
    }

    // MARK: - Messages

    /// Appends a message or note to `lines` for each of `steps` (marks as
    /// notes over `span`) while the diagram has room; returns how many were left out.
    private static func appendSequenceMessages(_ steps: [(seq: UInt64, step: SequenceStep)], cast: SequenceCast, span: String,
                                               to lines: inout [String]) -> Int {
        var size = Self.size(of: lines)
        var messages = 0
        var skipped = 0
        for (_, step) in steps {
            guard messages < maxMessages, size < maxCharacters,
                  let line = sequenceMessage(step, known: cast.known, span: span) else { skipped += 1; continue }
            lines.append(line)
            size += line.utf8.count + 1
            messages += 1
        }
        return skipped
    }

    /// The line of `step`, or nil when it involves a router that is not a participant.
    private static func sequenceMessage(_ step: SequenceStep, known: Set<NodeID>, span: String) -> String? {
        switch step {
        case .link(let attach, let parent, let child):
            guard known.contains(parent), known.contains(child) else { return nil }
            return attach ? "  n\(parent)->>n\(child): attach" : "  n\(parent)-xn\(child): detach"
        case .launch(let id):
            guard known.contains(id) else { return nil }
            return "  Note over n\(id): launch"
        case .gone(let id):
            guard known.contains(id) else { return nil }
            return "  Note over n\(id): deinit"
        case .mark(let text):
            return "  Note over \(span): \(label(text))"
        }
    }
}
