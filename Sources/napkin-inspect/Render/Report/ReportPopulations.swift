import NapkinTrace

/// The report's chart of live instances per type over time, for one
/// session: the populations (``PopulationCounts``) flagged by
/// `growing-population` or `over-budget`, then those with the most alive at
/// once, at most ``maxCharted``; each a series of at most ``maxPoints``
/// counts (``PopulationSeries``); and the rounds of the repeated flow
/// (``TraceAnalyzer/Rounds``) as vertical lines, at most ``maxRounds``.
///
/// Folded along with the analysis (``Fold``): memory is the series of every
/// population followed (at most ``PopulationCounts/maxPopulations``, each
/// at most ``maxPoints`` counts) and the candidate round marks (at most
/// ``maxCandidates``), for the session being read; what a session keeps
/// once it ended is only its charted series.
struct ReportPopulations: Sendable {
    /// The most populations a chart draws.
    static let maxCharted = 8
    /// The most points of one population's line.
    static let maxPoints = 500
    /// The most rounds drawn.
    static let maxRounds = 1_000
    /// The most marks kept as possible rounds while reading (with
    /// ``Rounds/repeatedTests``, a test start is a round only when its test runs again).
    static let maxCandidates = 4 * maxRounds
    /// The most tests told apart as possible rounds.
    static let maxTests = 256
    /// The longest round text kept.
    static let maxRoundText = 120

    /// One charted population.
    struct Charted: Sendable {
        /// Which population.
        var key: PopulationCounts.Key
        /// The most alive at once, and when first.
        var peak: Int
        /// The time of ``peak``.
        var peakTime: UInt64
        /// What the header's flags say of it (`growing`, `over 3`), or empty.
        var flag: String
        /// Its live count over time.
        var points: PopulationSeries.Points
    }

    /// The populations drawn, flagged first, then by most alive at once.
    var charted: [Charted] = []
    /// How many populations the session had.
    var populations = 0
    /// The rounds: when each started, and its mark.
    var rounds: [(time: UInt64, text: String)] = []
    /// Rounds beyond ``maxRounds``, not drawn.
    var roundsNotShown = 0

    /// A session without populations.
    init() {}

    /// What the chart's caption says: what is drawn, how often it was counted, the rounds.
    var caption: String {
        guard let width = charted.first?.points.width else { return "" }
        var text = "Routers, interactors and bound tasks alive at once, by type: "
        text += populations > charted.count
            ? "the \(charted.count) with the most at once or flagged (of \(NumberFormat.grouped(populations)))"
            : NumberFormat.count(charted.count, "type")
        text += ", counted at the end of every \(TimeFormat.duration(width))."
        if !rounds.isEmpty {
            text += " Vertical lines: the starts of \(NumberFormat.count(rounds.count + roundsNotShown, "round"))"
                + (roundsNotShown > 0 ? " (the first \(NumberFormat.grouped(rounds.count)) drawn)." : ".")
        }
        return text
    }

    // MARK: - Folding

    /// What the report keeps while it reads a session.
    struct Fold: Sendable {
        /// Where rounds start.
        let rounds: TraceAnalyzer.Rounds
        /// The budgets (``TraceAnalyzer/Options/maxAlive``), which the flags name.
        let budgets: [String: Int]
        /// Every population's counts.
        private var series = PopulationSeries(capacity: ReportPopulations.maxPoints - 2, width: 1_000_000)
        /// Marks that start a round (with repeated tests: each test start, its test's name).
        private var candidates: [(time: UInt64, text: String, test: String?)] = []
        /// Marks that started rounds beyond ``ReportPopulations/maxCandidates``.
        private var candidatesNotKept = 0
        /// How often each test started.
        private var runs: [String: Int] = [:]

        /// A session to come, analysed with `options`: its rounds, its budgets.
        init(_ options: TraceAnalyzer.Options) {
            rounds = options.rounds
            budgets = options.maxAlive
        }

        /// Before an event at `time` is folded: `populations` are the counts until then.
        mutating func before(_ time: UInt64, _ populations: @autoclosure () -> PopulationCounts) {
            if series.isDue(at: time) { series.advance(to: time, populations()) }
        }

