import Foundation
import Testing
import TestSupport

/// `live --rounds PREFIX FILE` and `live --rounds PREFIX -- COMMAND` on a
/// terminal (tmux), fed a trace written in parts, at the test's pace: a
/// growing population is flagged, provisionally, at the start of the round
/// where `check` would flag it if the trace ended there, naming the line
/// that made the survivors; the end confirms it, or a later
/// round withdraws it (a cache that filled up and stopped: clean, as `check`
/// says of the whole trace).
@Suite("napkin-inspect live: a growing population before the end (tmux)", .enabled(if: CLIHarness.tmuxPath != nil, "tmux is not installed"))
struct LiveProvisionalGrowthTests {
    static let rounds = "--rounds 'test started: ordersFlow'"

    /// Fixture `name`'s lines, each with its newline.
    static func lines(_ name: String) throws -> [String] {
        try String.repoFile(CLIHarness.fixture(name)).split(separator: "\n").map { $0 + "\n" }
    }

    static func append(_ lines: ArraySlice<String>, to path: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(lines.joined().utf8))
        try handle.close()
    }

    static func header(_ screen: [String]) -> String { screen.first ?? "" }

    @Test("growing-population: provisional at the fourth round's start (0, 1, 2, 3), with the builder's line; confirmed at the end")
    func growingFlaggedEarly() async throws {
        let scratch = try ScratchDirectory("live-provisional")
        let lines = try Self.lines("growing-population")
        // Seq 1-15: three rounds (0, 1, 2 alive at their starts).
        let path = try scratch.write("growing.ndjson", lines.prefix(15).joined())
        try await LiveTerminalTests().withInspect("live \(Self.rounds) '\(path)'") { tmux in
            let three = try await tmux.waitFor("three rounds") { screen in
                screen.contains { $0.hasPrefix("   └─ OrderRouter#10") || $0.contains("OrderInteractor#9") } || Self.header(screen).contains("15 events")
            }
            #expect(Self.header(three).contains("no findings"), "\(three)")
            #expect(!Self.header(three).contains("provisional"), "\(three)")
            #expect(!three.contains { $0.contains("growing-population") }, "\(three)")

            // Seq 16: the fourth round starts with 3 alive.
            try Self.append(lines[15..<16], to: path)
            let flagged = try await tmux.waitFor("the provisional finding") { screen in
                Self.header(screen).contains("no findings, 1 provisional")
            }
            #expect(Self.header(flagged).contains("⚠"), "the population is flagged: \(flagged)")
            #expect(flagged.contains { $0.hasPrefix("  provisional (judged on the rounds so far; confirmed or withdrawn when the session ends)") }, "\(flagged)")
            let finding = try #require(flagged.firstIndex { $0.hasPrefix("    error[growing-population] OrderRouter#") }, "\(flagged)")
            #expect(flagged[finding].contains("live instances at the start of each round so far"), "\(flagged)")
            #expect(flagged.contains { $0.contains("at Shop/OrderBuilder.swift:31 (created)") }, "\(flagged)")

            // The rest, to the end record: the verdict is check's, the same finding.
            try Self.append(lines[16...], to: path)
            try await tmux.waitFor("the trace's end") { Self.header($0).contains("22 events") }
            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains { $0.hasPrefix("  error[growing-population] OrderRouter#12: live instances at the start of each round ('test started: ordersFlow'), then") }, "\(after)")
            #expect(!after.contains { $0.contains("provisional") }, "\(after)")
        }
    }

    @Test("a cache that fills to 3 and stops: provisional at 0, 1, 2, 3, withdrawn at the next round, no findings at the end")
    func cacheWithdrawn() async throws {
        let scratch = try ScratchDirectory("live-provisional-cache")
        let lines = try Self.lines("growing-population-cache-clean")
        // Seq 1-16: the fourth round starts with 3 alive.
        let path = try scratch.write("cache.ndjson", lines.prefix(16).joined())
        try await LiveTerminalTests().withInspect("live \(Self.rounds) '\(path)'") { tmux in
            let flagged = try await tmux.waitFor("the provisional finding") { Self.header($0).contains("no findings, 1 provisional") }
            #expect(flagged.contains { $0.hasPrefix("    error[growing-population] OrderRouter#") }, "\(flagged)")

            // Seq 17-21: the fifth round starts with 3 alive still: withdrawn.
            try Self.append(lines[16..<21], to: path)
            let withdrawn = try await tmux.waitFor("the withdrawal") { screen in
                Self.header(screen).contains("21 events") && !Self.header(screen).contains("provisional")
            }
            #expect(Self.header(withdrawn).contains("no findings"), "\(withdrawn)")
            #expect(!withdrawn.contains { $0.contains("growing-population") || $0.contains("growing") }, "\(withdrawn)")

            try Self.append(lines[21...], to: path)
            try await tmux.waitFor("the trace's end") { Self.header($0).contains("\(lines.count) events") }
            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("No findings."), "\(after)")
        }
    }

    @Test("live --rounds PREFIX -- COMMAND: flagged while the command runs, at the builder's line; the command's end confirms it")
    func whileTheCommandRuns() async throws {
        let scratch = try ScratchDirectory("live-provisional-command")
        let lines = try Self.lines("growing-population")
        // The command (TraceProbe follow) streams the file's lines as the test
        // appends them, and exits after the end record: it runs until then.
        // Seq 1-16: the fourth round starts with 3 alive.
        let path = try scratch.write("growing.ndjson", lines.prefix(16).joined())
        // A grace period of an hour (3600s): a command's live view passes the wall clock's time, and on a
        // busy machine the screen may be read seconds after the first 16 events, when a grace
        // period of 1 s would have decided the router created but not yet attached (a finding
        // of its own, not the one this test is about).
        try await LiveTerminalTests().withInspect("live \(Self.rounds) --grace 3600s -- '\(CLIHarness.traceProbePath)' follow '\(path)'") { tmux in
            let flagged = try await tmux.waitFor("the provisional finding") { Self.header($0).contains("no findings, 1 provisional") }
            #expect(Self.header(flagged).contains("16 events"), "\(flagged)")
            #expect(!flagged.contains { $0.hasPrefix("EXIT=") }, "napkin-inspect still runs the command: \(flagged)")
            #expect(flagged.contains { $0.hasPrefix("  provisional (judged on the rounds so far; confirmed or withdrawn when the session ends)") }, "\(flagged)")
            #expect(flagged.contains { $0.hasPrefix("    error[growing-population] OrderRouter#") }, "\(flagged)")
            #expect(flagged.contains { $0.contains("at Shop/OrderBuilder.swift:31 (created)") }, "\(flagged)")

            // The rest, to the end record: the command exits; the view says so and shows check's verdict.
            try Self.append(lines[16...], to: path)
            let ended = try await tmux.waitFor("the command's end") { $0.last?.hasPrefix("command exited with status 0") == true }
            #expect(Self.header(ended).contains("1 finding") && !Self.header(ended).contains("provisional"), "\(ended)")
            #expect(ended.contains { $0.hasPrefix("  error[growing-population] OrderRouter#12: ") }, "\(ended)")
            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "the command's status: \(after)")
            #expect(after.contains { $0.hasPrefix("  error[growing-population] OrderRouter#12: live instances at the start of each round ('test started: ordersFlow'), then") }, "\(after)")
            #expect(!after.contains { $0.contains("provisional") }, "\(after)")
        }
    }

    @Test("off a terminal, the clean twins stay clean with --rounds, the growing fixture gets check's finding",
          arguments: ["growing-population-clean", "growing-population-cache-clean", "growing-population-every-second-round-clean",
                      "growing-population-pool-clean", "growing-population"])
    func cleanTwins(_ name: String) async throws {
        let result = try await CLIHarness.inspect(["live", "--rounds", "test started: ", "--no-follow", CLIHarness.fixture(name)])
        #expect(result.status == 0, "\(result)")
        if name == "growing-population" {
            #expect(result.stdout.contains("error[growing-population] OrderRouter#12"), "\(result.stdout)")
        } else {
            #expect(result.stdout.contains("No findings."), "\(result.stdout)")
        }
        #expect(!result.stdout.contains("provisional"), "\(result.stdout)")
    }
}
