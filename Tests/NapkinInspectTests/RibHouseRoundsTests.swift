import Foundation
import NapkinTrace
import Testing
import TestSupport

/// rib-house played in rounds (`--loop N`, each round starting at a `round N`
/// mark), recorded with `NAPKIN_TRACE` and checked for the population rules:
/// `--bug prefetch-leak` leaves one more Order screen alive per round
/// (`growing-population`, with `--rounds round`), and the clean app, whose
/// own prefetch cache fills to its capacity (2) and stops, stays clean, as
/// does a budget of one LoggedIn router (`--max-alive LoggedInRouter=1`).
///
/// The population rules need the analysis options `check --rounds` and
/// `--max-alive` give; until those options reach `check`, the tests run the
/// analysis in-process (``TraceAnalyzer``, what `check` runs) and the
/// `check` versions are disabled. Live runs at rib-house's default speed:
/// the counts do not depend on it, but the other rules (default grace) do.
@Suite("rib-house in rounds: growing-population and over-budget")
struct RibHouseRoundsTests {
    /// Where a round starts: rib-house's `round N` marks (Examples/RibHouse/README.md).
    static let roundsPrefix = "round"
    /// The options of the check: rounds at `round N`, one LoggedIn router at most.
    static let options = TraceAnalyzer.Options(rounds: .marks(prefix: roundsPrefix), maxAlive: ["LoggedInRouter": 1])

    /// The line of `Examples/RibHouse/Order/OrderBuilder.swift` that builds
    /// an Order router (where the prefetched ones are created), as the trace names it.
    static func orderCreationLine() throws -> CodeLocation {
        let source = try String.repoFile("Examples/RibHouse/Order/OrderBuilder.swift")
        let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let index = try #require(lines.firstIndex { $0.contains("let router = OrderRouter(") }, "OrderBuilder builds no OrderRouter")
        return CodeLocation(fileID: "RibHouse/OrderBuilder.swift", line: UInt(index + 1))
    }

    /// Plays rib-house with `arguments` (and `--quiet`), tracing to a scratch
    /// file; returns the trace's events.
    static func record(_ arguments: [String]) async throws -> [TraceEvent] {
        let scratch = try ScratchDirectory("rib-house-rounds")
        defer { scratch.remove() }
        let trace = scratch.file("run.ndjson")
        let app = try await CLIHarness.run(CLIHarness.ribHousePath, ["--quiet"] + arguments, environment: ["NAPKIN_TRACE": trace])
        #expect(app.status == 0, "\(app)")
        let (result, _) = try readAll(path: trace)
        #expect(result.errors.isEmpty, "\(result.errors)")
        return result.events
    }

    /// `--bug prefetch-leak`'s findings with ``options``: one, about the
    /// Order routers (their interactors grow with them: the same cause, not
    /// reported apart), created at OrderBuilder's line; nothing without rounds.
    static func expectPrefetchLeak(_ events: [TraceEvent], rounds: Int) throws {
        #expect(TraceAnalyzer.analyze(events).isClean, "no other rule sees the leak: \(TraceAnalyzer.analyze(events))")
        let report = TraceAnalyzer.analyze(events, options: options)
        let found = report.findings
        #expect(found.map(\.rule) == [.growingPopulation], "\(report)")
        #expect(found.map { "\($0.subject) \($0.type)" } == ["router OrderRouter"], "\(report)")
        let counts = (0...rounds).map(String.init).joined(separator: ", ")
        let line = try orderCreationLine()
        for finding in found {
            #expect(finding.message.contains("('round'), then at the end: \(counts): rose \(rounds) times and never went down"), "\(finding)")
            // How many survivors it counts is the rule's business (the ones
            // made since its run of rounds began); that they are alive and
            // where they were made is the app's.
            #expect(finding.message.contains(" made in those rounds are alive at the end; created at \(line) ("), "\(finding)")
            #expect(finding.locations == [Finding.CodeReference(.created, line)], "\(finding)")
        }
    }

    // MARK: - In-process

