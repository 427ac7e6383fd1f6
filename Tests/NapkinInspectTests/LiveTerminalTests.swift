import Foundation
import Testing
import TestSupport

/// `napkin-inspect live -- rib-house` on a real terminal, driven through tmux
/// as a user would: the full-screen view, quitting with q or Ctrl-C, resizing.
/// Skipped when tmux is not installed.
@Suite("napkin-inspect live on a terminal (tmux)", .enabled(if: CLIHarness.tmuxPath != nil, "tmux is not installed"))
struct LiveTerminalTests {
    /// A private tmux server (its own socket) with one session, 120×30.
    struct Tmux {
        /// Where the server's socket is (a unix socket path must be short).
        let directory: ScratchDirectory
        /// The server's socket.
        var socket: String { directory.file("tmux") }
        let target = "live"

        /// A server yet to be started, with a socket of its own.
        init() throws {
            directory = try ScratchDirectory(short: true)
        }

        @discardableResult
        func run(_ arguments: [String]) async throws -> CLIResult {
            let tmux = try #require(CLIHarness.tmuxPath)
            // Without TMUX: the tests may themselves run inside tmux.
            return try await CLIHarness.run(tmux, ["-S", socket, "-f", "/dev/null"] + arguments, environment: ["TMUX": nil], timeout: 30, takesSlot: false)
        }

        func start(_ shellCommand: String) async throws {
            let result = try await run(["new-session", "-d", "-s", target, "-x", "120", "-y", "30", shellCommand])
            try #require(result.status == 0, "tmux new-session failed: \(result)")
        }

        /// The visible text of the pane, one string per row (trailing blanks trimmed by tmux).
        func capture() async throws -> [String] {
            var rows = try await run(["capture-pane", "-p", "-t", target]).stdout
                .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if rows.last == "" { rows.removeLast() } // the newline after the last row
            return rows
        }

        func alternateScreen() async throws -> Bool {
            try await run(["display-message", "-p", "-t", target, "#{alternate_on}"]).stdout.hasPrefix("1")
        }

        func send(_ keys: String...) async throws {
            try await run(["send-keys", "-t", target] + keys)
        }

        /// Captures the pane until `condition` holds (or `bound` passes: then records an issue naming `what` and the screen).
        @discardableResult
        func waitFor(_ what: String, within bound: Duration = hangBound, _ condition: ([String]) -> Bool,
                     sourceLocation: SourceLocation = #_sourceLocation) async throws -> [String] {
            let clock = ContinuousClock()
            let deadline = clock.now + bound
            var screen: [String] = []
            while true {
                // The screen is read once more after the deadline: a poll
                // that slept past it on a busy machine still gets its look.
                let late = clock.now >= deadline
                screen = try await capture()
                if condition(screen) { return screen }
                if late { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            Issue.record("timed out waiting for \(what); the screen:\n\(screen.joined(separator: "\n"))", sourceLocation: sourceLocation)
            return screen
        }

        func kill() async {
            _ = try? await run(["kill-server"])
            directory.remove()
        }
    }

    /// Runs `body` with a tmux session running `napkin-inspect ARGUMENTS` (in the
    /// repository root) and an `EXIT=status` line after it; the server is always killed.
    func withInspect(_ arguments: String, _ body: (Tmux) async throws -> Void) async throws {
        let tmux = try Tmux()
        let command = "cd '\(PackagePaths.root.path)' && '\(CLIHarness.inspectPath)' \(arguments); echo \"EXIT=$?\"; sleep 600"
        do {
            try await tmux.start(command)
            try await body(tmux)
        } catch {
            await tmux.kill()
            throw error
        }
        await tmux.kill()
    }

    /// `withInspect` for `live -- rib-house ARGUMENTS`.
    func withLive(_ arguments: String, _ body: (Tmux) async throws -> Void) async throws {
        try await withInspect("live -- '\(CLIHarness.ribHousePath)' \(arguments)", body)
    }

    /// The live view showing the root and at least one attached child (the app
    /// swaps children now and then, so a frame may briefly show the root alone).
    static func isLiveFrame(_ screen: [String]) -> Bool {
        screen.first?.hasPrefix("napkin-inspect live") == true
            && screen.contains { $0.hasPrefix("LaunchNapkinRouter#2") && $0.contains(" active ") }
            && screen.contains { ($0.hasPrefix("└─ ") || $0.hasPrefix("├─ ")) && $0.contains("Router#") && $0.contains(" active ") }
    }

    /// The rib-house pid from the header, `... rib-house (pid 123) ...`.
    static func pid(fromHeader header: String) -> pid_t? {
        guard let range = header.range(of: "(pid ") else { return nil }
        return pid_t(header[range.upperBound...].prefix { $0.isNumber })
    }

    /// The `t=` of the live header, in seconds: `t=850ms`, `t=1.5s`, `t=2m05s`.
    static func headerSeconds(_ header: String) -> Double? {
        guard let range = header.range(of: "  t=") else { return nil }
        let text = String(header[range.upperBound...].prefix { $0 != " " })
        for (suffix, scale) in [("ns", 1e-9), ("µs", 1e-6), ("ms", 1e-3)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }
        }
        let parts = text.dropLast().split(separator: "m")
        if text.hasSuffix("s"), parts.count == 2, let minutes = Double(parts[0]), let seconds = Double(parts[1]) { return minutes * 60 + seconds }
        if text.hasSuffix("s") { return Double(text.dropLast()) }
        if text.hasSuffix("m"), let hours = text.split(separator: "h").first.flatMap({ Double($0) }) { return hours * 3600 }
        return nil
    }

