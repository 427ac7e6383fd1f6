import Foundation
import Testing
import TestSupport

/// The interactive inspector (`live` on a terminal), driven through tmux as a
/// user would: selecting a node and opening its details, pausing and going
/// back in time, filtering, the help, switching sessions, and quitting.
/// Skipped when tmux is not installed. No wall-clock assertions: each step
/// waits (with a time limit) for the screen it expects.
@Suite("napkin-inspect live: the interactive inspector (tmux)", .enabled(if: CLIHarness.tmuxPath != nil, "tmux is not installed"),
       .disabled(if: runsUnderThreadSanitizer, "drives a terminal key by key: once, in the plain run, is enough"))
struct LiveInspectorTerminalTests {
    typealias Tmux = LiveTerminalTests.Tmux

    /// Runs `body` with `napkin-inspect ARGUMENTS` in a tmux pane (see ``LiveTerminalTests/withInspect(_:_:)``).
    func withInspect(_ arguments: String, _ body: (Tmux) async throws -> Void) async throws {
        try await LiveTerminalTests().withInspect(arguments, body)
    }

    /// The `paused at seq N` of a header, if it says so.
    static func pausedSeq(_ header: String) -> Int? {
        guard let range = header.range(of: "paused at seq ") else { return nil }
        return Int(header[range.upperBound...].prefix { $0.isNumber })
    }

    /// The rows of the tree: between the rule and the first empty row or section title.
    static func tree(_ screen: [String]) -> [String] {
        Array(screen.dropFirst(2).prefix { !$0.isEmpty && !$0.hasPrefix("Findings") })
    }

    /// The node names (`Type#id`) of tree rows.
    static func names(_ rows: [String]) -> [String] {
        rows.compactMap { row in row.split(separator: " ").first { $0.contains("#") }.map(String.init) }
    }