    @Test("--loop 3 --bug prefetch-leak: growing-population for OrderRouter (its interactors not apart), counts 0, 1, 2, 3, created at OrderBuilder's line; nothing else, and nothing without rounds")
    func prefetchLeak() async throws {
        let events = try await Self.record(["--loop", "3", "--bug", "prefetch-leak"])
        #expect(events.filter { if case .mark(let text) = $0.kind { text.hasPrefix("round ") } else { false } }.count == 3)
        try Self.expectPrefetchLeak(events, rounds: 3)
    }

    @Test("the recorded example (Examples/traces/bug-prefetch-leak.ndjson, --loop 3): the same findings")
    func prefetchLeakExample() throws {
        let (result, _) = try readAll(path: PackagePaths.url(CLIHarness.exampleTrace("bug-prefetch-leak")).path)
        #expect(result.errors.isEmpty, "\(result.errors)")
        try Self.expectPrefetchLeak(result.events, rounds: 3)
    }

    @Test("the clean app in rounds: no finding with rounds at 'round' and at most one LoggedInRouter alive; its prefetch cache fills to 2 and stops",
          arguments: [3, 5])
    func clean(loops: Int) async throws {
        let events = try await Self.record(["--loop", String(loops)])
        var analyzer = TraceAnalyzer(options: Self.options)
        for event in events { analyzer.consume(event) }
        analyzer.finish()
        #expect(analyzer.report.isClean, "\(analyzer.report)")
        #expect(analyzer.populations[.init(.router, type: "LoggedInRouter")]?.peak == 1)
        // The cache's two screens were alive at once (plus the one on screen), never more.
        let orders = try #require(analyzer.populations[.init(.router, type: "OrderRouter")])
        #expect(orders.peak == 3, "\(orders)")
        #expect(orders.created == 3 * loops, "two opened, one prefetched per round: \(orders)")
    }

    // MARK: - check (needs --rounds and --max-alive)

    @Test("check --rounds round on a --loop 3 --bug prefetch-leak run: exit 1, one growing-population line for OrderRouter at OrderBuilder's line")
    func checkPrefetchLeak() async throws {
        let scratch = try ScratchDirectory("rib-house-rounds")
        defer { scratch.remove() }
        let trace = scratch.file("run.ndjson")
        let app = try await CLIHarness.run(CLIHarness.ribHousePath, ["--quiet", "--loop", "3", "--bug", "prefetch-leak"],
                                           environment: ["NAPKIN_TRACE": trace])
        #expect(app.status == 0, "\(app)")
        let line = try Self.orderCreationLine()

        let plain = try await CLIHarness.inspect(["check", trace])
        #expect(plain.status == 0, "without rounds no rule sees it: \(plain)")

        let result = try await CLIHarness.inspect(["check", "--color", "never", "--rounds", Self.roundsPrefix, trace])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let found = CheckCommandTests.findingLines(result.stdout)
        #expect(found.map(\.rule) == ["growing-population"], "\(result)")
        #expect(found.contains { $0.line.hasPrefix("  error[growing-population] OrderRouter#") }, "\(result)")
        #expect(found.allSatisfy { $0.line.contains("0, 1, 2, 3: rose 3 times and never went down") }, "\(result)")
        #expect(result.stdout.contains("Examples/RibHouse/Order/OrderBuilder.swift:\(line.line) (created)"), "\(result)")
    }

    @Test("check --rounds round --max-alive LoggedInRouter=1 on the clean app in rounds: exit 0, no findings", arguments: [3, 5])
    func checkClean(loops: Int) async throws {
        let scratch = try ScratchDirectory("rib-house-rounds")
        defer { scratch.remove() }
        let trace = scratch.file("run.ndjson")
        let app = try await CLIHarness.run(CLIHarness.ribHousePath, ["--quiet", "--loop", String(loops)], environment: ["NAPKIN_TRACE": trace])
        #expect(app.status == 0, "\(app)")
        let result = try await CLIHarness.inspect(["check", "--rounds", Self.roundsPrefix, "--max-alive", "LoggedInRouter=1", trace])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains(": no findings ("), "\(result)")
    }
}
