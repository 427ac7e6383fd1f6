import Foundation
import Testing
import TestSupport

/// What reaches the trace file when a traced process ends: everything and the
/// `end` record on a normal exit (without the app calling anything), and
/// everything older than the flush interval after a crash.
@Suite("Trace: process exit and crash")
struct TraceExitTests {
    /// Many more marks than the writer can drain in one flush interval, so a
    /// good part of them is still queued when the process exits.
    private let marks = 30_000

    private func expectComplete(_ trace: WireTrace, marks count: Int, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(trace.badLines.isEmpty, sourceLocation: sourceLocation)
        #expect(trace.unterminatedTail == nil, sourceLocation: sourceLocation)
        #expect(trace.sequenceProblem() == nil, "\(trace.sequenceProblem() ?? "")", sourceLocation: sourceLocation)
        #expect(!trace.kinds.contains("dropped"), sourceLocation: sourceLocation)
        #expect(trace.events.first?.ev == "session", sourceLocation: sourceLocation)
        #expect(trace.events.first?[string: "app"] == "TraceProbe", sourceLocation: sourceLocation)
        let end = trace.events.last
        #expect(end?.ev == "end", sourceLocation: sourceLocation)
        #expect(end?[string: "reason"] == "exit", sourceLocation: sourceLocation)
        #expect(trace.kinds.filter { $0 == "end" }.count == 1, sourceLocation: sourceLocation)
        let marks = difference(trace.marks, ["home shown", "profile closed"] + (0..<count).map { "m \($0 + 1)" })
        #expect(marks == nil, sourceLocation: sourceLocation)
        // The app's tree is in there too: launched root, home with feed, profile came and went.
        #expect(trace.kinds.filter { $0 == "launch" }.count == 1, sourceLocation: sourceLocation)
        #expect(trace.kinds.filter { $0 == "attach" }.count == 3, sourceLocation: sourceLocation)
        #expect(trace.kinds.filter { $0 == "detach" }.count == 1, sourceLocation: sourceLocation)
    }

    @Test("returning from main writes every queued event and the end record")
    func returnFromMain() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/exit.ndjson"
        let run = try await Probe.run(["exit", "\(marks)"], environment: ["NAPKIN_TRACE": path])
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(run.stderr.isEmpty, "\(run.summary)")
        expectComplete(try WireTrace(contentsOf: path), marks: marks)
    }

    @Test("exit() from the middle of the app writes every queued event and the end record")
    func exitCall() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/exit-call.ndjson"
        let run = try await Probe.run(["exit-call", "\(marks)"], environment: ["NAPKIN_TRACE": path])
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(run.stderr.isEmpty, "\(run.summary)")
        let trace = try WireTrace(contentsOf: path)
        expectComplete(trace, marks: marks)
        // exit() came while the home napkin was active: its task started and never ended.
        let announcements = try #require(trace.events.first { $0[string: "label"] == "announcements" })
        #expect(!trace.events.contains { $0.ev == "task_end" && $0.id("task") == announcements.id("task") })
        #expect(!trace.events.contains { $0.ev == "deactivate" && $0.id("id") == announcements.id("owner") })
    }

    @Test("a crash keeps every event older than the flush interval; the file parses line by line")
    func crash() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/crash.ndjson"
        let early = 2_000
        let run = try await Probe.run(["crash", "\(early)"], environment: ["NAPKIN_TRACE": path])
        #expect(run.signal != nil, "the probe was meant to trap\n\(run.summary)")
        #expect(run.exitStatus == nil)
        let trace = try WireTrace(contentsOf: path)
        // Every complete line is a valid event; only a last line may be cut short.
        #expect(trace.badLines.isEmpty)
        #expect(trace.sequenceProblem() == nil, "\(trace.sequenceProblem() ?? "")")
        #expect(trace.events.first?.ev == "session")
        // The probe slept for a second (twenty flush intervals) after these.
        let marks = trace.marks.filter { $0 != "late" }
        #expect(difference(marks, ["home shown", "profile closed"] + (0..<early).map { "early \($0 + 1)" }) == nil)
        #expect(trace.kinds.contains("launch") && trace.kinds.contains("deinit"))
        // No clean shutdown happened.
        #expect(!trace.kinds.contains("end"))
    }

    @Test("bootstrap(_:) with a file sink writes the trace there, and takes precedence over NAPKIN_TRACE")
    func bootstrap() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/bootstrap.ndjson"
        let run = try await Probe.run(["bootstrap", path], environment: ["NAPKIN_TRACE": "stdout"])
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(run.stdout.isEmpty, "NAPKIN_TRACE was used although the app bootstrapped a sink")
        let trace = try WireTrace(contentsOf: path)
        #expect(trace.badLines.isEmpty && trace.unterminatedTail == nil)
        #expect(trace.sequenceProblem() == nil)
        #expect(trace.kinds.first == "session")
        #expect(trace.marks == ["home shown", "profile closed", "bootstrapped"])
        #expect(trace.events.last?.ev == "end")
        #expect(trace.events.last?[string: "reason"] == "exit")
    }
}
