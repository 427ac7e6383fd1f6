import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// The in-app detector on a loaded machine: TraceProbe `loaded` (both cores
/// busy, a screen detached and the main thread blocked 3 s right after, before
/// the screen's release; a heartbeat napkin's tasks writing meanwhile, see
/// ``LoadedMachineTests``) with `NAPKIN_DETECT=log`. The detector's checks fall
/// due during the block; only the app's progress (its probe jobs on the main
/// actor, queued behind the release it owed) decides them, so the blocked main
/// actor must not be taken for a leak. With a trace file and without one (the
/// detector then has the events to itself).
@Suite("Detect: a clean flow on a loaded machine", .serialized)
struct DetectLoadedMachineTests {
    @Test("NAPKIN_DETECT=log, both cores busy, the main thread blocked 3 s after a detach: no finding line, exit 0",
          arguments: [false, true])
    func blockedMainActorAfterDetach(withTrace: Bool) async throws {
        let scratch = try ScratchDirectory("detect-tests")
        defer { scratch.remove() }
        let path = scratch.file("loaded.ndjson")
        var environment = ["NAPKIN_DETECT": "log"]
        if withTrace { environment["NAPKIN_TRACE"] = path }
        let run = try await Probe.run(["loaded", "3"], environment: environment)
        #expect(run.exitStatus == 0, "\(run.summary)")
        #expect(run.stderrLines == ["done"], "no napkin detect line: \(run.summary)")
        // Detection was on, and found nothing.
        let statistics = try #require(PrintedDetectorStatistics(lines: run.stdoutLines), "detection was off: \(run.summary)")
        #expect(statistics == PrintedDetectorStatistics(findings: 0, reported: 0, repeats: 0, dropped: 0, handlerErrors: 0))

        guard withTrace else { return }
        // The run was the hard case: the screen's deinit came more than two grace
        // periods after its detach (the detector saw its check fall due before it).
        let (result, _) = try readAll(path: path)
        let events = result.events
        let screen = try #require(events.lazy.compactMap { event -> NodeID? in
            if case .routerCreated(let id, "ScreenRouter", _, _) = event.kind { id } else { nil }
        }.first)
        let detach = try #require(events.first { if case .detach(_, screen) = $0.kind { true } else { false } })
        let deinitEvent = try #require(events.first { $0.kind == .deallocated(id: screen) })
        #expect(deinitEvent.time > detach.time + 2_000_000_000, "the deinit came \(deinitEvent.time - detach.time) ns after the detach")
    }
}