    static func isRunning(_ pid: pid_t) -> Bool {
        kill(pid, 0) == 0 || errno != ESRCH
    }

    @Test("live FILE of a hostile trace: nothing in it leaves the alternate screen, sets the title or clears the screen")
    func hostileTrace() async throws {
        try await withInspect("live '\(HostileCorpus.directory)/ctl-everywhere.ndjson'") { tmux in
            let screen = try await tmux.waitFor("the live view of the hostile trace") { screen in
                screen.first?.hasPrefix("napkin-inspect live") == true && screen.contains { $0.contains(#"Root\e]0;pwned\u{7}"#) }
            }
            #expect(screen.first?.contains(#"app\e]0;pwned"#) == true, "the app name is shown escaped: \(screen)")
            #expect(try await tmux.alternateScreen(), "still on the alternate screen (the trace's ESC[?1049l was not sent)")
            let title = try await tmux.run(["display-message", "-p", "-t", tmux.target, "#{pane_title}"]).stdout
            #expect(!title.contains("pwned"), "the trace set the title: \(title)")
            #expect(screen.count == 30 && screen.last?.contains("q quit") == true, "the frame is whole: \(screen)")
            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "\(after)")
            #expect(after.contains { $0.contains(#"Root\e]0;pwned"#) }, "the final tree, escaped: \(after)")
            let finalTitle = try await tmux.run(["display-message", "-p", "-t", tmux.target, "#{pane_title}"]).stdout
            #expect(!finalTitle.contains("pwned"), "the final tree set the title: \(finalTitle)")
        }
    }

    @Test("live -- rib-house: the full-screen tree; q quits, restores the screen and stops the app")
    func quitWithQ() async throws {
        try await withLive("--loop 0 --speed 5") { tmux in
            let screen = try await tmux.waitFor("the live view with routers", Self.isLiveFrame)
            try #require(Self.isLiveFrame(screen))
            let header = screen[0]
            #expect(header.hasPrefix("napkin-inspect live  rib-house (pid "), "\(header)")
            #expect(header.contains(" events (") && header.contains("routers "), "\(header)")
            #expect(screen[1] == String(repeating: "─", count: 120), "the rule spans the terminal")
            #expect(screen.contains { $0.hasPrefix("LaunchNapkinRouter#2") && $0.contains("active") }, "\(screen)")
            #expect(screen.count == 30)
            #expect(screen.last?.hasPrefix("q quit") == true, "\(screen)")
            #expect(try await tmux.alternateScreen(), "the live view uses the alternate screen")
            let pid = try #require(Self.pid(fromHeader: header))
            #expect(Self.isRunning(pid))

            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "\(after)")
            #expect(try await tmux.alternateScreen() == false, "the alternate screen is gone")
            #expect(!after.contains { $0.hasPrefix("napkin-inspect live") }, "the live frame is not on the normal screen: \(after)")
            #expect(after.contains { $0.hasPrefix("rib-house (pid \(pid)) at t=") }, "the final tree is printed: \(after)")
            #expect(after.contains("No findings."), "\(after)")
            #expect(!Self.isRunning(pid), "rib-house was stopped")
        }
    }

    @Test("live -- rib-house: Ctrl-C quits like q")
    func quitWithControlC() async throws {
        try await withLive("--loop 0 --speed 5 --quiet") { tmux in
            let screen = try await tmux.waitFor("the live view with routers", Self.isLiveFrame)
            let pid = try #require(screen.first.flatMap(Self.pid(fromHeader:)))
            try await tmux.send("C-c")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "\(after)")
            #expect(try await tmux.alternateScreen() == false)
            #expect(after.contains { $0.hasPrefix("rib-house (pid \(pid)) at t=") }, "\(after)")
            #expect(!Self.isRunning(pid), "rib-house was stopped")
        }
    }

