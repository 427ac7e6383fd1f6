import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// A clean flow stays clean on a loaded machine. A real traced process
/// (TraceProbe `loaded`) keeps both cores busy, detaches a screen and blocks
/// its main thread for 3 s right after the detach, before releasing it,
/// while a heartbeat napkin's tasks keep other threads writing to the trace.
/// The screen's deinit and the end of its cancelled task (which needs the
/// main actor) come seconds after the detach, later than the default grace
/// period (1 s): the analysis must not take them for leaks. The verdict
/// depends on what the app did, not on how late its main actor ran.
///
/// It runs in a child process so that blocking a main thread and spinning
/// the cores never starves the test runner's own suites.
@Suite("A clean flow on a loaded machine")
struct LoadedMachineTests {
    @Test("both cores busy, the main thread blocked 3 s after a detach, other threads writing meanwhile: no finding with the default grace",
          .timeLimit(.minutes(2)))
    func blockedMainActorAfterDetach() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let path = directory + "/loaded.ndjson"
        let run = try await Probe.run(["loaded", "3"], environment: ["NAPKIN_TRACE": path], timeout: .seconds(90))
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(run.stderrLines == ["done"], "\(run.summary)")

        let (result, reader) = try readAll(path: path)
        let events = result.events
        #expect(reader.integrity.isUsable, "\(reader.integrity.problems)")

        // The trace really holds what a clock-only analysis would take for leaks:
        // events from other threads more than a grace period after the detach,
        // before the screen's deinit.
        let screen = try #require(events.lazy.compactMap { event -> NodeID? in
            if case .routerCreated(let id, "ScreenRouter", _, _) = event.kind { id } else { nil }
        }.first)
        let detach = try #require(events.first { Self.isDetach($0, of: screen) })
        let deinitEvent = try #require(events.first { $0.kind == .deallocated(id: screen) })
        let second: UInt64 = 1_000_000_000
        #expect(deinitEvent.time > detach.time + 2 * second, "the deinit came \(deinitEvent.time - detach.time) ns after the detach")
        let meanwhile = events.filter { $0.time > detach.time + second && $0.time < deinitEvent.time }
        #expect(meanwhile.count >= 10, "only \(meanwhile.count) events from other threads during the block")

        let report = TraceAnalyzer.analyze(events, options: .init(grace: second))
        #expect(report.isClean, "\(report)")
        #expect(report.undecided == 0, "\(report)")
    }

    private static func isDetach(_ event: TraceEvent, of child: NodeID) -> Bool {
        if case .detach(_, child) = event.kind { true } else { false }
    }
}
