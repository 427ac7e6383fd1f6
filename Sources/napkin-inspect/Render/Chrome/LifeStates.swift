import NapkinTrace

/// A router's life (or a lone interactor's) cut into consecutive stretches
/// of one state each: attached or not, its interactor active or not, its view
/// shown or not. `export` draws them as the slices nested in the router's
/// lifetime slice.
///
/// Attached, active and shown spans overlap without nesting (a healthy
/// router is detached a moment before it is deactivated, its view goes
/// before it is detached), so they cannot each be a nested slice of one
/// track; stretches of one combined state always nest. Spans are clipped to
/// the life (a hostile trace can attach a router after its deinit), and
/// stretches of no length are left out.
struct LifeStates {
    /// Where the router stands in the tree.
    enum Attachment: Equatable {
        /// Not attached yet since its creation.
        case created
        /// Attached to `parent`.
        case attached(parent: NodeID)
        /// Launched as the root of the tree.
        case launched
        /// Detached, and not attached again (yet).
        case detached
    }

    /// One state, and how long it lasted.
    struct Stretch: Equatable {
        /// Where it starts (ns since the session start).
        var start: UInt64
        /// Where it ends.
        var end: UInt64
        /// Where the router stands in the tree (``Attachment/created`` for a lone interactor).
        var attachment: Attachment
        /// Whether its interactor is active.
        var active: Bool
        /// Whether its view is shown.
        var shown: Bool

        /// The state's words, the slice's name: `active`, `inactive`, `active · view shown`,
        /// `detached`, `detached · active` (a bug: active outside the tree), `created`.
        func name(isRouter: Bool) -> String {
            var words: String
            switch attachment {
            case .attached, .launched: words = active ? "active" : "inactive"
            case .created where !isRouter: words = active ? "active" : "inactive"
            case .created: words = active ? "created · active" : "created"
            case .detached: words = active ? "detached · active" : "detached"
            }
            if shown { words += " · view shown" }
            return words
        }
    }

    /// A change of state: at `time`, `kind` starts (`+1`) or ends (`-1`).
    private struct Change {
        /// What changes.
        enum Kind { case attached(NodeID?), active, shown }
        var time: UInt64
        var kind: Kind
        var delta: Int
    }

    /// The stretches of `life` within `lifetime` (its creation to its deinit,
    /// or the end of the trace); open spans end with the lifetime.
    static func stretches(of life: TraceHistory.NodeLife, lifetime: ClosedRange<UInt64>) -> [Stretch] {
        var changes: [Change] = []
        func add(_ kind: Change.Kind, _ span: TraceHistory.Interval) {
            let start = span.start.clamped(to: lifetime)
            let end = (span.end ?? lifetime.upperBound).clamped(to: start...lifetime.upperBound)
            changes.append(Change(time: start, kind: kind, delta: 1))
            changes.append(Change(time: end, kind: kind, delta: -1))
        }
        for attachment in life.attached { add(.attached(attachment.parent), attachment.span) }
        for span in life.active { add(.active, span) }
        for span in life.shown { add(.shown, span) }
        // Ends before starts at the same time: a detach and an attach in one instant leave it attached.
        changes.sort { ($0.time, $0.delta) < ($1.time, $1.delta) }

        var stretches: [Stretch] = []
        var attachedCount = 0, activeCount = 0, shownCount = 0
        var attachment = Attachment.created
        var time = lifetime.lowerBound
        var index = 0
        while time < lifetime.upperBound {
            while index < changes.count && changes[index].time <= time {
                let change = changes[index]
                switch change.kind {
                case .attached(let parent):
                    attachedCount += change.delta
                    if change.delta > 0 { attachment = parent.map { .attached(parent: $0) } ?? .launched }
                case .active: activeCount += change.delta
                case .shown: shownCount += change.delta
                }
                index += 1
            }
            if attachedCount <= 0, attachment != .created { attachment = .detached }
            let next = index < changes.count ? min(changes[index].time, lifetime.upperBound) : lifetime.upperBound
            let stretch = Stretch(start: time, end: next, attachment: attachment, active: activeCount > 0, shown: shownCount > 0)
            if var last = stretches.last, last.attachment == stretch.attachment, last.active == stretch.active, last.shown == stretch.shown {
                last.end = next
                stretches[stretches.count - 1] = last
            } else {
                stretches.append(stretch)
            }
            time = next
        }
        return stretches
    }
}

extension UInt64 {
    /// The value moved into `range`: its nearest bound when it lies outside.
    func clamped(to range: ClosedRange<UInt64>) -> UInt64 {
        Swift.min(Swift.max(self, range.lowerBound), range.upperBound)
    }
}
