import Foundation
import Testing
import TestSupport

/// `napkin-inspect live` without a terminal: it reads to the end of its input
/// (a file, stdin, or a command's trace) and prints the final tree and findings.
@Suite("napkin-inspect live, not on a terminal")
struct LiveCommandTests {
    @Test("live FILE: the final tree, with the leaks marked, and the findings")
    func liveFile() async throws {
        let result = try await CLIHarness.inspect(["live", CLIHarness.exampleTrace("bug-retain-cycle")])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let lines = result.stdoutLines
        #expect(lines.first == "rib-house (pid 21099) at t=5.246s (after seq 207) (207 events)")
        #expect(lines.contains("Outside the tree, still alive:"))
        let leaked = lines.filter { $0.contains("! not-deallocated") }
        #expect(leaked.count == 2)
        #expect(leaked.allSatisfy { $0.hasPrefix("  LoggedInRouter#") })
        #expect(lines.contains { $0.hasPrefix("  ├─ MenuRouter#8 ") })
        let findings = try #require(lines.firstIndex(of: "Findings:"))
        // Each finding, the code it points at (#fileIDs: live does not look for
        // files), then what retains it (the trace's `retained` records).
        let listed = Array(lines[(findings + 1)...])
        #expect(listed.count == 8)
        let starts = ["  error[not-deallocated] LoggedInRouter#", "    at RibHouse/LaunchNapkinRouter.swift:70 (detached)",
                      "    retained by: LoggedInRouter#", "    1 of 1 strong reference found"]
        #expect(listed.enumerated().allSatisfy { $0.element.hasPrefix(starts[$0.offset % 4]) }, "\(listed)")
        #expect(!result.stdout.contains("\u{1B}"), "no terminal control sequences off a terminal")
    }

