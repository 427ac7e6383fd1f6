/// `growing-population`: a flow repeated in rounds leaves more routers,
/// interactors or bound tasks of a type alive after every round, without
/// ever attaching them or leaving the tree (a builder's cache, a router built
/// "for later", a service keeping what it was given, tasks piling up).
///
/// Rounds start at the marks ``TraceAnalyzer/Rounds`` names. At the start of
/// each round, and at the end of the session, every population's live count
/// is sampled (``RoundSeries``); at the end of the session a population is
/// growing when, in its last run of rounds without a fall, its count rose at
/// least ``minimumRises`` times and was still rising at the end: the rounds
/// since its last rise are no more than the most rounds between two rises
/// (at least one). A cache that fills up and stops, a pool that grows and
/// shrinks, a warm-up in the first round: no finding. Reported once per
/// population and session, about its newest instance, naming the counts per
/// round and the lines that created the survivors.
///
/// At the start of every round the rule also judges the rounds seen so far
/// exactly as it would if the trace ended there, and keeps the result as
/// ``TraceAnalyzer/provisionalFindings`` (what `live` shows before the end):
/// replaced at each round, so a cache that fills up and stops is flagged
/// while it fills and withdrawn once it has stopped for longer than it grew;
/// at the end they give way to the findings.
struct GrowingPopulationRule: FindingRule {
    static let rule = Finding.Rule("growing-population", .error, title: "growing population", summary: "a flow repeated in rounds leaves more instances of a type alive after every round", help: help)
    static let watches: Set<TraceEvent.Name> = [.mark]
    /// Where the survivors were created.
    static let codeFocus: [Finding.CodeReference.Role] = [.created]

    /// Rises a population needs to be growing.
    static let minimumRises = 3
    /// The most round series followed in one session (repeated tests: one per test).
    static let maxSeries = 64
    /// The most population samples taken in one session (rounds times
    /// populations): a hostile trace with endless round marks stops being sampled.
    static let maxSampleWork = 5_000_000
    /// The longest test name kept for a series' name.
    static let maxName = 200

    private var seriesIndex: [String: Int] = [:]
    private var series: [RoundSeries] = []
    private var sampleWork = 0
    /// The provisional findings of each series, by its index in ``series``.
    private var provisional: [[Finding]] = []

    init() {}

