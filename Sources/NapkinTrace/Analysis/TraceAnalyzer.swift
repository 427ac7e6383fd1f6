/// Finds lifecycle bugs in a trace while folding it, event by event.
///
/// The analyzer keeps a ``TraceState`` and runs every finding rule (one
/// file each in `Analysis/Rules/`, listed in ``RuleID``) on the events
/// it watches. When something leaves the live tree, a rule schedules a check
/// one grace period of trace time later (default 1 s, like RIBs'
/// LeakDetector): is it deallocated? did its tasks stop? Checks run as later
/// events advance trace time (or ``advance(to:)`` does, for a live view), and
/// at ``finish()``. Memory follows the number of live nodes.
///
/// A check is decided only when the app's main actor has made progress past
/// its deadline (``MainActorProgress``); see docs/findings.md, "How the
/// analysis reads a trace", and, for one cause reported once and the bound
/// on kept findings (``maxKeptFindings``, ``findingsNotKept``),
/// docs/internals.md, "One cause, one finding".
public struct TraceAnalyzer: Sendable {
    /// Analysis settings.
    public struct Options: Sendable, Hashable {
        /// How long (trace time, ns) something may take to deallocate or stop
        /// after it should have.
        public var grace: UInt64
        /// Treat anything still alive at the end of the trace as a finding
        /// (for a run that tears everything down).
        public var expectTeardown: Bool
        /// How long (trace time, ns) a router's view may stay on screen after
        /// the router left the tree (`view-shown-after-detach`): a dismissal
        /// animation, then the view controller going away.
        public var viewGrace: UInt64

        /// Where the rounds of a repeated flow start, for `growing-population`.
        public var rounds: Rounds
        /// The most live instances allowed at once, by population name (a
        /// type name; for bound tasks `Owner 'label'`), for `over-budget`.
        public var maxAlive: [String: Int]

        /// The view grace period when none is given: 5 s, like RIBs'
        /// `LeakDetector.expectViewControllerDisappear`.
        public static let defaultViewGrace: UInt64 = 5_000_000_000

        /// Creates options; the grace period defaults to 1 s, the view grace
        /// period to 5 s, rounds to ``Rounds/repeatedTests``, no budgets.
        public init(grace: UInt64 = 1_000_000_000, expectTeardown: Bool = false,
                    viewGrace: UInt64 = Options.defaultViewGrace,
                    rounds: Rounds = .repeatedTests, maxAlive: [String: Int] = [:]) {
            self.grace = grace
            self.expectTeardown = expectTeardown
            self.viewGrace = viewGrace
            self.rounds = rounds
            self.maxAlive = maxAlive
        }
    }

    /// Where a round of a repeated flow starts (`growing-population`
    /// compares the live counts at the start of each).
    public enum Rounds: Sendable, Hashable {
        /// At each start of a test that the trace runs again and again (its
        /// `test started: NAME` mark recurring): each test's runs are rounds
        /// of their own. Other recurring marks are not taken for rounds (a
        /// heartbeat or a progress mark recurs without repeating a flow).
        case repeatedTests
        /// At each mark whose text starts with the prefix (`check --rounds PREFIX`).
        case marks(prefix: String)
    }

    /// The most findings an analyzer keeps (a hostile or badly broken trace
    /// can establish millions); the rest are counted in ``findingsNotKept``.
    public static let maxKeptFindings = 10_000

    /// The settings in use.
    public let options: Options
    /// Checks that could not be decided because the trace ended less than a
    /// grace period after they were scheduled.
    public private(set) var undecided = 0
    /// The first undecided checks (at most ``maxNamedUndecided``), each as
    /// its rule and subject: `not-deallocated LoggedInRouter#6` (what the
    /// in-app detector's line at the end of a run names).
    package private(set) var undecidedChecks: [String] = []
    /// The most undecided checks ``undecidedChecks`` names.
    package static let maxNamedUndecided = 8
    /// Sessions seen (a stream may hold several; each is analysed on its own).
    public private(set) var sessionCount = 0

    private var context: AnalysisContext
    private var rules = RuleSet()
    /// How far the app's main actor has run: what decides the checks.
    private var progress: MainActorProgress
    /// The checks to decide before the current event (reused, not reallocated).
    private var due: [GraceCheck] = []
    private var finished = false

