/// Every finding rule the analyzer runs, in order: the one registry.
///
/// The order is the order in which rules see each event, decide their checks
/// at the same deadline, and report at the end of a session; it is also the
/// order of ``Finding/Rule/allCases`` (and so of the JUnit test cases).
///
/// Each rule is stored as its own type and called through a switch on its
/// index (``FindingRules/all`` gives the index of each): no existential
/// boxes, so a call is direct and a rule's state is mutated in place. To add
/// a rule, add it to ``types``, as a stored property, and to each switch
/// (`RuleSetTests` checks that they agree).
struct RuleSet: Sendable {
    /// The rules' types, in order.
    static let types: [any FindingRule.Type] = [
        UndetachedChildRule.self,
        NotDeallocatedRule.self,
        OrphanedTaskRule.self,
        TaskStartedInactiveRule.self,
        ActiveAfterDetachRule.self,
        StuckHookRule.self,
        ViewGoneStillAttachedRule.self,
        ViewShownAfterDetachRule.self,
        DuplicateChildRule.self,
        DoubleAttachRule.self,
        AttachUnderDescendantRule.self,
        DetachNonChildRule.self,
        EventAfterDeinitRule.self,
        EventsDroppedRule.self,
        AliveAtEndRule.self,
    ]

    private var undetachedChild = UndetachedChildRule()
    private var notDeallocated = NotDeallocatedRule()
    private var orphanedTask = OrphanedTaskRule()
    private var taskStartedInactive = TaskStartedInactiveRule()
    private var activeAfterDetach = ActiveAfterDetachRule()
    private var stuckHook = StuckHookRule()
    private var viewGoneStillAttached = ViewGoneStillAttachedRule()
    private var viewShownAfterDetach = ViewShownAfterDetachRule()
    private var duplicateChild = DuplicateChildRule()
    private var doubleAttach = DoubleAttachRule()
    private var attachUnderDescendant = AttachUnderDescendantRule()
    private var detachNonChild = DetachNonChildRule()
    private var eventAfterDeinit = EventAfterDeinitRule()
    private var eventsDropped = EventsDroppedRule()
    private var aliveAtEnd = AliveAtEndRule()

    /// Fresh rules (a session starts).
    init() {}

    /// The type of the rule at `index`, as the switches below see it (for tests).
    static func type(at index: Int) -> (any FindingRule.Type)? {
        switch index {
        case 0: UndetachedChildRule.self
        case 1: NotDeallocatedRule.self
        case 2: OrphanedTaskRule.self
        case 3: TaskStartedInactiveRule.self
        case 4: ActiveAfterDetachRule.self
        case 5: StuckHookRule.self
        case 6: ViewGoneStillAttachedRule.self
        case 7: ViewShownAfterDetachRule.self
        case 8: DuplicateChildRule.self
        case 9: DoubleAttachRule.self
        case 10: AttachUnderDescendantRule.self
        case 11: DetachNonChildRule.self
        case 12: EventAfterDeinitRule.self
        case 13: EventsDroppedRule.self
        case 14: AliveAtEndRule.self
        default: nil
        }
    }

    /// Rule `index` observes `event`.
    @inline(__always)
    mutating func observe(_ index: Int, _ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        switch index {
        case 0: undetachedChild.observe(event, effect, &context)
        case 1: notDeallocated.observe(event, effect, &context)
        case 2: orphanedTask.observe(event, effect, &context)
        case 3: taskStartedInactive.observe(event, effect, &context)
        case 4: activeAfterDetach.observe(event, effect, &context)
        case 5: stuckHook.observe(event, effect, &context)
        case 6: viewGoneStillAttached.observe(event, effect, &context)
        case 7: viewShownAfterDetach.observe(event, effect, &context)
        case 8: duplicateChild.observe(event, effect, &context)
        case 9: doubleAttach.observe(event, effect, &context)
        case 10: attachUnderDescendant.observe(event, effect, &context)
        case 11: detachNonChild.observe(event, effect, &context)
        case 12: eventAfterDeinit.observe(event, effect, &context)
        case 13: eventsDropped.observe(event, effect, &context)
        case 14: aliveAtEnd.observe(event, effect, &context)
        default: break
        }
    }

