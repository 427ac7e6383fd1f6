import Foundation
import NapkinTrace
import Testing
import TestSupport

/// How the in-app detector reports what it finds, in a real process:
/// TraceProbe `detect` bootstraps ``NapkinDetector`` in code (or leaves it
/// to `NAPKIN_DETECT`) and leaks routers on purpose (kept in a global array
/// after their detach), with a handler that records, throws or blocks for
/// ever, and prints ``NapkinDetector/statistics`` at the end (see
/// `Tests/TraceProbe/DetectMode.swift`).
///
/// Each runs in a child process: a blocked handler, a trap and the
/// environment's one-time read are the process's, for good. No assertion is
/// timed: the probe waits, however slow the machine, until the rules found
/// what it leaked (the child gets ``childHangBound``).
@Suite("Detect: reporting findings in the app")
struct DetectHandlerTests {
    /// The reporting queue's capacity (`FindingDelivery.queueCapacity`).
    static let queueCapacity = 64
    /// Reported at once at most (`FindingDelivery.burst`).
    static let burst = 50

    @Test("a handler that blocks for ever: the app runs on and exits 0; what comes meanwhile waits in the bounded queue or is counted as dropped")
    func blockingHandler() async throws {
        let run = try await Probe.run(["detect", "blocks"])
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(!run.timedOut, "\(run.summary)")
        let out = run.stdoutLines
        #expect(out.contains("app still runs"), "\(out)")
        #expect(!run.stderrLines.contains { $0.hasPrefix("TraceProbe:") }, "\(run.summary)")
        let statistics = try #require(PrintedDetectorStatistics(lines: out), "\(out)")
        // The rules found every leak while the handler blocked: the analysis does not wait for it.
        #expect(statistics.findings == 100, "\(statistics)")
        #expect(statistics.reported == 0, "the first call never returns: \(statistics)")
        #expect(statistics.repeats == 0, "\(statistics)")
        // The first wave (the burst) is all taken: one being reported, 49 queued;
        // of the second, a second later (tokens for 10 or more), what fits in
        // the queue; the rest is dropped.
        #expect(statistics.dropped == statistics.findings - Self.queueCapacity - 1, "\(statistics)")
        // The log line of the finding being reported, written before its handler
        // was called; at the exit, after a bounded wait, how many were not reported.
        let lines = DetectLine.all(in: run.stderrLines)
        #expect(lines.count == 1, "\(run.summary)")
        #expect(lines.first?.type == "LeakManyRouter", "\(run.summary)")
        #expect(run.stderrLines.contains("napkin detect: \(statistics.dropped + Self.queueCapacity) finding(s) not reported "
                                         + "(reporting fell behind; see NapkinDetector.statistics)"), "\(run.summary)")
    }

    @Test("a handler that throws: every finding still counted and reported, every error counted, one line on standard error")
    func throwingHandler() async throws {
        let run = try await Probe.run(["detect", "throws"])
        #expect(run.exitStatus == 0, "\(run.summary)")
        let statistics = try #require(PrintedDetectorStatistics(lines: run.stdoutLines), "\(run.summary)")
        // The handler is called twice per finding when searches are on (a debug build): the finding, then what holds it.
        let calls = NapkinDetector.retainersByDefault ? 2 : 1
        #expect(statistics == PrintedDetectorStatistics(findings: 3, reported: 3, repeats: 0, dropped: 0, handlerErrors: 3 * calls))
        // Quiet mode: no finding line; the first error is told, the later ones only counted.
        #expect(run.stderrLines == ["napkin detect: the handler threw HandlerFailure (on purpose); later errors are only counted"],
                "\(run.summary)")
    }

    @Test("500 distinct findings at once: each reported or counted (reported + dropped + repeats == findings), more than the burst dropped, the handler called once per reported fingerprint")
    func manyAtOnce() async throws {
        let run = try await Probe.run(["detect", "many", "500"])
        #expect(run.exitStatus == 0, "\(run.summary)")
        let out = run.stdoutLines
        let statistics = try #require(PrintedDetectorStatistics(lines: out), "\(run.summary)")
        #expect(statistics.findings == 500, "\(statistics)")
        #expect(statistics.reported + statistics.dropped + statistics.repeats == statistics.findings, "\(statistics)")
        #expect(statistics.repeats == 0, "\(statistics)")
        #expect(statistics.reported >= Self.burst, "\(statistics)")
        // The burst, then 10 a second: all 500 would take 45 s.
        #expect(statistics.dropped > 0, "\(statistics)")
        #expect(statistics.handlerErrors == 0, "\(statistics)")
        let recorded = out.filter { $0.hasPrefix("fingerprint ") }
        #expect(recorded.count == statistics.reported, "\(statistics)")
        #expect(Set(recorded).count == recorded.count, "a fingerprint recorded twice")
        // Quiet: nothing on standard error, not even the count of what was dropped.
        #expect(run.stderrLines.isEmpty, "\(run.summary)")
    }

    @Test("log: one line per fingerprint, the same leak three times is one line; the handler is called once per fingerprint too")
    func logOncePerFingerprint() async throws {
        let run = try await Probe.run(["detect", "log"])
        #expect(run.exitStatus == 0, "\(run.summary)")
        let lines = DetectLine.all(in: run.stderrLines)
        let paths = DetectPathLine.all(in: run.stderrLines)
        #expect(run.stderrLines.count == lines.count + paths.count, "only finding lines and their path lines: \(run.summary)")
        // Each finding's line is followed by its path's (searches are on in a debug build), same fingerprint.
        if NapkinDetector.retainersByDefault { #expect(paths.map(\.fingerprint).sorted() == lines.map(\.fingerprint).sorted(), "\(run.summary)") }
        #expect(lines.map(\.type).sorted() == ["LeakARouter", "LeakBRouter", "LeakCRouter"], "\(run.summary)")
        #expect(lines.allSatisfy { $0.rule == "not-deallocated" && $0.severity == "error" }, "\(run.summary)")
        #expect(Set(lines.map(\.fingerprint)).count == 3, "\(run.summary)")
        let out = run.stdoutLines
        let recorded = out.filter { $0.hasPrefix("fingerprint ") }.map { String($0.dropFirst("fingerprint ".count)) }
        #expect(recorded.sorted() == lines.map(\.fingerprint).sorted(), "\(out)")
        let statistics = try #require(PrintedDetectorStatistics(lines: out), "\(run.summary)")
        #expect(statistics == PrintedDetectorStatistics(findings: 5, reported: 3, repeats: 2, dropped: 0, handlerErrors: 0))
    }

    /// Where `.assert` comes from.
    enum AssertSource: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case bootstrap, environment
        var testDescription: String { self == .bootstrap ? "NapkinDetector.bootstrap(.assert)" : "NAPKIN_DETECT=assert" }
    }

    #if DEBUG
    @Test("assert, in a debug build: the finding's line on standard error, then the process stops on a signal",
          arguments: AssertSource.allCases)
    func assertTraps(_ source: AssertSource) async throws {
        let run = try await runAssert(source)
        #expect(!run.timedOut, "\(run.summary)")
        #expect(run.exitStatus == nil, "not a clean exit: \(run.summary)")
        #expect(run.signal != nil, "\(run.summary)")
        // The line was written before the trap (the trap's own message repeats it, after).
        let first = try #require(run.stderrLines.first, "\(run.summary)")
        let line = try #require(DetectLine(first), "\(run.summary)")
        #expect(line.rule == "not-deallocated" && line.type == "LeakARouter", "\(run.summary)")
        // The app did not reach its end.
        #expect(PrintedDetectorStatistics(lines: run.stdoutLines) == nil, "\(run.summary)")
    }
    #else
    @Test("assert, in a release build: the finding's line, and the app runs on", arguments: AssertSource.allCases)
    func assertLogsInRelease(_ source: AssertSource) async throws {
        let run = try await runAssert(source)
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(DetectLine.all(in: run.stderrLines).map(\.type) == ["LeakARouter"], "\(run.summary)")
    }
    #endif

    private func runAssert(_ source: AssertSource) async throws -> ProbeResult {
        switch source {
        case .bootstrap: try await Probe.run(["detect", "assert"])
        case .environment: try await Probe.run(["detect", "env"], environment: ["NAPKIN_DETECT": "assert"])
        }
    }

    @Test("NAPKIN_DETECT=bogus: one line naming the values; detection off; the app runs on, untraced (traced with NAPKIN_TRACE)",
          arguments: [false, true])
    func bogusEnvironment(withTrace: Bool) async throws {
        let scratch = try ScratchDirectory("detect-tests")
        defer { scratch.remove() }
        let path = scratch.file("bogus.ndjson")
        let run = try await Probe.run(["detect", "env"],
                                      environment: ["NAPKIN_DETECT": "bogus"].merging(withTrace ? ["NAPKIN_TRACE": path] : [:]) { $1 })
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(run.stderrLines.count == 1, "\(run.summary)")
        let line = try #require(run.stderrLines.first)
        #expect(line.hasPrefix("napkin: NAPKIN_DETECT=bogus: "), "\(line)")
        #expect(line.contains("use log, assert, quiet or off"), "\(line)")
        let out = run.stdoutLines
        #expect(out.contains("enabled false"), "\(out)")
        #expect(out.contains(withTrace ? "traced true" : "traced false"), "\(out)")
        #expect(PrintedDetectorStatistics(lines: out) == PrintedDetectorStatistics(findings: 0, reported: 0, repeats: 0, dropped: 0, handlerErrors: 0))
        if withTrace {
            #expect(try WireTrace(contentsOf: path).kinds.contains("detach"), "the trace holds the app")
        }
    }

    @Test("NAPKIN_DETECT=log without NAPKIN_TRACE: detection on (the tree traced for it alone), the leak's line")
    func environmentWithoutTrace() async throws {
        let run = try await Probe.run(["detect", "env"], environment: ["NAPKIN_DETECT": "log"])
        #expect(run.exitStatus == 0, "\(run.summary)")
        let lines = DetectLine.all(in: run.stderrLines)
        let paths = DetectPathLine.all(in: run.stderrLines)
        #expect(run.stderrLines.count == 1 + paths.count && paths.count <= 1 && lines.map(\.type) == ["LeakARouter"], "\(run.summary)")
        let out = run.stdoutLines
        #expect(out.contains("enabled true") && out.contains("traced true"), "\(out)")
        #expect(PrintedDetectorStatistics(lines: out) == PrintedDetectorStatistics(findings: 1, reported: 1, repeats: 0, dropped: 0, handlerErrors: 0))
    }
}

extension ProbeResult {
    /// Standard output's lines.
    var stdoutLines: [String] {
        String(decoding: stdout, as: UTF8.self).split(separator: "\n").map(String.init)
    }
}