    /// For each event kind (by ``TraceEvent/Name/index``), the rules that
    /// watch it, as a bit set of ``RuleID/bit``s.
    private let watchers: [UInt32] = TraceAnalyzer.watcherSets
    /// The rules that act only on an event that reveals a misuse (see
    /// ``FindingRule/observesOnlyMisuse``): skipped for the others.
    private let misuseOnly: UInt32 = TraceAnalyzer.misuseOnlySet

    private static let watcherSets: [UInt32] = TraceEvent.Name.allCases.map { name in
        precondition(RuleID.allCases.count <= UInt32.bitWidth, "more rules than bits in a rule set")
        return RuleID.allCases.filter { $0.type.watches.contains(name) }.reduce(0) { $0 | $1.bit }
    }
    private static let misuseOnlySet: UInt32 =
        RuleID.allCases.filter { $0.type.observesOnlyMisuse }.reduce(0) { $0 | $1.bit }

    /// Creates an analyzer.
    public init(options: Options = Options()) {
        self.options = options
        context = AnalysisContext(options: options)
        progress = MainActorProgress(settle: options.grace)
    }

    /// The state of the app at the last event consumed.
    public var state: TraceState { context.state }
    /// Live routers, interactors and bound tasks per type, at the last event consumed.
    public var populations: PopulationCounts { context.populations }
    /// Findings so far, in the order they were established.
    public var findings: [Finding] { context.findings }
    /// What would be reported if the session ended at the last event, of
    /// what is only decided at its end: today `growing-population`, judged
    /// on the rounds seen so far at the start of each round (and replaced
    /// then: a population that stopped growing is withdrawn). Not findings:
    /// empty once the session ends, when ``findings`` holds the verdict.
    public var provisionalFindings: [Finding] { context.provisional }
    /// Findings established beyond ``maxKeptFindings`` (counted, not kept).
    public var findingsNotKept: Int { context.findingsNotKept }
    /// Checks still waiting for their deadline (or for the main actor to catch up).
    public var pendingChecks: Int { context.pendingChecks + progress.waiting }

    // MARK: - Folding

    /// Folds `event` into the state and runs the rules that watch it.
    public mutating func consume(_ event: TraceEvent) {
        if case .sessionStart = event.kind {
            if context.state.session != nil { finishSession() }
            sessionCount += 1
            context.startSession()
            rules = RuleSet()
            progress = MainActorProgress(settle: options.grace)
            context.state.apply(event)
            return
        }
        // A trace that asked for too much work stopped the model (its integrity
        // says so): the rules stop with it, so the cost stays bounded.
        guard context.state.stoppedAt == nil else { return }
        let name = event.kind.name
        let isMainActor = context.state.isMainActorEvent(event, name: name)
        progress.checksToDecide(before: event, isMainActor: isMainActor, &context, into: &due)
        if !due.isEmpty {
            decide(due)
            due.removeAll(keepingCapacity: true)
        }
        let effect = context.state.fold(event, name: name)
        guard context.state.stoppedAt == nil else { return }
        switch name {
        case .mark:
            if case .mark(let text) = event.kind { context.testSpans.note(mark: text, at: event.seq) }
        case .router, .interactor, .taskStart, .deallocated, .taskEnd:
            context.populations.note(event, in: context.state)
            if name == .deallocated, context.retainerSearches.hasWaiting { context.retainerSearches.forget(event.kind.deallocatedID) }
        case .retained:
            if case .retained(let id, let retainers) = event.kind { context.noteRetainers(retainers, about: id) }
        case .session, .launch, .attach, .activate, .hookEnd, .load, .view, .detach, .deactivate,
             .taskCancel, .dropped, .end:
            break
        }
        var watching = watchers[name.index]
        if effect.misuse == nil { watching &= ~misuseOnly }
        while let rule = RuleID.lowest(in: watching) {
            watching &= watching &- 1
            context.currentRule = rule
            rules.observe(rule, event, effect, &context)
        }
        if context.checksNeedCompaction {
            let (rules, state) = (self.rules, context.state)
            context.compactChecks { rules.isOpen($0.rule, $0, in: state) }
        }
    }

    /// Lets trace time pass without an event (a live view calls this as the
    /// wall clock advances), running the checks that fall due.
    public mutating func advance(to time: UInt64) {
        decide(progress.takeAll())
        runChecks(before: time == .max ? .max : time + 1)
        context.state.advanceTime(to: time)
    }

