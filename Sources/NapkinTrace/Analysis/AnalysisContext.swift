/// What the finding rules share while a trace is analysed: the state of the
/// app, the findings so far (one per cause), and the grace-period checks.
struct AnalysisContext: Sendable {
    /// The analysis settings.
    let options: TraceAnalyzer.Options
    /// The state of the app after the current event.
    var state = TraceState()
    /// Findings so far, in the order they were established (the first
    /// ``TraceAnalyzer/maxKeptFindings``; the others are only counted).
    private(set) var findings: [Finding] = []
    /// Findings established beyond ``TraceAnalyzer/maxKeptFindings``.
    private(set) var findingsNotKept = 0
    /// What the rules would report if the session ended now and only then
    /// (``TraceAnalyzer/provisionalFindings``), replaced as they judge again.
    var provisional: [Finding] = []
    /// Causes already reported: (rule, key).
    private var reported: Set<Cause> = []
    /// Which test ran when (from the trace's test marks).
    var testSpans = TestSpans()
    /// Live routers, interactors and bound tasks per type.
    var populations = PopulationCounts()
    /// Findings taken out that a later retainer search may still explain.
    var retainerSearches = RetainerSearches()
    /// Where the current session's findings start in ``findings``.
    private var sessionFindingsStart = 0
    /// Checks waiting for their deadline, one queue per delay (the grace
    /// period, the view grace period): each is in deadline order on its own.
    private var checks = GraceQueue()
    private var viewChecks = GraceQueue()
    /// How many checks wait.
    var pendingChecks: Int { checks.count + viewChecks.count }
    /// The rule being run (set by the analyzer before each call), so that
    /// checks and causes are filed under it.
    var currentRule = RuleID.undetachedChild

    private struct Cause: Hashable {
        var rule: RuleID
        var key: UInt64
    }

    init(options: TraceAnalyzer.Options) {
        self.options = options
    }

    /// The grace period as people write it (`1s`, `250ms`), for messages.
    var graceText: String { TraceAnalyzer.seconds(options.grace) }
    /// The view grace period, likewise.
    var viewGraceText: String { TraceAnalyzer.seconds(options.viewGrace) }

    /// How long a check waits: the grace period, or the view grace period
    /// (views take longer to go than routers: a dismissal animates).
    enum Delay: Sendable {
        case grace, viewGrace
    }

    /// Records `finding` unless a finding of the current rule with the same
    /// `key` (a node or task id, or a sequence number) was already recorded.
    ///
    /// A finding without ``Finding/locations`` about a router or an
    /// interactor (alive, or the node the current event removed) gets its
    /// router's code locations, in the order of the rule's ``FindingRule/codeFocus``.
    mutating func report(_ finding: Finding, key: UInt64) {
        guard findings.count < TraceAnalyzer.maxKeptFindings else {
            // Beyond the cap neither findings nor their causes are kept, so
            // memory stays bounded; a cause reported twice then counts twice.
            if !reported.contains(Cause(rule: currentRule, key: key)) { findingsNotKept += 1 }
            return
        }
        guard reported.insert(Cause(rule: currentRule, key: key)).inserted else { return }
        var finding = finding
        if finding.locations.isEmpty { finding.locations = codeReferences(about: finding) }
        if !testSpans.isEmpty, let cause = finding.seqs.first { finding.tests = testSpans.tests(at: cause) }
        if finding.retainers == nil, finding.isExplainedByRetainers { finding.retainers = state.retainers(of: finding.id) }
        findings.append(finding)
    }

    /// A `retained` record: the search about `id` explains the findings
    /// about it established before it in this session, kept or taken out.
    mutating func noteRetainers(_ retainers: Retainers, about id: NodeID) {
        for k in sessionFindingsStart..<findings.count where findings[k].id == id && findings[k].isExplainedByRetainers {
            findings[k].retainers = retainers
        }
        retainerSearches.note(retainers, about: id)
    }

    /// Takes the findings so far (see ``TraceAnalyzer/takeFindings()``).
    mutating func takeFindings() -> [Finding] {
        guard !findings.isEmpty else { return [] }
        retainerSearches.wait(for: findings)
        defer {
            findings.removeAll()
            sessionFindingsStart = 0
            if reported.count > TraceAnalyzer.maxKeptFindings { reported.removeAll() }
        }
        return findings
    }

