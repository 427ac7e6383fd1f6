/// One kind of finding, as a unit: what it watches, when it decides, what it says.
///
/// Each rule lives in its own file under `Analysis/Rules/`, named after it,
/// with its ``Finding/Rule`` value (id, severity, title, one-line summary,
/// help), its logic and its messages; `docs/findings.md` has a section under
/// the rule's id. ``TraceAnalyzer`` runs every rule of ``RuleID`` and
/// owns only what they share (``AnalysisContext``): the state of the app,
/// the grace-period checks and one finding per cause.
///
/// What an implementation must do:
/// - declare in ``watches`` every event kind whose effect it needs: it is
///   called for those and no others, right after the event was applied to
///   ``AnalysisContext/state``;
/// - report with ``AnalysisContext/report(_:key:)``, giving a key (a node or
///   task id, or a sequence number) that names the cause, so that one cause
///   is reported once;
/// - to look again one grace period later, ``AnalysisContext/schedule(_:)``
///   a ``GraceCheck``; it comes back to ``decide(_:_:)`` when the app's main
///   actor has run past its deadline (see ``TraceAnalyzer``), or, if the
///   trace ended first, to ``isOpen(_:in:)`` (still undecided?) and
///   ``undecided(_:)``; decide from the model's state as it is then (a
///   subject may be checked more than once: report once, by key), and when
///   the subject has moved since the check was asked for (it left the tree
///   again later), re-arm it for the new moment with
///   ``AnalysisContext/schedule(_:at:)``;
/// - keep only state that is bounded by the live nodes (the analyzer must
///   follow endless traces in constant memory); a rule is made anew for
///   every session of a trace.
protocol FindingRule: Sendable {
    /// The finding this rule reports.
    static var rule: Finding.Rule { get }
    /// The event kinds this rule observes.
    static var watches: Set<TraceEvent.Name> { get }
    /// For a finding about a router or interactor: which of its code
    /// locations to name, the one to look at first first (default: where it
    /// was attached, then detached, then created).
    static var codeFocus: [Finding.CodeReference.Role] { get }

    /// Whether the rule does nothing with an event that reveals no misuse
    /// (``TraceState/Effect/misuse`` is nil): the analyzer then skips it.
    static var observesOnlyMisuse: Bool { get }

    /// A rule with no state yet (a new session starts).
    init()

    /// `event`, which the rule watches, was applied; `effect` says what it changed.
    mutating func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext)

    /// A check this rule scheduled is due: trace time passed its deadline.
    mutating func decide(_ check: GraceCheck, _ context: inout AnalysisContext)

    /// The trace ended before `check` was due: whether what it waits for is
    /// still pending (the check is then counted as undecided).
    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool

    /// `check` is counted as undecided (the trace ended within its grace period).
    mutating func undecided(_ check: GraceCheck)

    /// The session ended (its `end` record, a new session, or the end of input):
    /// report what is only known at the end.
    mutating func finish(_ context: inout AnalysisContext)
}

extension FindingRule {
    static var codeFocus: [Finding.CodeReference.Role] { [.attached, .detached, .created] }
    static var observesOnlyMisuse: Bool { false }
    func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {}
    func decide(_ check: GraceCheck, _ context: inout AnalysisContext) {}
    /// By default a check is open while its subject (a node or a task) is alive.
    func isOpen(_ check: GraceCheck, in state: TraceState) -> Bool {
        state.contains(check.subject) || state.isRunning(task: check.subject)
    }
    func undecided(_ check: GraceCheck) {}
    func finish(_ context: inout AnalysisContext) {}
}

/// A check a rule asked for: look at `subject` again when the grace period
/// after event `since` has passed.
struct GraceCheck: Sendable {
    /// The node or task to look at.
    var subject: NodeID
    /// The sequence number of the event that scheduled the check.
    var since: UInt64
    /// Another node the check is about (a parent, a router), if any.
    var other: NodeID = 0
    /// A rule-defined flag.
    var flag = false
    /// Trace time (ns) after which the check is decided; set by ``AnalysisContext/schedule(_:)``.
    var deadline: UInt64 = 0
    /// Which rule scheduled it; set by the context.
    var rule = RuleID.undetachedChild
    /// Trace time of the event that scheduled it; set by the context.
    var scheduledAt: UInt64 = 0
    /// When the queue takes it (its deadline, or later to keep the queue in order).
    var due: UInt64 = 0
}

