@testable import NapkinTrace
import Testing
import TestSupport

/// `growing-population` before the end (``TraceAnalyzer/provisionalFindings``):
/// at each round start, what `check` would report if the trace ended there;
/// withdrawn when a later round no longer meets the criterion, gone once
/// the session ends (the findings then hold the verdict).
@Suite("Rule growing-population: provisional findings")
struct GrowingPopulationProvisionalTests {
    /// What a finding is about, for comparing a provisional one with a verdict.
    static func about(_ findings: [Finding]) -> [String] {
        findings.filter { $0.rule == .growingPopulation }.map { "\($0.type)#\($0.id)" }
    }

    /// Counts at the round starts, the end's count, and the rounds (from 0)
    /// at whose start the population is flagged: from the third rise on,
    /// while it keeps rising (a rise every second round keeps it flagged
    /// in the round between), never after it went down or stopped.
    static let flagged: [([Int], Int, [Int])] = [
        ([0, 1, 2, 3, 4], 5, [3, 4]), ([0, 1, 2, 3, 3, 3], 3, [3]), ([0, 1, 1, 2, 2, 3, 3], 4, [5, 6]),
        ([0, 2, 4, 2, 1], 1, []), ([5, 5, 5, 6, 7, 8], 9, [5]), ([0, 0, 0, 0], 0, []),
    ]

    @Test("at each round start the provisional findings are check's verdict on the trace cut there", arguments: flagged)
    func verdictOnThePrefix(_ counts: [Int], _ end: Int, _ expected: [Int]) {
        let events = GrowingPopulationRuleTests.rounds(counts, end: end)
        let options = TraceAnalyzer.Options(rounds: .marks(prefix: "round"))
        var analyzer = TraceAnalyzer(options: options)
        var flaggedAt: [Int] = []
        var round = 0
        for (k, event) in events.enumerated() {
            analyzer.consume(event)
            guard case .mark = event.kind else { continue }
            defer { round += 1 }
            let prefix = Array(events[...k])
            let verdict = Self.about(TraceAnalyzer.analyze(prefix, options: options).findings)
            #expect(Self.about(analyzer.provisionalFindings) == verdict, "\(counts): at the mark of seq \(event.seq)")
            if !analyzer.provisionalFindings.isEmpty { flaggedAt.append(round) }
        }
        #expect(round == counts.count)
        #expect(flaggedAt == expected, "\(counts): flagged at the start of rounds \(flaggedAt)")
        #expect(analyzer.findings.isEmpty, "nothing is a finding before the end")
        analyzer.finish()
        #expect(analyzer.provisionalFindings.isEmpty, "the end's verdict replaces them")
        #expect(Self.about(analyzer.findings) == Self.about(TraceAnalyzer.analyze(events, options: options).findings))
    }

    @Test("a cache that fills up to 3 and stops: flagged when it reaches 3, withdrawn at the next round, clean at the end")
    func cacheWithdrawn() {
        let events = GrowingPopulationRuleTests.rounds([0, 1, 2, 3, 3, 3], end: 3)
        var analyzer = TraceAnalyzer(options: .init(rounds: .marks(prefix: "round")))
        var shown: [Bool] = []
        for event in events {
            analyzer.consume(event)
            if case .mark = event.kind { shown.append(!analyzer.provisionalFindings.isEmpty) }
        }
        // 0, 1, 2, 3: three rises, as check would judge a trace ending there; 0, 1, 2, 3, 3: clean.
        #expect(shown == [false, false, false, true, false, false])
        analyzer.finish()
        #expect(analyzer.findings.isEmpty)
    }

    @Test("the provisional finding names the counts so far and the line that made the survivors")
    func message() throws {
        let events = try Fixtures.events("growing-population")
        var analyzer = TraceAnalyzer(options: .init(rounds: .marks(prefix: "test started: ordersFlow")))
        // Up to the fourth round's start (seq 16): counts 0, 1, 2, 3.
        for event in events where event.seq <= 16 { analyzer.consume(event) }
        let finding = try #require(analyzer.provisionalFindings.first)
        #expect(analyzer.provisionalFindings.count == 1, "its interactors are not reported apart")
        #expect(finding.message == "live instances at the start of each round so far ('test started: ordersFlow'): 0, 1, 2, 3: rose 3 times and never went down; 3 made in those rounds are alive now; created at Shop/OrderBuilder.swift:31 (3)")
        #expect(finding.locations.map(\.location.description) == ["Shop/OrderBuilder.swift:31"])
    }
}
