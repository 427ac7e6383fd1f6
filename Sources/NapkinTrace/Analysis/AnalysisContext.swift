/// What the finding rules share while a trace is analysed: the state of the
/// app, the findings so far (one per cause), and the grace-period checks.
struct AnalysisContext: Sendable {
    /// The analysis settings.
    let options: TraceAnalyzer.Options
    /// The state of the app after the current event.
    var state = TraceState()
    /// Findings so far, in the order they were established.
    private(set) var findings: [Finding] = []
    /// Causes already reported: (rule index, key).
    private var reported: Set<Cause> = []
    /// Checks waiting for their deadline, oldest first.
    private(set) var checks = GraceQueue()
    /// The rule being run (set by the analyzer), so that checks and causes are filed under it.
    var currentRule = 0

    private struct Cause: Hashable {
        var rule: Int
        var key: UInt64
    }

    init(options: TraceAnalyzer.Options) {
        self.options = options
    }

    /// The grace period as people write it (`1s`, `250ms`), for messages.
    var graceText: String { TraceAnalyzer.seconds(options.grace) }

    /// Records `finding` unless a finding of the current rule with the same
    /// `key` (a node or task id, or a sequence number) was already recorded.
    mutating func report(_ finding: Finding, key: UInt64) {
        guard reported.insert(Cause(rule: currentRule, key: key)).inserted else { return }
        findings.append(finding)
    }

    /// Whether `rule` already reported a finding with `key`.
    func hasReported(_ rule: Finding.Rule, key: UInt64) -> Bool {
        guard let index = FindingRules.all.firstIndex(where: { $0.rule == rule }) else { return false }
        return reported.contains(Cause(rule: index, key: key))
    }

    /// Asks for `check` to come back to the current rule one grace period
    /// after the current event.
    mutating func schedule(_ check: GraceCheck) {
        var check = check
        check.deadline = state.time &+ options.grace
        check.rule = currentRule
        checks.append(check)
    }

    /// Takes the oldest check if it is due before `time`.
    mutating func nextDue(before time: UInt64) -> GraceCheck? {
        checks.popFirst(dueBefore: time)
    }

    /// Takes every remaining check (the session ended).
    mutating func takeRemainingChecks() -> [GraceCheck] {
        checks.removeAll()
    }

    /// Forgets the causes reported (a new session starts: its ids are new).
    mutating func startSession() {
        reported.removeAll()
        state = TraceState()
    }
}

/// The checks waiting for their deadline, in the order they were scheduled
/// (deadlines follow trace time, so this is also deadline order).
struct GraceQueue: Sendable {
    private var items: [GraceCheck] = []
    private var head = 0

    /// How many checks wait.
    var count: Int { items.count - head }

    mutating func append(_ check: GraceCheck) {
        items.append(check)
    }

    /// The oldest check, if its deadline is before `time`.
    mutating func popFirst(dueBefore time: UInt64) -> GraceCheck? {
        guard head < items.count, items[head].deadline < time else {
            compact()
            return nil
        }
        head += 1
        return items[head - 1]
    }

    /// Every remaining check, oldest first.
    mutating func removeAll() -> [GraceCheck] {
        let rest = Array(items[head...])
        items.removeAll()
        head = 0
        return rest
    }

    private mutating func compact() {
        if head > 1024 && head * 2 > items.count {
            items.removeFirst(head)
            head = 0
        }
    }
}
