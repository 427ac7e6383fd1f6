import Foundation
import Testing
import TestSupport

/// The in-app detector at the end of a run (issue 41), in a real process:
/// TraceProbe `exit-leak` leaks a router through a retain cycle and ends
/// some time after its detach, by returning from `main`, calling `exit()`
/// or sending itself SIGTERM (see `Tests/TraceProbe/ExitLeakMode.swift`).
///
/// A finding decided by then reaches the log, the handler and the trace,
/// its path (or a note that the exit cut the search short) in a second line
/// with the same fingerprint; a check the exit cut short is named in one
/// line. Nothing is timed: the grace period passed (1.3 s) or did not
/// (0.4 s) in the app's time, and the exit decides with that time.
@Suite("Detect: the end of a run")
struct DetectExitTests {
    /// `napkin detect: error[not-deallocated] CycleRouter#…` lines.
    private func findingLines(_ run: ProbeResult) -> [String] {
        run.stderrLines.filter { $0.hasPrefix("napkin detect: error[not-deallocated] CycleRouter#") }
    }

    /// The second line: the path, or why there is none (cut short).
    private func pathLines(_ run: ProbeResult) -> [String] {
        run.stderrLines.filter {
            $0.hasPrefix("napkin detect: CycleRouter#") && ($0.contains(" retained by: ") || $0.contains("the search was cut short"))
        }
    }

    private func fingerprint(_ line: String) -> String? {
        guard let start = line.range(of: "[fingerprint ")?.upperBound, let end = line[start...].firstIndex(of: "]") else { return nil }
        return String(line[start..<end])
    }

    /// The checks of one ending 0.3 s after the grace period: one line,
    /// then its path or cut-short line; the handler twice; the trace's
    /// `retained` record before its end record, stamped no later than it.
    private func expectReported(_ how: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let scratch = try ScratchDirectory("detect-exit")
        defer { scratch.remove() }
        let path = scratch.path + "/trace.ndjson"
        let run = try await Probe.run(["exit-leak", how, "1300"], environment: ["NAPKIN_TRACE": path])
        if how == "term" {
            #expect(run.signal == SIGTERM, "\(run.summary)", sourceLocation: sourceLocation)
        } else {
            #expect(run.exitStatus == 0, "\(run.summary)", sourceLocation: sourceLocation)
        }
        let found = findingLines(run)
        let paths = pathLines(run)
        #expect(found.count == 1, "\(run.summary)", sourceLocation: sourceLocation)
        #expect(paths.count == 1, "\(run.summary)", sourceLocation: sourceLocation)
        let print = try #require(found.first.flatMap(fingerprint), "\(run.summary)", sourceLocation: sourceLocation)
        #expect(paths.first.flatMap(fingerprint) == print, "\(run.summary)", sourceLocation: sourceLocation)
        // The finding's line first, its path after it.
        if let f = run.stderrLines.firstIndex(of: found[0]), let p = paths.first.flatMap(run.stderrLines.firstIndex(of:)) {
            #expect(f < p, "\(run.summary)", sourceLocation: sourceLocation)
        }
        #expect(!run.stderrLines.contains { $0.contains("not reported") }, "\(run.summary)", sourceLocation: sourceLocation)
        // The handler: the finding, then the finding with what holds it.
        let handled = run.stdoutLines.filter { $0.hasPrefix("handler \(print) ") }
        #expect(handled.first == "handler \(print) retainers=none", "\(run.summary)", sourceLocation: sourceLocation)
        #expect(handled.count == 2 && handled.last != "handler \(print) retainers=none", "\(run.summary)", sourceLocation: sourceLocation)
        // The trace: the retained record, then the end record, last.
        let trace = try WireTrace(contentsOf: path)
        #expect(trace.badLines.isEmpty && trace.sequenceProblem() == nil, sourceLocation: sourceLocation)
        #expect(trace.kinds.last == "end", "\(trace.kinds)", sourceLocation: sourceLocation)
        #expect(trace.events.last?[string: "reason"] == (how == "term" ? "terminated" : "exit"), sourceLocation: sourceLocation)
        #expect(trace.kinds.suffix(2).first == "retained", "\(trace.kinds)", sourceLocation: sourceLocation)
    }

    @Test("returning from main 0.3 s after the grace period: the line, its path (or the cut-short note), the handler and the trace")
    func returnFromMain() async throws {
        try await expectReported("return")
    }

    @Test("exit() 0.3 s after the grace period: the line, its path (or the cut-short note), the handler and the trace")
    func exitCall() async throws {
        try await expectReported("exit")
    }

    @Test("SIGTERM 0.3 s after the grace period: reported as at exit, an end record saying so; the process still ends by the signal")
    func terminationSignal() async throws {
        try await expectReported("term")
    }

    @Test("ending inside the grace period: no finding, one line naming the check still undecided; check says the same of the trace")
    func undecided() async throws {
        let scratch = try ScratchDirectory("detect-exit")
        defer { scratch.remove() }
        let path = scratch.path + "/trace.ndjson"
        let run = try await Probe.run(["exit-leak", "return", "400"], environment: ["NAPKIN_TRACE": path])
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(findingLines(run).isEmpty, "\(run.summary)")
        let notes = run.stderrLines.filter { $0.hasPrefix("napkin detect:") }
        #expect(notes.count == 1, "\(run.summary)")
        #expect(notes.first?.hasPrefix("napkin detect: 1 check undecided: the process ended less than a grace period after its event (not-deallocated CycleRouter#") == true,
                "\(run.summary)")
        #expect(!run.stdoutLines.contains { $0.hasPrefix("handler ") }, "\(run.summary)")
    }

    @Test("assert mode at exit: the line, the path (or the cut-short note), then the trap")
    func assertAtExit() async throws {
        let run = try await Probe.run(["exit-leak", "exit", "1300", "assert"])
        #expect(findingLines(run).count == 1, "\(run.summary)")
        #expect(pathLines(run).count == 1, "\(run.summary)")
        #if DEBUG
        // A debug build's assertionFailure traps.
        #expect(run.signal != nil, "\(run.summary)")
        #endif
    }
}
