/// When the grace-period checks that fall due are decided: by the app's
/// main-actor progress (see ``TraceAnalyzer``).
///
/// A check is due when trace time passes its deadline, but it is decided
/// only at the first main-actor event (``TraceState/isMainActorEvent(_:)``)
/// after it, before that event is applied: the main actor has run past the
/// deadline without doing what the check waits for. Except when the main
/// actor wrote nothing at all between the check's event and that first
/// event: it was idle or blocked for the whole grace period (the trace
/// cannot tell which), and what it does as soon as it runs again (a
/// released router's deinit, a cancelled task's last main-actor step) is the
/// backlog of that time. Such a check waits ``settle`` (one grace period)
/// more, from the main actor's first event: its grace period starts when
/// the main actor runs again, and the backlog counts as done in time.
struct MainActorProgress: Sendable {
    /// How long a main actor that resumes after a silence may take to catch up.
    let settle: UInt64
    /// The time of the last main-actor event.
    private var lastMainActorEvent: UInt64 = 0
    /// Checks waiting for the main actor to catch up, and until when (oldest first).
    private var catchingUp: [(check: GraceCheck, until: UInt64)] = []

    init(settle: UInt64) {
        self.settle = settle
    }

    /// How many checks wait for the main actor to catch up.
    var waiting: Int { catchingUp.count }

    /// Appends to `decide` the checks to decide before `event` is applied,
    /// taken from `context`'s due checks.
    @inline(__always)
    mutating func checksToDecide(before event: TraceEvent, isMainActor: Bool, _ context: inout AnalysisContext,
                                 into decide: inout [GraceCheck]) {
        // Most events: nothing to do, decided without a call.
        guard isMainActor || !catchingUp.isEmpty else { return }
        if catchingUp.isEmpty && !context.hasDue(before: event.time) {
            lastMainActorEvent = max(lastMainActorEvent, event.time)
            return
        }
        decideChecks(before: event, isMainActor: isMainActor, &context, into: &decide)
    }

    private mutating func decideChecks(before event: TraceEvent, isMainActor: Bool, _ context: inout AnalysisContext,
                                       into decide: inout [GraceCheck]) {
        var caughtUp = 0
        while caughtUp < catchingUp.count && catchingUp[caughtUp].until <= event.time { caughtUp += 1 }
        if caughtUp > 0 {
            decide += catchingUp.prefix(caughtUp).map(\.check)
            catchingUp.removeFirst(caughtUp)
        }
        guard isMainActor else { return }
        let (until, overflow) = event.time.addingReportingOverflow(settle)
        while let check = context.nextDue(before: event.time) {
            if lastMainActorEvent > check.scheduledAt {
                decide.append(check)                  // the main actor ran in the grace period
            } else {
                catchingUp.append((check, overflow ? .max : until))
            }
        }
        lastMainActorEvent = max(lastMainActorEvent, event.time)
    }

    /// Every check waiting to catch up (a live view's idle time passes, or the session ends).
    mutating func takeAll() -> [GraceCheck] {
        defer { catchingUp.removeAll() }
        return catchingUp.map(\.check)
    }
}
