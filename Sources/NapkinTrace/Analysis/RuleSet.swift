/// The rules of one session, each stored as its own type and called through
/// an exhaustive switch over ``RuleID``: no existential boxes, so a call is
/// direct and a rule's state is mutated in place.
///
/// A new ``RuleID`` case needs a stored property here, named like the case,
/// and an arm in each switch; the compiler names each switch that lacks it
/// (`RuleSetTests` checks the properties' names and types).
struct RuleSet: Sendable {
    private var undetachedChild = UndetachedChildRule()
    private var notDeallocated = NotDeallocatedRule()
    private var orphanedTask = OrphanedTaskRule()
    private var taskStartedInactive = TaskStartedInactiveRule()
    private var activeAfterDetach = ActiveAfterDetachRule()
    private var stuckHook = StuckHookRule()
    private var viewGoneStillAttached = ViewGoneStillAttachedRule()
    private var viewShownAfterDetach = ViewShownAfterDetachRule()
    private var growingPopulation = GrowingPopulationRule()
    private var overBudget = OverBudgetRule()
    private var duplicateChild = DuplicateChildRule()
    private var doubleAttach = DoubleAttachRule()
    private var attachUnderDescendant = AttachUnderDescendantRule()
    private var detachNonChild = DetachNonChildRule()
    private var eventAfterDeinit = EventAfterDeinitRule()
    private var eventsDropped = EventsDroppedRule()
    private var aliveAtEnd = AliveAtEndRule()

    /// Fresh rules (a session starts).
    init() {}

    // MARK: - Dispatch

    /// `rule` observes `event`.
    @inline(__always)
    mutating func observe(_ rule: RuleID, _ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        switch rule {
        case .undetachedChild: undetachedChild.observe(event, effect, &context)
        case .notDeallocated: notDeallocated.observe(event, effect, &context)
        case .orphanedTask: orphanedTask.observe(event, effect, &context)
        case .taskStartedInactive: taskStartedInactive.observe(event, effect, &context)
        case .activeAfterDetach: activeAfterDetach.observe(event, effect, &context)
        case .stuckHook: stuckHook.observe(event, effect, &context)
        case .viewGoneStillAttached: viewGoneStillAttached.observe(event, effect, &context)
        case .viewShownAfterDetach: viewShownAfterDetach.observe(event, effect, &context)
        case .growingPopulation: growingPopulation.observe(event, effect, &context)
        case .overBudget: overBudget.observe(event, effect, &context)
        case .duplicateChild: duplicateChild.observe(event, effect, &context)
        case .doubleAttach: doubleAttach.observe(event, effect, &context)
        case .attachUnderDescendant: attachUnderDescendant.observe(event, effect, &context)
        case .detachNonChild: detachNonChild.observe(event, effect, &context)
        case .eventAfterDeinit: eventAfterDeinit.observe(event, effect, &context)
        case .eventsDropped: eventsDropped.observe(event, effect, &context)
        case .aliveAtEnd: aliveAtEnd.observe(event, effect, &context)
        }
    }

    /// `rule` decides `check`.
    mutating func decide(_ rule: RuleID, _ check: GraceCheck, _ context: inout AnalysisContext) {
        switch rule {
        case .undetachedChild: undetachedChild.decide(check, &context)
        case .notDeallocated: notDeallocated.decide(check, &context)
        case .orphanedTask: orphanedTask.decide(check, &context)
        case .taskStartedInactive: taskStartedInactive.decide(check, &context)
        case .activeAfterDetach: activeAfterDetach.decide(check, &context)
        case .stuckHook: stuckHook.decide(check, &context)
        case .viewGoneStillAttached: viewGoneStillAttached.decide(check, &context)
        case .viewShownAfterDetach: viewShownAfterDetach.decide(check, &context)
        case .growingPopulation: growingPopulation.decide(check, &context)
        case .overBudget: overBudget.decide(check, &context)
        case .duplicateChild: duplicateChild.decide(check, &context)
        case .doubleAttach: doubleAttach.decide(check, &context)
        case .attachUnderDescendant: attachUnderDescendant.decide(check, &context)
        case .detachNonChild: detachNonChild.decide(check, &context)
        case .eventAfterDeinit: eventAfterDeinit.decide(check, &context)
        case .eventsDropped: eventsDropped.decide(check, &context)
        case .aliveAtEnd: aliveAtEnd.decide(check, &context)
        }
    }