    /// Ends the analysis: runs the remaining due checks and lets every rule
    /// report what is only known at the end (tasks still running while their
    /// owner is inactive or gone, dropped events, and with `expectTeardown`
    /// everything still alive). Returns all findings.
    @discardableResult
    public mutating func finish() -> [Finding] {
        guard !finished else { return findings }
        finished = true
        finishSession()
        return findings
    }

    // MARK: - Running inside the app

    /// Takes the findings established so far out of the analyzer (the
    /// in-app detector's way to keep memory bounded however long the app
    /// runs). The causes already reported are kept, so a cause is not
    /// reported again, until they outgrow ``maxKeptFindings``: then they
    /// are forgotten, and a finding may come again (the detector reports a
    /// fingerprint once anyway).
    package mutating func takeFindings() -> [Finding] {
        context.takeFindings()
    }

    /// Takes the findings taken out earlier (``takeFindings()``) that a
    /// retainer search (a `retained` record) explained since: each again,
    /// now with its ``Finding/retainers``.
    package mutating func takeRetainerUpdates() -> [Finding] {
        context.retainerSearches.takeUpdates()
    }

    /// Whether a check waits for the app's time to pass `time` (trace time):
    /// one is due by then, or one waits for the main actor to catch up.
    package func hasChecksDue(by time: UInt64) -> Bool {
        progress.waiting > 0 || context.hasDue(before: time)
    }

    /// When the earliest waiting check falls due (trace time), if one
    /// waits for its deadline (the in-app detector wakes then).
    package var nextDeadline: UInt64? { context.firstDue }

    // MARK: - Checks

    /// Decides the checks due before `time`.
    private mutating func runChecks(before time: UInt64) {
        while let check = context.nextDue(before: time) {
            context.currentRule = check.rule
            rules.decide(check.rule, check, &context)
        }
    }

    private mutating func decide(_ checks: [GraceCheck]) {
        for check in checks {
            context.currentRule = check.rule
            rules.decide(check.rule, check, &context)
        }
    }

    private mutating func finishSession() {
        decide(progress.takeAll())
        let end = context.state.time
        // A decision may ask for a later check (a rule re-arms): take those too.
        var remaining = context.takeRemainingChecks()
        while !remaining.isEmpty {
            for check in remaining {
                context.currentRule = check.rule
                if check.deadline <= end {
                    rules.decide(check.rule, check, &context)
                } else if rules.isOpen(check.rule, check, in: context.state) {
                    undecided += 1
                    if undecidedChecks.count < Self.maxNamedUndecided {
                        undecidedChecks.append("\(check.rule.rule.rawValue) \(subjectName(check.subject))")
                    }
                    rules.undecided(check.rule, check)
                }
            }
            remaining = context.takeRemainingChecks()
        }
        for rule in RuleID.allCases {
            context.currentRule = rule
            rules.finish(rule, &context)
        }
    }

    /// `LoggedInRouter#6` for a router or interactor of the current
    /// session; `#6` for anything else (a task).
    private func subjectName(_ id: NodeID) -> String {
        guard let node = context.state[id] else { return "#\(id)" }
        return "\(node.type)#\(id)"
    }

    /// `1s`, `1.5s`, `250ms`: a grace period for messages.
    static func seconds(_ ns: UInt64) -> String {
        if ns < 1_000_000_000 {
            return ns % 1_000_000 == 0 ? "\(ns / 1_000_000)ms" : "\(Double(ns) / 1e6)ms"
        }
        if ns % 1_000_000_000 == 0 { return "\(ns / 1_000_000_000)s" }
        // Up to millisecond precision, without trailing zeros: 1.5s, 2.25s.
        var text = "\(ns / 1_000_000_000)."
        var fraction = (ns % 1_000_000_000) / 1_000_000
        var digits = 3
        while fraction % 10 == 0 && digits > 1 { fraction /= 10; digits -= 1 }
        let padded = String(fraction)
        text += String(repeating: "0", count: max(0, digits - padded.count)) + padded
        return text + "s"
    }
}

/// The name this type had before it found more than leaks.
@available(*, deprecated, renamed: "TraceAnalyzer")
public typealias LeakAnalyzer = TraceAnalyzer