    @Test("live -- rib-house: resizing the terminal redraws at the new size, without a crash")
    func resize() async throws {
        try await withLive("--loop 0 --speed 5 --quiet") { tmux in
            try await tmux.waitFor("the live view with routers", Self.isLiveFrame)
            try await tmux.run(["resize-window", "-t", tmux.target, "-x", "80", "-y", "20"])
            let small = try await tmux.waitFor("a frame 80 columns wide") { screen in
                screen.count == 20 && screen.dropFirst().first == String(repeating: "─", count: 80)
            }
            #expect(small.first?.hasPrefix("napkin-inspect live") == true, "\(small)")
            #expect(small.last?.hasPrefix("q quit") == true, "the footer stays on the last row: \(small)")

            try await tmux.run(["resize-window", "-t", tmux.target, "-x", "150", "-y", "40"])
            let large = try await tmux.waitFor("a frame 150 columns wide") { screen in
                screen.count == 40 && screen.dropFirst().first == String(repeating: "─", count: 150)
            }
            #expect(large.first?.hasPrefix("napkin-inspect live  rib-house (pid ") == true, "\(large)")
            #expect(!large.contains { $0.hasPrefix("EXIT=") }, "still running after the resizes")

            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "\(after)")
        }
    }

    @Test("live FILE follows the file as it grows, like tail -F; trace time passes with the wall clock")
    func followGrowingFile() async throws {
        let scratch = try ScratchDirectory("live-follow")
        let lines = try String.repoFile(CLIHarness.fixture("not-deallocated")).split(separator: "\n").map { $0 + "\n" }
        // The root only (seq 1-6), then the order and payment napkins (seq 7-16, the last at 20.5 ms).
        let path = try scratch.write("growing.ndjson", lines.prefix(6).joined())
        let clock = ContinuousClock()
        let started = clock.now
        try await withInspect("live '\(path)'") { tmux in
            let first = try await tmux.waitFor("the root") { screen in
                screen.contains { $0.hasPrefix("RootRouter#2") && $0.contains(" active ") }
            }
            #expect(first.first?.hasPrefix("napkin-inspect live  fixture (pid 4242)") == true, "\(first)")
            #expect(!first.contains { $0.contains("OrderRouter") })

            let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            try handle.seekToEnd()
            try handle.write(contentsOf: Data(lines[6..<16].joined().utf8))
            try handle.close()
            let grown = try await tmux.waitFor("the appended routers") { screen in
                screen.contains { $0.hasPrefix("└─ OrderRouter#4") } && screen.contains { $0.hasPrefix("   └─ PaymentRouter#6") }
            }
            #expect(grown.last?.hasPrefix("q quit") == true, "still following: \(grown)")

            // While the file is quiet, the view lets trace time pass (so that due checks
            // run), at the pace of the wall clock, never faster: no more than the time
            // since napkin-inspect started.
            let quiet = try await tmux.waitFor("trace time to pass 1.5 s") { screen in
                (screen.first.flatMap(Self.headerSeconds) ?? 0) >= 1.5
            }
            let wall = clock.now - started
            let wallSeconds = Double(wall.components.seconds) + Double(wall.components.attoseconds) / 1e18
            let shown = try #require(quiet.first.flatMap(Self.headerSeconds), "\(quiet)")
            #expect(shown - 0.0205 <= wallSeconds + 0.1, "trace time ran ahead of the wall clock: \(quiet.first ?? "") after \(wall)")

            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "\(after)")
            let title = try #require(after.first { $0.hasPrefix("fixture (pid 4242) at t=") }, "\(after)")
            #expect(title.hasSuffix(" (after seq 16) (16 events)"), "\(title)")
            #expect(after.contains { $0.hasPrefix("   └─ PaymentRouter#6") })
            #expect(after.contains("No findings."))
        }
    }

    @Test("live FILE --no-follow on a terminal: reads to the end and says so")
    func noFollow() async throws {
        try await withInspect("live --no-follow \(CLIHarness.fixture("not-deallocated"))") { tmux in
            let screen = try await tmux.waitFor("the end of the trace") { $0.last?.hasPrefix("end of trace; press q to quit") == true }
            #expect(screen.first?.hasPrefix("napkin-inspect live  fixture (pid 4242)  t=2.6s  22 events") == true, "\(screen)")
            #expect(screen.first?.contains("1 finding") == true, "\(screen)")
            #expect(screen.contains { $0.hasPrefix("  OrderRouter#4") && $0.hasSuffix("! not-deallocated") }, "\(screen)")
            #expect(screen.contains("Findings"))
            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "\(after)")
            #expect(after.contains { $0.hasPrefix("  error[not-deallocated] OrderRouter#4: ") }, "\(after)")
        }
    }
}
