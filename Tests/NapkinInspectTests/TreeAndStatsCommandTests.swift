import Foundation
import Testing
import TestSupport

/// `napkin-inspect tree` (at the end, `--at SEQ`, `--at TIME`) and `stats`
/// (text and JSON) on recorded traces.
@Suite("napkin-inspect tree and stats")
struct TreeAndStatsCommandTests {
    static let notDeallocated = CLIHarness.fixture("not-deallocated")

    // MARK: - tree

    @Test("tree at the end: the leaked subtree outside the tree, marked, and the findings")
    func treeAtEnd() async throws {
        let result = try await CLIHarness.inspect(["tree", Self.notDeallocated])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == """
            fixture (pid 4242) at t=2.600s (after seq 22)
            RootRouter#2              active    2.6s
            Outside the tree, still alive:
              OrderRouter#4           detached  2.6s             detached 2.0s ago ! not-deallocated
              └─ PaymentRouter#6      detached  2.6s

            Findings so far:
              error[not-deallocated] OrderRouter#4: detached, but still alive 1s later: something retains it (a strong reference in an interactor, listener or service: a retain cycle?) (seq 18)

            """)
    }

    @Test("tree --at SEQ: the tree just after that event")
    func treeAtSeq() async throws {
        for arguments in [["--at", "16"], ["--at=16"]] {
            let result = try await CLIHarness.inspect(["tree", Self.notDeallocated] + arguments)
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout == """
                fixture (pid 4242) at t=20.500ms (after seq 16)
                RootRouter#2              active    19ms
                └─ OrderRouter#4          active    490µs
                   └─ PaymentRouter#6     active    290µs

                """)
        }
    }

    @Test("tree --at TIME: before and after the grace period of a detach")
    func treeAtTime() async throws {
        // OrderRouter#4 is detached at 600.1 ms; with a 1 s grace it is reported at 1.6001 s.
        let before = try await CLIHarness.inspect(["tree", Self.notDeallocated, "--at", "1.5s"])
        #expect(before.status == 0, "\(before)")
        #expect(before.stdoutLines.first == "fixture (pid 4242) at t=1.500s (after seq 20)")
        let orderBefore = try #require(before.stdoutLines.first { $0.contains("OrderRouter#4") })
        #expect(orderBefore.contains("detached") && orderBefore.contains("detached 899ms ago"), "\(orderBefore)")
        #expect(!before.stdout.contains("not-deallocated"), "not decided yet at 1.5 s: \(before)")
        #expect(!before.stdout.contains("Findings so far"))

        let after = try await CLIHarness.inspect(["tree", Self.notDeallocated, "--at", "1700ms"])
        #expect(after.status == 0, "\(after)")
        #expect(after.stdoutLines.first == "fixture (pid 4242) at t=1.700s (after seq 20)")
        let orderAfter = try #require(after.stdoutLines.first { $0.contains("OrderRouter#4") })
        #expect(orderAfter.hasSuffix("! not-deallocated"), "\(orderAfter)")
        #expect(after.stdout.contains("Findings so far:\n  error[not-deallocated] OrderRouter#4"))

        let early = try await CLIHarness.inspect(["tree", CLIHarness.exampleTrace("clean"), "--at", "1s"])
        #expect(early.stdoutLines == [
            "rib-house (pid 3447) at t=1.000s (after seq 60)",
            "LaunchNapkinRouter#2          active    995ms",
            "└─ LoggedInRouter#6           active    884ms",
            "   ├─ MenuRouter#8            active    883ms            view covered",
            "   ├─ PitBoardRouter#10       active    880ms   1 task   view covered",
            "   ├─ AnnouncementsRouter#13  active    877ms   1 task   view covered",
            "   └─ OrderRouter#16          active    320ms",
        ], "\(early)")
    }

    @Test("tree --at beyond the end: the end, and a note on stderr")
    func treeAtBeyondEnd() async throws {
        let bySeq = try await CLIHarness.inspect(["tree", Self.notDeallocated, "--at", "999"])
        #expect(bySeq.status == 0)
        #expect(bySeq.stdoutLines.first == "fixture (pid 4242) at t=2.600s (after seq 22)")
        #expect(bySeq.stderrLines == ["napkin-inspect: note: the trace ends before seq 999; showing its end"])
        let byTime = try await CLIHarness.inspect(["tree", Self.notDeallocated, "--at", "1m"])
        #expect(byTime.status == 0)
        #expect(byTime.stderrLines == ["napkin-inspect: note: the trace ends before 60.000s; showing its end"])
    }

    @Test("tree of a clean run at its end: nothing alive")
    func treeCleanEnd() async throws {
        let result = try await CLIHarness.inspect(["tree", CLIHarness.exampleTrace("clean")])
        #expect(result.status == 0)
        #expect(result.stdout == "rib-house (pid 3447) at t=4.810s (after seq 192)\n(no routers alive)\n")
    }

    @Test("tree marks every finding on its router: the undetached children, while they live")
    func treeMarksUndetachedChild() async throws {
        let path = CLIHarness.exampleTrace("bug-service-keeps-child")
        let during = try await CLIHarness.inspect(["tree", path, "--at", "4.9s"])
        #expect(during.status == 0)
        let marked = during.stdoutLines.filter { $0.contains("! undetached-child") }
        #expect(marked.count == 2, "\(during)")
        #expect(marked.allSatisfy { $0.hasPrefix("  PitBoardRouter#") && $0.contains("detached") }, "\(during)")
        #expect(during.stdout.contains("Outside the tree, still alive:"))
        #expect(during.stdout.contains("parent LoggedInRouter#6 deallocated"), "\(during)")
        // Between the two findings only the first is established.
        let between = try await CLIHarness.inspect(["tree", path, "--at", "4.6s"])
        #expect(between.stdoutLines.filter { $0.contains("! undetached-child") }.count == 1, "\(between)")
        // At the end the app has released the registry: nothing is left to mark, the findings remain.
        let end = try await CLIHarness.inspect(["tree", path])
        #expect(!end.stdout.contains("! undetached-child"))
        #expect(end.stdoutLines.filter { $0.hasPrefix("  error[undetached-child] PitBoardRouter#") }.count == 2, "\(end)")
    }

    // MARK: - stats

    @Test("stats: counts, completeness and the event mix of the clean run")
    func statsText() async throws {
        let path = CLIHarness.exampleTrace("clean")
        let result = try await CLIHarness.inspect(["stats", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let lines = result.stdoutLines
        #expect(lines.first == "Trace        \(path) (14.2 KiB, 192 events, format v1)")
        #expect(lines.contains { $0.hasPrefix("App          rib-house (pid 3447), started ") })
        #expect(lines.contains("Duration     4.8s (39 events/s)"))
        #expect(lines.contains("Complete     yes: ended cleanly (exit)"))
        #expect(lines.contains("Dropped      0 events"))
        #expect(lines.contains("Routers      14 created, 14 deallocated, 0 alive at the end"))
        #expect(lines.contains("Interactors  14 created, 14 deallocated, 0 alive at the end"))
        #expect(lines.contains("Tasks        4 started, 4 ended (4 cancelled), 0 running at the end"))
        #expect(lines.contains("Tree depth   2 (deepest attach)"))
        #expect(lines.contains("Marks        20"))
        #expect(lines.contains("Reader       0 invalid lines, 0 records of unknown kinds, 0 unknown fields"))
        // Events by kind: one row per kind; the counts add up to the total.
        let header = try #require(lines.firstIndex(of: "Events by kind:"))
        let rows = lines[(header + 1)...].map { $0.split(separator: " ", omittingEmptySubsequences: true) }
        #expect(rows.count == 16)
        #expect(rows.map { Int($0[1]) ?? -1 }.reduce(0, +) == 192)
        #expect(rows.first.map { $0.map(String.init) } == ["session", "1", "0.5%"])
        #expect(rows.contains { $0.map(String.init) == ["deinit", "28", "14.6%"] })
    }

    @Test("stats --format json: the documented numbers, consistent with the trace")
    func statsJSON() async throws {
        let path = CLIHarness.exampleTrace("bug-retain-cycle")
        let result = try await CLIHarness.inspect(["stats", path, "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let lines = try String.repoFile(path).split(separator: "\n")
        #expect(json["path"] as? String == path)
        #expect(json["events"] as? Int == lines.count)
        #expect(json["app"] as? String == "rib-house")
        #expect(json["format_version"] as? Int == 1)
        #expect(json["ended_cleanly"] as? Bool == true)
        #expect(json["end_reason"] as? String == "exit")
        #expect(json["last_line_cut_short"] as? Bool == false)
        #expect(json["dropped_events"] as? Int == 0)
        let kinds = try #require(json["events_by_kind"] as? [String: Int])
        #expect(kinds.values.reduce(0, +) == lines.count)
        #expect(kinds["router"] == json["routers_created"] as? Int)
        #expect(kinds["interactor"] == json["interactors_created"] as? Int)
        #expect(kinds["deinit"] == (json["routers_deallocated"] as? Int ?? 0) + (json["interactors_deallocated"] as? Int ?? 0))
        #expect(kinds["task_start"] == json["tasks_started"] as? Int)
        // The retain cycle: two LoggedIn subtrees (4 routers each) are never deallocated.
        #expect(json["routers_alive"] as? Int == 8)
        #expect((json["routers_created"] as? Int ?? 0) - (json["routers_deallocated"] as? Int ?? 0) == 8)
        #expect(json["max_depth"] as? Int == 2)
        let size = try String.repoFile(path).utf8.count
        #expect(json["bytes"] as? Int == size)
    }

    @Test("stats --format json: dropped events and a cut-short trace")
    func statsJSONIncomplete() async throws {
        let dropped = try await CLIHarness.inspect(["stats", "--format", "json", CLIHarness.fixture("events-dropped")])
        let json = try #require(try JSONSerialization.jsonObject(with: Data(dropped.stdout.utf8)) as? [String: Any])
        #expect(json["dropped_events"] as? Int == 3)
        #expect((json["events_by_kind"] as? [String: Int])?["dropped"] == 1)

        let scratch = try ScratchDirectory("stats-cut")
        let (path, _) = try BadInputTests.truncatedTrace(in: scratch)
        let cut = try await CLIHarness.inspect(["stats", "--format", "json", path])
        #expect(cut.status == 0)
        let cutJSON = try #require(try JSONSerialization.jsonObject(with: Data(cut.stdout.utf8)) as? [String: Any])
        #expect(cutJSON["last_line_cut_short"] as? Bool == true)
        #expect(cutJSON["ended_cleanly"] as? Bool == false)
        #expect(cutJSON["events"] as? Int == 191)
        #expect(cutJSON["invalid_lines"] as? Int == 1)
    }
}