    /// The code locations of the router a finding is about (for an
    /// interactor: its router's), in the current rule's order.
    private func codeReferences(about finding: Finding) -> [Finding.CodeReference] {
        func node(_ id: NodeID) -> TraceNode? {
            state[id] ?? (state.removedNode?.id == id ? state.removedNode : nil)
        }
        let router: TraceNode?
        switch finding.subject {
        case .router: router = node(finding.id)
        case .interactor: router = node(finding.id)?.router.flatMap(node)
        case .task, .trace: router = nil
        }
        guard let router else { return [] }
        return codeReferences(of: router, currentRule.type.codeFocus)
    }

    /// `router`'s code locations that `roles` name, in that order.
    func codeReferences(of router: TraceNode, _ roles: [Finding.CodeReference.Role]) -> [Finding.CodeReference] {
        let known = state.codeLocations(of: router)
        return roles.compactMap { role in
            let location: CodeLocation? = switch role {
            case .attached: known.attached
            case .detached: known.detached
            case .created: known.created
            case .started, .call: nil
            }
            return location.map { Finding.CodeReference(role, $0) }
        }
    }

    /// Reports, under the current rule, that `node` is still where `check`
    /// found it one grace period after the check's event: one finding per node.
    mutating func report(_ node: TraceNode, as subject: Finding.SubjectKind, after check: GraceCheck, _ message: String) {
        report(Finding(rule: currentRule.rule, subject: subject, type: node.type, id: node.id,
                       seqs: [check.since], time: check.deadline, message: message),
               key: node.id)
    }

    /// Whether `rule` already reported a finding with `key`.
    func hasReported(_ rule: RuleID, key: UInt64) -> Bool {
        reported.contains(Cause(rule: rule, key: key))
    }

    /// Asks for `check` to come back to the current rule one grace period
    /// (or `delay`) after the current event.
    mutating func schedule(_ check: GraceCheck, after delay: Delay = .grace) {
        schedule(check, at: state.time, after: delay)
    }

    /// Asks for `check` to come back to the current rule one grace period
    /// (or `delay`) after `time` (to re-arm a check whose subject moved at `time`).
    mutating func schedule(_ check: GraceCheck, at time: UInt64, after delay: Delay = .grace) {
        var check = check
        let (deadline, overflow) = time.addingReportingOverflow(delay == .grace ? options.grace : options.viewGrace)
        check.deadline = overflow ? .max : deadline
        check.rule = currentRule
        check.scheduledAt = time
        if delay == .grace { checks.schedule(check) } else { viewChecks.schedule(check) }
    }

    /// Whether the waiting checks have outgrown their limit.
    var checksNeedCompaction: Bool { checks.needsCompaction || viewChecks.needsCompaction }

    /// Drops the checks `isOpen` rejects, and all but the newest of each rule and subject.
    mutating func compactChecks(keeping isOpen: (GraceCheck) -> Bool) {
        checks.compact(keeping: isOpen)
        viewChecks.compact(keeping: isOpen)
    }

    /// When the earliest waiting check falls due (trace time), if one waits.
    var firstDue: UInt64? {
        switch (checks.firstDue, viewChecks.firstDue) {
        case (nil, nil): nil
        case (let a?, nil): a
        case (nil, let b?): b
        case (let a?, let b?): min(a, b)
        }
    }

    /// Whether ``nextDue(before:)`` would take a check (without taking it).
    @inline(__always)
    func hasDue(before time: UInt64) -> Bool {
        switch (checks.firstDue, viewChecks.firstDue) {
        case (nil, nil): false
        case (let a?, nil): a < time || time == .max
        case (nil, let b?): b < time || time == .max
        case (let a?, let b?): min(a, b) < time || time == .max
        }
    }

    /// Takes the check with the earliest deadline if it is before `time`
    /// (from whichever queue holds it).
    mutating func nextDue(before time: UInt64) -> GraceCheck? {
        switch (checks.firstDue, viewChecks.firstDue) {
        case (let a?, let b?) where b < a: viewChecks.popFirst(dueBefore: time)
        case (nil, .some): viewChecks.popFirst(dueBefore: time)
        default: checks.popFirst(dueBefore: time)
        }
    }

    /// Takes every remaining check, earliest deadline first (the session ended).
    mutating func takeRemainingChecks() -> [GraceCheck] {
        var rest: [GraceCheck] = []
        while let check = nextDue(before: .max) { rest.append(check) }
        return rest
    }

    /// Forgets the causes reported (a new session starts: its ids are new).
    mutating func startSession() {
        reported.removeAll()
        provisional = []
        sessionFindingsStart = findings.count
        retainerSearches.startSession()
        state = TraceState()
        testSpans = TestSpans()
        populations = PopulationCounts()
    }
}

