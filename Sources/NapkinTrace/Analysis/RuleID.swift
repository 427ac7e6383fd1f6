/// Every finding rule the analyzer runs, one case each: the one registry.
///
/// The order of the cases is the order in which rules see each event,
/// decide their checks at the same deadline and report at the end of a
/// session; it is also the order of ``Finding/Rule/allCases`` (and so of the
/// JUnit test cases and SARIF's rules). No switch over it has a `default:`:
/// a new case does not compile until ``type`` and each of ``RuleSet``'s
/// switches handle it. A case is named like its rule's `Finding.Rule`
/// constant (`not-deallocated`: `.notDeallocated`).
enum RuleID: UInt8, CaseIterable, Sendable {
    case undetachedChild
    case notDeallocated
    case orphanedTask
    case taskStartedInactive
    case activeAfterDetach
    case stuckHook
    case viewGoneStillAttached
    case viewShownAfterDetach
    case growingPopulation
    case overBudget
    case duplicateChild
    case doubleAttach
    case attachUnderDescendant
    case detachNonChild
    case eventAfterDeinit
    case eventsDropped
    case aliveAtEnd

    /// The rule's type.
    var type: any FindingRule.Type {
        switch self {
        case .undetachedChild: UndetachedChildRule.self
        case .notDeallocated: NotDeallocatedRule.self
        case .orphanedTask: OrphanedTaskRule.self
        case .taskStartedInactive: TaskStartedInactiveRule.self
        case .activeAfterDetach: ActiveAfterDetachRule.self
        case .stuckHook: StuckHookRule.self
        case .viewGoneStillAttached: ViewGoneStillAttachedRule.self
        case .viewShownAfterDetach: ViewShownAfterDetachRule.self
        case .growingPopulation: GrowingPopulationRule.self
        case .overBudget: OverBudgetRule.self
        case .duplicateChild: DuplicateChildRule.self
        case .doubleAttach: DoubleAttachRule.self
        case .attachUnderDescendant: AttachUnderDescendantRule.self
        case .detachNonChild: DetachNonChildRule.self
        case .eventAfterDeinit: EventAfterDeinitRule.self
        case .eventsDropped: EventsDroppedRule.self
        case .aliveAtEnd: AliveAtEndRule.self
        }
    }

    /// The finding the rule reports (id, severity, title, summary, help).
    var rule: Finding.Rule { type.rule }

    /// The rule's place in a bit set of rules (``TraceAnalyzer``'s watchers).
    var bit: UInt32 { 1 << UInt32(rawValue) }

    /// The rule whose ``bit`` is the lowest set bit of the non-empty `set`.
    @inline(__always)
    static func lowest(in set: UInt32) -> RuleID? {
        RuleID(rawValue: UInt8(truncatingIfNeeded: set.trailingZeroBitCount))
    }
}