    @Test("live FILE on a clean trace: the tree and 'No findings.'")
    func liveClean() async throws {
        let result = try await CLIHarness.inspect(["live", CLIHarness.fixture("double-attach-clean")])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.last == "No findings.")
        #expect(result.stdoutLines.first?.hasPrefix("fixture (pid 4242) at t=") == true)
    }

    @Test("live - and live with no FILE read the trace from stdin; the same report as from the file")
    func liveStdin() async throws {
        let path = CLIHarness.fixture("duplicate-child")
        let fromFile = try await CLIHarness.inspect(["live", path])
        let data = try Data(contentsOf: PackagePaths.root.appendingPathComponent(path))
        let fromDash = try await CLIHarness.inspect(["live", "-"], stdin: .data(data))
        let fromNothing = try await CLIHarness.inspect(["live"], stdin: .data(data))
        #expect(fromFile.status == 0 && fromDash.status == 0 && fromNothing.status == 0, "\(fromDash)")
        #expect(fromDash.stdout == fromFile.stdout)
        #expect(fromNothing.stdout == fromFile.stdout)
        #expect(fromDash.stdout.contains("├─ MenuRouter#4           active    2.6s             ! duplicate-child"), "\(fromDash)")
        #expect(fromDash.stdout.contains("  warning[duplicate-child] MenuRouter#4: "))
    }

    @Test("live - with an empty stdin: exit 2, one line")
    func liveEmptyStdin() async throws {
        let result = try await CLIHarness.inspect(["live", "-"], stdin: .data(Data()))
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        #expect(line.contains("no trace records"))
    }

    @Test("live -- rib-house: the command's exit status and the final tree")
    func liveCommand() async throws {
        let result = try await CLIHarness.inspect(["live", "--", CLIHarness.ribHousePath, "--speed", "20", "--quiet"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutLines
        let title = try #require(lines.first)
        #expect(title.hasPrefix("rib-house (pid "), "\(result)")
        #expect(title.hasSuffix(" events)"))
        #expect(lines.contains("(no routers alive)"), "a clean run tears everything down: \(result)")
        #expect(lines.last == "No findings.")
        #expect(result.stderr.isEmpty, "\(result)")
    }

    @Test("live -- rib-house with a bug: the findings, and still the command's status")
    func liveCommandWithBug() async throws {
        // early-task: an ordering bug, found whatever the timing (no grace period involved).
        let result = try await CLIHarness.inspect(["live", "--", CLIHarness.ribHousePath, "--speed", "20", "--quiet", "--bug", "early-task"])
        #expect(result.status == 0, "\(result)")
        let findings = result.stdoutLines.filter { $0.hasPrefix("  error[") || $0.hasPrefix("  warning[") }
        #expect(findings.count == 2, "one per session: \(result)")
        #expect(findings.allSatisfy { $0.hasPrefix("  warning[task-started-inactive] PitBoardInteractor#") && $0.contains("'pit-poller'") }, "\(result)")
    }

    @Test("live -- a command that fails: its exit status")
    func liveCommandStatus() async throws {
        let result = try await CLIHarness.inspect(["live", "--", "/bin/sh", "-c", "exit 5"])
        #expect(result.status == 5, "\(result)")
        #expect(result.stderr.contains("no trace records"), "\(result)")
    }

    @Test("live -- a command that closes its trace before it exits: waited for, its status passed on")
    func liveCommandClosesTraceEarly() async throws {
        // The trace ends (the connection closes) while the command still runs: it is not "quit".
        let script = "\"$0\" send \"$1\"; sleep 0.3; exit 4"
        let result = try await CLIHarness.inspect(["live", "--", "/bin/sh", "-c", script, CLIHarness.traceProbePath, CLIHarness.fixture("duplicate-child")])
        #expect(result.status == 4, "\(result)")
        #expect(result.stdout.contains("  warning[duplicate-child] MenuRouter#4: "), "\(result)")
        #expect(!result.stderr.contains("because you quit"), "\(result)")
        #expect(result.stderrLines.last?.hasSuffix("exited with status 4") == true, "\(result)")
    }

    @Test("live -- a command whose trace is not a trace: said on stderr, exit 2")
    func liveCommandUnusableTrace() async throws {
        let scratch = try ScratchDirectory("not-a-trace")
        defer { scratch.remove() }
        let garbage = try scratch.write("napkin-not-a-trace.txt", "hello, not a trace\n")
        let result = try await CLIHarness.inspect(["live", "--", CLIHarness.traceProbePath, "send", garbage], timeout: 20)
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderr.contains("not a napkin trace: line 1"), "\(result)")
    }

    @Test("live -- processes that exit the instant their trace is sent, with both cores busy: every session is read, every time",
          .disabled(if: runsUnderThreadSanitizer,
                    "two busy loops and 36 apps: minutes of both cores taken from every test running beside it; once, in the plain run, is enough"))
    func liveCommandExitRace() async throws {
        // Each sender connects, writes the fixture and exits at once; the shell
        // exits as soon as the last one did. A connection still in the listen
        // backlog (or accepted, not yet read) when the command exits must be read.
        // Three rounds: the busy loops take the cores from every test beside
        // this one for as long as it runs (Scripts/loaded-suite.sh loads the
        // whole suite the same way, round after round).
        let senders = 12, rounds = 3
        let script = "i=0; while [ $i -lt \(senders) ]; do \"$0\" send \"$1\" & i=$((i+1)); done; wait"
        let hogs = try BusyLoops(count: 2)
        defer { hogs.stop() }
        for round in 1...rounds {
            let result = try await CLIHarness.inspect(["live", "--", "/bin/sh", "-c", script, CLIHarness.traceProbePath,
                                                       CLIHarness.fixture("duplicate-child")], timeout: 120)
            #expect(result.status == 0, "round \(round): \(result)")
            let summaries = result.stdoutLines.filter { $0.hasSuffix("(19 events)") }.count
            #expect(summaries == senders, "round \(round): \(summaries) of \(senders) sessions: \(result)")
            #expect(!result.stderr.contains("no trace records"), "round \(round): \(result)")
            #expect(!result.stderr.contains("still connected"), "round \(round): \(result)")
        }
    }

    @Test("live -- a command that does not exist: exit 2, one line")
    func liveMissingCommand() async throws {
        let result = try await CLIHarness.inspect(["live", "--", "/no/such/napkin-app"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderrLines == ["napkin-inspect: cannot run '/no/such/napkin-app': command not found (check the name and PATH)"])
    }
}
