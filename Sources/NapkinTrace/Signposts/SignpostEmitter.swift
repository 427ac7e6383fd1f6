// The seam between napkin's lifecycle and a signpost API: the intervals and
// events napkin shows in Instruments, named once (`SignpostName`), and the
// three calls a signposter must offer (`SignpostEmitter`). Apple's
// `OSSignposter` is one emitter (Platform/OSSignposts.swift); tests record
// the calls with another, on any platform.

/// What napkin marks in Instruments: four kinds of interval and two of event.
package enum SignpostName: CaseIterable, Sendable, Hashable {
    /// A router is in the tree: from its attach (or launch) to its detach.
    case attached
    /// An interactor is active: from `activate` to `deactivate`.
    case active
    /// A task bound to an interactor's active period runs: from its start to its end.
    case task
    /// A router's view is on screen: from `shown` to `covered` or `removed`.
    case visible
    /// The detector established a finding (an event).
    case finding
    /// The app wrote a mark with ``NapkinTrace/mark(_:)`` (an event).
    case mark

    /// The signpost's name as Instruments lists it: a `StaticString`, as
    /// `OSSignposter` requires.
    package var staticName: StaticString {
        switch self {
        case .attached: "Router attached"
        case .active: "Interactor active"
        case .task: "Bound task"
        case .visible: "View visible"
        case .finding: "Finding"
        case .mark: "Mark"
        }
    }

    /// Whether the signpost is an interval (begun and ended) rather than an event.
    package var isInterval: Bool {
        switch self {
        case .attached, .active, .task, .visible: true
        case .finding, .mark: false
        }
    }
}

/// A signposter: where ``SignpostIntervals`` sends its intervals and events.
///
/// Called with the intervals' lock held, one call at a time, so an
/// implementation needs no synchronisation of its own and need not be
/// `Sendable` (Apple's `OSSignposter` is a value used under that lock).
package protocol SignpostEmitter {
    /// What a begun interval needs to be ended (`OSSignpostIntervalState`).
    associatedtype IntervalState

    /// Begins interval `name` for napkin object `id` of type `type`.
    mutating func begin(_ name: SignpostName, id: NodeID, type: String) -> IntervalState

    /// Ends the interval `state` that ``begin(_:id:type:)`` returned for `name` and `id`.
    mutating func end(_ name: SignpostName, _ state: IntervalState, id: NodeID, type: String)

    /// Marks event `name` about napkin object `id` (0 when about none), with `text`.
    mutating func event(_ name: SignpostName, id: NodeID, text: String)
}
