import Foundation
import Testing
import TestSupport

/// A trace cut by SIGKILL, the way iOS ends an app (Stop in Xcode, swiping
/// it away, reclaiming memory while suspended): no `end` record, and the
/// last batch possibly missing. `check` must judge it as it judges a crash.
@Suite("check: a trace cut by SIGKILL")
struct CheckKilledTraceTests {
    /// Runs `TraceProbe background MARKS` tracing to `path`, waits until it
    /// says its background flush is done, and kills it with SIGKILL.
    private func runKilledApp(tracingTo path: String, marks: Int) async throws -> CLIResult {
        let script = """
            "$1" background "$3" 2>"$2.stderr" & pid=$!
            i=0
            until grep -q flushed "$2.stderr" 2>/dev/null; do
                i=$((i + 1))
                if [ "$i" -gt 12000 ]; then kill -KILL "$pid"; echo "never flushed"; exit 3; fi
                sleep 0.01
            done
            kill -KILL "$pid"
            wait "$pid"
            echo "status $?"
            """
        return try await CLIHarness.run("/bin/sh", ["-c", script, "sh", CLIHarness.traceProbePath, path, String(marks)],
                                        environment: ["NAPKIN_TRACE": path], timeout: 180)
    }

    /// `check`'s text with the trace's path and its event count taken out.
    private func verdict(_ result: CLIResult, path: String) -> String {
        result.stdout.replacingOccurrences(of: path, with: "TRACE")
            .replacingOccurrences(of: #"\(\d+ events\)"#, with: "(N events)", options: .regularExpression)
    }

    @Test("killed after a background flush: every flushed event is there, and check gives the crash verdict")
    func killedAfterBackgroundFlush() async throws {
        let scratch = try ScratchDirectory("killed")
        let killed = scratch.file("killed.ndjson"), crashed = scratch.file("crashed.ndjson")
        let marks = 200

        let run = try await runKilledApp(tracingTo: killed, marks: marks)
        #expect(run.stdout == "status 137\n", "\(run)")
        let text = try String(contentsOfFile: killed, encoding: .utf8)
        #expect(text.hasSuffix("\n"), "the flush writes whole lines")
        #expect(!text.contains(#""ev":"end""#))
        for i in 1...marks { #expect(text.contains(#""text":"bg \#(i)""#), "mark bg \(i) was not flushed") }

        let crash = try await CLIHarness.run(CLIHarness.traceProbePath, ["crash", String(marks)],
                                             environment: ["NAPKIN_TRACE": crashed, "SWIFT_BACKTRACE": "enable=no"])
        #expect(crash.status > 128, "the probe was meant to trap\n\(crash)")

        let checkKilled = try await CLIHarness.inspect(["check", killed])
        let checkCrashed = try await CLIHarness.inspect(["check", crashed])
        #expect(checkKilled.status == checkCrashed.status, "killed:\n\(checkKilled)\ncrashed:\n\(checkCrashed)")
        #expect(checkKilled.stderr == checkCrashed.stderr)
        #expect(verdict(checkKilled, path: killed) == verdict(checkCrashed, path: crashed))
        #expect(!checkKilled.stdout.contains("trace problem"), "\(checkKilled)")
        #expect(checkKilled.stdout.contains("note: the trace has no end record (the app crashed, was killed, or is still running)"))
    }
}