    /// Rule `index` decides `check`.
    mutating func decide(_ index: Int, _ check: GraceCheck, _ context: inout AnalysisContext) {
        switch index {
        case 0: undetachedChild.decide(check, &context)
        case 1: notDeallocated.decide(check, &context)
        case 2: orphanedTask.decide(check, &context)
        case 3: taskStartedInactive.decide(check, &context)
        case 4: activeAfterDetach.decide(check, &context)
        case 5: stuckHook.decide(check, &context)
        case 6: viewGoneStillAttached.decide(check, &context)
        case 7: viewShownAfterDetach.decide(check, &context)
        case 8: duplicateChild.decide(check, &context)
        case 9: doubleAttach.decide(check, &context)
        case 10: attachUnderDescendant.decide(check, &context)
        case 11: detachNonChild.decide(check, &context)
        case 12: eventAfterDeinit.decide(check, &context)
        case 13: eventsDropped.decide(check, &context)
        case 14: aliveAtEnd.decide(check, &context)
        default: break
        }
    }

    /// Whether what rule `index`'s `check` waits for is still pending.
    func isOpen(_ index: Int, _ check: GraceCheck, in state: TraceState) -> Bool {
        switch index {
        case 0: return undetachedChild.isOpen(check, in: state)
        case 1: return notDeallocated.isOpen(check, in: state)
        case 2: return orphanedTask.isOpen(check, in: state)
        case 3: return taskStartedInactive.isOpen(check, in: state)
        case 4: return activeAfterDetach.isOpen(check, in: state)
        case 5: return stuckHook.isOpen(check, in: state)
        case 6: return viewGoneStillAttached.isOpen(check, in: state)
        case 7: return viewShownAfterDetach.isOpen(check, in: state)
        case 8: return duplicateChild.isOpen(check, in: state)
        case 9: return doubleAttach.isOpen(check, in: state)
        case 10: return attachUnderDescendant.isOpen(check, in: state)
        case 11: return detachNonChild.isOpen(check, in: state)
        case 12: return eventAfterDeinit.isOpen(check, in: state)
        case 13: return eventsDropped.isOpen(check, in: state)
        case 14: return aliveAtEnd.isOpen(check, in: state)
        default: return false
        }
    }

    /// Rule `index`'s `check` is counted as undecided.
    mutating func undecided(_ index: Int, _ check: GraceCheck) {
        switch index {
        case 0: undetachedChild.undecided(check)
        case 1: notDeallocated.undecided(check)
        case 2: orphanedTask.undecided(check)
        case 3: taskStartedInactive.undecided(check)
        case 4: activeAfterDetach.undecided(check)
        case 5: stuckHook.undecided(check)
        case 6: viewGoneStillAttached.undecided(check)
        case 7: viewShownAfterDetach.undecided(check)
        case 8: duplicateChild.undecided(check)
        case 9: doubleAttach.undecided(check)
        case 10: attachUnderDescendant.undecided(check)
        case 11: detachNonChild.undecided(check)
        case 12: eventAfterDeinit.undecided(check)
        case 13: eventsDropped.undecided(check)
        case 14: aliveAtEnd.undecided(check)
        default: break
        }
    }

    /// Rule `index` reports what is only known at the end of the session.
    mutating func finish(_ index: Int, _ context: inout AnalysisContext) {
        switch index {
        case 0: undetachedChild.finish(&context)
        case 1: notDeallocated.finish(&context)
        case 2: orphanedTask.finish(&context)
        case 3: taskStartedInactive.finish(&context)
        case 4: activeAfterDetach.finish(&context)
        case 5: stuckHook.finish(&context)
        case 6: viewGoneStillAttached.finish(&context)
        case 7: viewShownAfterDetach.finish(&context)
        case 8: duplicateChild.finish(&context)
        case 9: doubleAttach.finish(&context)
        case 10: attachUnderDescendant.finish(&context)
        case 11: detachNonChild.finish(&context)
        case 12: eventAfterDeinit.finish(&context)
        case 13: eventsDropped.finish(&context)
        case 14: aliveAtEnd.finish(&context)
        default: break
        }
    }
}