    mutating func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard case .mark(let text) = event.kind, let name = Self.round(text, context.options.rounds) else { return }
        let index: Int
        if let known = seriesIndex[name] {
            index = known
        } else {
            guard series.count < Self.maxSeries else { return }
            index = series.count
            seriesIndex[name] = index
            series.append(RoundSeries(name: name))
            provisional.append([])
        }
        let populations = context.populations
        guard sampleWork + populations.populations.count <= Self.maxSampleWork else { return }
        sampleWork += populations.populations.count
        series[index].sample(populations, seq: event.seq)
        // If the trace ended here, the end's sample would be this one again: a round without a rise.
        let finals = Array(repeating: series[index].rounds, count: series[index].trends.count)
        provisional[index] = growing(series[index], finals: finals, populations).map {
            finding($0.key, $0.trend, in: series[index], ending: false, context)
        }
        context.provisional = provisional.flatMap { $0 }
    }

    /// The series a mark starts a round of, if it does.
    private static func round(_ text: String, _ rounds: TraceAnalyzer.Rounds) -> String? {
        switch rounds {
        case .repeatedTests:
            guard text.hasPrefix(NapkinTrace.testStartedPrefix) else { return nil }
            return "test \(text.dropFirst(NapkinTrace.testStartedPrefix.count).prefix(maxName))"
        case .marks(let prefix):
            return text.hasPrefix(prefix) ? "'\(prefix)'" : nil
        }
    }

    mutating func finish(_ context: inout AnalysisContext) {
        // The verdict replaces what was provisional.
        context.provisional = []
        let populations = context.populations
        for k in series.indices where series[k].rounds > 0 {
            let finals = series[k].end(populations, seq: context.state.lastSeq)
            for (key, trend) in growing(series[k], finals: finals, populations) {
                context.report(finding(key, trend, in: series[k], ending: true, context), key: FNV1a64.hash(key.description))
            }
        }
    }

    /// The populations of `series` growing when each trend's last sample is
    /// at the round in `finals`; interactors that grow with their routers
    /// are left out (the same cause: the router's finding names it).
    private func growing(_ series: RoundSeries, finals: [Int], _ populations: PopulationCounts) -> [(key: PopulationCounts.Key, trend: RoundSeries.Trend)] {
        let growing = series.trends.indices.filter {
            series.trends[$0].isGrowing(minimumRises: Self.minimumRises, final: finals[$0])
        }
        let ownedInteractors = Set(growing.map { populations.populations[$0] }.filter { $0.key.kind == .router }.compactMap(\.interactorType))
        return growing.compactMap { index in
            let key = populations.populations[index].key
            if key.kind == .interactor && ownedInteractors.contains(key.type) { return nil }
            return (key, series.trends[index])
        }
    }

    /// The finding about `key`: at the end of the session (`ending`), or
    /// provisional, at the start of a round (its survivors are those alive now).
    private func finding(_ key: PopulationCounts.Key, _ trend: RoundSeries.Trend, in series: RoundSeries, ending: Bool, _ context: AnalysisContext) -> Finding {
        // The survivors: alive at the end, made since the run began (all alive, if the end tore them down).
        var survey = PopulationSurvey(of: key, in: context.state, createdAfter: trend.startSeq)
        if survey.count == 0 { survey = PopulationSurvey(of: key, in: context.state) }
        let subject: Finding.SubjectKind = switch key.kind {
        case .router: .router
        case .interactor: .interactor
        case .task: .task
        }
        let what = switch key.kind {
        case .router, .interactor: "live instances"
        case .task: "running tasks"
        }
        let now = ending ? "at the end" : "now"
        let survivors = survey.count == 0 ? "" : "; \(survey.count) made in those rounds are alive \(now)\(survey.linesText(key.kind))"
        let counts = ending ? "at the start of each round (\(series.name)), then at the end" : "at the start of each round so far (\(series.name))"
        return Finding(rule: Self.rule, subject: subject, type: key.type, id: survey.subjectID(key.kind, in: context.state),
                       label: key.label,
                       seqs: [trend.startSeq, context.state.lastSeq], time: context.state.time,
                       message: "\(what) \(counts): \(trend.countsText): rose \(trend.rises) times and never went down\(survivors)",
                       locations: survey.references(key.kind))
    }
}

extension Finding.Rule {
    /// A flow repeated in rounds that leaves more instances of a type alive after every round.
    public static let growingPopulation = GrowingPopulationRule.rule
}

// MARK: - Help

extension GrowingPopulationRule {
    /// What `growing-population` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            A flow ran again and again (its rounds start at a mark you
            name, `check --rounds PREFIX`, or at each run of a repeated test), and the
            number of live routers, interactors or bound tasks of one type, counted at the
            start of each round and at the end, rose at least three times, never went down,
            and was still rising at the end. Nothing left the tree, so no other rule sees
            it: these objects were never attached, or were kept outside the tree. Reported
            at the end of the session, with the counts per round and the lines that created
            the survivors; `live` shows it before, provisionally, at the start of each round
            where it would be reported if the trace ended there.
            """#,
        cause: #"""
            Something keeps what each round makes: a builder or service
            that caches what it built, a router built "for later" and never attached, an
            interactor a service holds before its router exists, a task started in a service
            for every visit and never ended.
            """#,
        fix: #"""
            Look at the creation lines: whatever holds what they make must
            let it go, or hold at most a fixed number:

            ```swift
            final class OrderCache {
                private var routers: [OrderRouter] = []
                func keep(_ router: OrderRouter) {
                    routers.append(router)
                    if routers.count > 3 { routers.removeFirst() }   // a capacity: stops growing
                }
            }
            ```
            """#)
}