    @Test("pause, step back, select a node with ↓ and open its details: the finding's fix, as docs/findings.md says it; q restores the terminal")
    func pauseStepAndDetails() async throws {
        try await withInspect("live \(CLIHarness.exampleTrace("bug-swipe-back"))") { tmux in
            let live = try await tmux.waitFor("the whole trace, live") { screen in
                screen.first?.contains("  191 events (") == true && screen.first?.contains("[live; history ") == true
            }
            #expect(live.contains { $0.hasPrefix("error[view-gone-still-attached]") || $0.hasPrefix("  error[view-gone-still-attached]") })
            #expect(live.last?.hasPrefix("q quit  ? help") == true, "\(live)")
            let liveTree = Self.tree(live)

            // Pause, then ← six times: an earlier moment, another tree.
            try await tmux.send("Space")
            try await tmux.waitFor("paused at the newest event") { Self.pausedSeq($0.first ?? "") == 191 }
            try await tmux.send("Left", "Left", "Left", "Left", "Left", "Left")
            let back = try await tmux.waitFor("six events back") { Self.pausedSeq($0.first ?? "") == 185 }
            #expect(back.first?.contains("paused at seq 185, t=4.809s") == true, "\(back.first ?? "")")
            #expect(back.first?.contains("[history: seq 1\u{2013}191]") == true, "how far back one can go: \(back.first ?? "")")
            #expect(Self.tree(back) != liveTree, "the tree of that moment: \(back)")
            #expect(back.last?.hasPrefix("paused:") == true)

            // Two seconds of trace time back, then five events forward: the finding is made and OrderRouter#18 still alive.
            try await tmux.send("[", "[", "Right", "Right", "Right", "Right", "Right")
            let moment = try await tmux.waitFor("seq 90, with the leaked order router") { screen in
                Self.pausedSeq(screen.first ?? "") == 90 && screen.contains { $0.contains("OrderRouter#18") && $0.contains("! view-gone-still-attached") }
            }
            let orderRow = try #require(Self.tree(moment).firstIndex { $0.contains("OrderRouter#18") })
            for _ in 0..<orderRow { try await tmux.send("Down") }
            try await tmux.send("Enter")
            let details = try await tmux.waitFor("the details of OrderRouter#18") { screen in
                screen.dropFirst(2).first?.hasPrefix("OrderRouter#18  router") == true && screen.contains { $0.contains("Fix.") }
                    && screen.contains { $0.hasPrefix("History") }
            }
            #expect(details.contains { $0.contains("state") && $0.contains("attached to LoggedInRouter#6") }, "\(details)")
            #expect(details.contains { $0.contains("attached to LoggedInRouter#6  at RibHouse/LoggedInRouter.swift:58") }, "its history")
            #expect(details.contains { $0.contains("error[view-gone-still-attached] OrderRouter#18") })
            let fixIndex = try #require(details.firstIndex { $0.contains("Fix.") })
            #expect(details.dropFirst(fixIndex + 1).first?.contains("Detach in the parent when the child reports that its screen went.") == true,
                    "the fix of docs/findings.md: \(details)")
            try await tmux.send("Escape")
            try await tmux.waitFor("the tree again") { $0.contains { $0.contains("OrderRouter#18") && $0.contains("active") } && !$0.contains { $0.contains("Fix.") } }

            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "\(after)")
            #expect(try await tmux.alternateScreen() == false, "the alternate screen is gone")
            #expect(!after.contains { $0.hasPrefix("napkin-inspect live") }, "\(after)")
            #expect(after.contains { $0.hasPrefix("rib-house (pid 3501) at t=") }, "the final tree is printed: \(after)")
        }
    }

    @Test("/ filters the tree by type name, Enter keeps the filter, Esc clears it; ? shows the help and any key closes it")
    func filterAndHelp() async throws {
        try await withInspect("live \(CLIHarness.exampleTrace("clean"))") { tmux in
            try await tmux.waitFor("the whole trace") { $0.first?.contains("  192 events (") == true }
            // Back to a moment with a full tree: 2 s of trace time.
            try await tmux.send("[", "[")
            let full = try await tmux.waitFor("a moment with several routers") { Self.pausedSeq($0.first ?? "") != nil && Self.tree($0).count >= 3 }
            let before = Self.tree(full)
            try await tmux.send("/", "P", "i", "t")
            let typing = try await tmux.waitFor("the prompt and the filtered tree") { screen in
                screen.last?.hasPrefix("/Pit\u{2588}") == true && Self.tree(screen).contains { $0.contains("PitBoardRouter#") }
            }
            let filtered = Self.tree(typing)
            #expect(filtered.count < before.count, "\(filtered) of \(before)")
            let (kept, all) = (Self.names(filtered), Self.names(before))
            #expect(kept.allSatisfy { all.contains($0) } && kept.contains { $0.hasPrefix("PitBoardRouter#") }, "\(kept) of \(all)")
            #expect(kept.first == all.first && kept.count == 3, "the match, its parent and the root: \(kept)")
            try await tmux.send("Enter")
            let keptScreen = try await tmux.waitFor("the filter kept") { $0.last?.contains("filter 'Pit'") == true }
            #expect(Self.tree(keptScreen) == filtered)
            try await tmux.send("Escape")
            let cleared = try await tmux.waitFor("the filter cleared") { !($0.last?.contains("filter '") ?? true) }
            #expect(Self.tree(cleared) == before)

            try await tmux.send("?")
            let help = try await tmux.waitFor("the help") { $0.contains { $0.hasPrefix("Keys") } }
            for key in ["q, Ctrl-C", "space", "Enter", "[ ]", "Tab, Shift-Tab", "1-9"] {
                #expect(help.contains { $0.hasPrefix("  " + key) }, "\(key): \(help)")
            }
            try await tmux.send("x")
            let closed = try await tmux.waitFor("the help closed") { !$0.contains { $0.hasPrefix("Keys") } }
            #expect(Self.tree(closed) == before, "x only closed the help")
            try await tmux.send("C-c")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "\(after)")
            #expect(try await tmux.alternateScreen() == false)
        }
    }

    @Test("without colours the selection is a > marker")
    func markerWithoutColours() async throws {
        try await withInspect("live --no-color \(CLIHarness.exampleTrace("clean"))") { tmux in
            try await tmux.waitFor("the whole trace") { $0.first?.contains("  192 events (") == true }
            try await tmux.send("[", "[")
            let paused = try await tmux.waitFor("a moment with several routers") { Self.tree($0).count >= 3 }
            #expect(Self.tree(paused).first?.hasPrefix("> ") == true, "\(paused)")
            try await tmux.send("Down")
            let moved = try await tmux.waitFor("the marker one row down") { Self.tree($0).dropFirst().first?.hasPrefix("> ") == true }
            #expect(Self.tree(moved).first?.hasPrefix("  ") == true)
            try await tmux.send("q")
            try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
        }
    }

    @Test("live --listen: two apps connect; the session bar lists both, Tab and the number keys switch between them")
    func switchSessions() async throws {
        let scratch = try ScratchDirectory("live-sessions")
        let errors = scratch.file("stderr")
        try await withInspect("live --listen 0 2>'\(errors)'") { tmux in
            // The address is on standard error before the screen opens.
            let clock = ContinuousClock()
            let deadline = clock.now + hangBound
            var port: String?
            while port == nil && clock.now < deadline {
                if let text = try? String(contentsOfFile: errors, encoding: .utf8), let range = text.range(of: "listening on 127.0.0.1:") {
                    port = String(text[range.upperBound...].prefix { $0.isNumber })
                } else {
                    try await Task.sleep(for: .milliseconds(100))
                }
            }
            let address = "tcp:127.0.0.1:" + (try #require(port, "no address on standard error"))
            try await tmux.waitFor("the waiting screen") { $0.contains("waiting for a traced process to connect…") }
            func send(_ trace: String) async throws -> CLIResult {
                // No program slot: the screen is polled against a deadline, and a
                // slot the other tests' long runs hold would make the app late.
                try await CLIHarness.run(CLIHarness.traceProbePath, ["send", trace, "0", "5000"], environment: ["NAPKIN_TRACE": address],
                                         timeout: 60, takesSlot: false)
            }
            async let first = send(CLIHarness.exampleTrace("clean"))
            try await tmux.waitFor("the first app") { $0.first?.contains("rib-house (pid 3447)") == true }
            async let second = send(CLIHarness.exampleTrace("bug-swipe-back"))
            let both = try await tmux.waitFor("the session bar with both apps") { screen in
                screen.count > 1 && screen[1].contains("1 rib-house (pid 3447)") && screen[1].contains("2 rib-house (pid 3501)")
            }
            #expect(both.first?.hasPrefix("napkin-inspect live  [1/2] rib-house (pid 3447)") == true, "\(both.first ?? "")")
            try await tmux.send("Tab")
            let other = try await tmux.waitFor("the second app after Tab") { $0.first?.hasPrefix("napkin-inspect live  [2/2] rib-house (pid 3501)") == true }
            #expect(other.last?.contains("Tab next process") == true, "\(other.last ?? "")")
            try await tmux.send("1")
            try await tmux.waitFor("the first app after 1") { $0.first?.hasPrefix("napkin-inspect live  [1/2] rib-house (pid 3447)") == true }
            try await tmux.send("2")
            try await tmux.waitFor("the second app after 2") { $0.first?.hasPrefix("napkin-inspect live  [2/2] rib-house (pid 3501)") == true }
            try await tmux.send("BTab")
            try await tmux.waitFor("the first app after Shift-Tab") { $0.first?.hasPrefix("napkin-inspect live  [1/2] rib-house (pid 3447)") == true }
            let (a, b) = try await (first, second)
            #expect(a.status == 0 && b.status == 0, "\(a)\n\(b)")
            let ended = try await tmux.waitFor("both sessions ended") { screen in
                screen.count > 1 && screen[1].contains("(pid 3447) ended") && screen[1].contains("(pid 3501) ended, 1 finding")
            }
            #expect(ended.first?.contains("[1/2]") == true)
            try await tmux.send("q")
            let after = try await tmux.waitFor("napkin-inspect to exit") { $0.contains { $0.hasPrefix("EXIT=") } }
            #expect(after.contains("EXIT=0"), "\(after)")
            #expect(try await tmux.alternateScreen() == false)
        }
    }
}