    /// Whether what `rule`'s `check` waits for is still pending.
    func isOpen(_ rule: RuleID, _ check: GraceCheck, in state: TraceState) -> Bool {
        switch rule {
        case .undetachedChild: undetachedChild.isOpen(check, in: state)
        case .notDeallocated: notDeallocated.isOpen(check, in: state)
        case .orphanedTask: orphanedTask.isOpen(check, in: state)
        case .taskStartedInactive: taskStartedInactive.isOpen(check, in: state)
        case .activeAfterDetach: activeAfterDetach.isOpen(check, in: state)
        case .stuckHook: stuckHook.isOpen(check, in: state)
        case .viewGoneStillAttached: viewGoneStillAttached.isOpen(check, in: state)
        case .viewShownAfterDetach: viewShownAfterDetach.isOpen(check, in: state)
        case .growingPopulation: growingPopulation.isOpen(check, in: state)
        case .overBudget: overBudget.isOpen(check, in: state)
        case .duplicateChild: duplicateChild.isOpen(check, in: state)
        case .doubleAttach: doubleAttach.isOpen(check, in: state)
        case .attachUnderDescendant: attachUnderDescendant.isOpen(check, in: state)
        case .detachNonChild: detachNonChild.isOpen(check, in: state)
        case .eventAfterDeinit: eventAfterDeinit.isOpen(check, in: state)
        case .eventsDropped: eventsDropped.isOpen(check, in: state)
        case .aliveAtEnd: aliveAtEnd.isOpen(check, in: state)
        }
    }

    /// `rule`'s `check` is counted as undecided.
    mutating func undecided(_ rule: RuleID, _ check: GraceCheck) {
        switch rule {
        case .undetachedChild: undetachedChild.undecided(check)
        case .notDeallocated: notDeallocated.undecided(check)
        case .orphanedTask: orphanedTask.undecided(check)
        case .taskStartedInactive: taskStartedInactive.undecided(check)
        case .activeAfterDetach: activeAfterDetach.undecided(check)
        case .stuckHook: stuckHook.undecided(check)
        case .viewGoneStillAttached: viewGoneStillAttached.undecided(check)
        case .viewShownAfterDetach: viewShownAfterDetach.undecided(check)
        case .growingPopulation: growingPopulation.undecided(check)
        case .overBudget: overBudget.undecided(check)
        case .duplicateChild: duplicateChild.undecided(check)
        case .doubleAttach: doubleAttach.undecided(check)
        case .attachUnderDescendant: attachUnderDescendant.undecided(check)
        case .detachNonChild: detachNonChild.undecided(check)
        case .eventAfterDeinit: eventAfterDeinit.undecided(check)
        case .eventsDropped: eventsDropped.undecided(check)
        case .aliveAtEnd: aliveAtEnd.undecided(check)
        }
    }

    /// `rule` reports what is only known at the end of the session.
    mutating func finish(_ rule: RuleID, _ context: inout AnalysisContext) {
        switch rule {
        case .undetachedChild: undetachedChild.finish(&context)
        case .notDeallocated: notDeallocated.finish(&context)
        case .orphanedTask: orphanedTask.finish(&context)
        case .taskStartedInactive: taskStartedInactive.finish(&context)
        case .activeAfterDetach: activeAfterDetach.finish(&context)
        case .stuckHook: stuckHook.finish(&context)
        case .viewGoneStillAttached: viewGoneStillAttached.finish(&context)
        case .viewShownAfterDetach: viewShownAfterDetach.finish(&context)
        case .growingPopulation: growingPopulation.finish(&context)
        case .overBudget: overBudget.finish(&context)
        case .duplicateChild: duplicateChild.finish(&context)
        case .doubleAttach: doubleAttach.finish(&context)
        case .attachUnderDescendant: attachUnderDescendant.finish(&context)
        case .detachNonChild: detachNonChild.finish(&context)
        case .eventAfterDeinit: eventAfterDeinit.finish(&context)
        case .eventsDropped: eventsDropped.finish(&context)
        case .aliveAtEnd: aliveAtEnd.finish(&context)
        }
    }
}