        /// A mark at `time`: a round starts if ``rounds`` says so.
        mutating func mark(_ text: String, at time: UInt64) {
            let test: String?
            switch rounds {
            case .repeatedTests:
                guard text.hasPrefix(NapkinTrace.testStartedPrefix) else { return }
                let name = String(text.dropFirst(NapkinTrace.testStartedPrefix.count))
                if let known = runs[name] {
                    runs[name] = known + 1
                } else if runs.count < ReportPopulations.maxTests {
                    runs[name] = 1
                } else {
                    return
                }
                test = name
            case .marks(let prefix):
                guard text.hasPrefix(prefix) else { return }
                test = nil
            }
            guard candidates.count < ReportPopulations.maxCandidates else {
                candidatesNotKept += 1
                return
            }
            candidates.append((time, PrintableText.printable(text, limit: ReportPopulations.maxRoundText), test))
        }

        /// The chart of the session that ended at `end` with `populations`,
        /// flagging what `findings` (the session's) say.
        func chart(_ populations: PopulationCounts, end: UInt64, findings: some Sequence<Finding>) -> ReportPopulations {
            var chart = ReportPopulations()
            chart.populations = populations.populations.count
            let flags = PopulationFlag.flags(findings: Array(findings), populations: populations, budgets: budgets)
            var chosen: [Int] = flags.compactMap { populations.index(of: $0.key) }.prefix(ReportPopulations.maxCharted).map { $0 }
            let byPeak = populations.populations.indices
                .filter { populations.populations[$0].peak > 0 && !chosen.contains($0) }
                .sorted { (-populations.populations[$0].peak, populations.populations[$0].key) < (-populations.populations[$1].peak, populations.populations[$1].key) }
            chosen += byPeak.prefix(ReportPopulations.maxCharted - chosen.count)
            for index in chosen {
                let population = populations.populations[index]
                let flag = flags.first { $0.key == population.key }?.words ?? ""
                chart.charted.append(Charted(key: population.key, peak: population.peak, peakTime: population.peakTime, flag: flag,
                                             points: series.points(of: index, until: end, last: population.live)))
            }
            let rounds = candidates.filter { candidate in candidate.test.map { (runs[$0] ?? 0) > 1 } ?? true }
            chart.rounds = rounds.prefix(ReportPopulations.maxRounds).map { ($0.time, $0.text) }
            chart.roundsNotShown = rounds.count - chart.rounds.count + candidatesNotKept
            return chart
        }
    }

    // MARK: - Writing

    /// Writes `populations` (``ReportSchema/Population``), `populationText` and `rounds` (``ReportSchema/Round``).
    func write(into out: inout ReportJSON) {
        typealias Field = ReportSchema.Population
        out.key(ReportSchema.Trace.populations)
        out.openArray()
        for charted in charted {
            out.openObject()
            out.member(Field.name, PrintableText.printable(charted.key.description))
            out.member(Field.kind, charted.key.kind.rawValue)
            out.member(Field.peak, charted.peak)
            out.member(Field.label, PrintableText.printable(charted.key.description, limit: PopulationFlag.maxName)
                       + ": the most \(NumberFormat.grouped(charted.peak)) at once, at \(TimeFormat.point(charted.peakTime))"
                       + (charted.flag.isEmpty ? "" : " (\(charted.flag))"))
            out.member(Field.flag, charted.flag)
            out.key(Field.times)
            out.openArray()
            for time in charted.points.times { out.number(time) }
            out.closeArray()
            out.key(Field.counts)
            out.openArray()
            for count in charted.points.counts { out.number(count) }
            out.closeArray()
            out.closeObject()
        }
        out.closeArray()
        out.member(ReportSchema.Trace.populationText, caption)
        out.key(ReportSchema.Trace.rounds)
        out.table(ReportSchema.Round.self, rows: rounds) { out, column, round in
            switch column {
            case .time: out.number(round.time)
            case .text: out.string(round.text)
            }
        }
    }
}
