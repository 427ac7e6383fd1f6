import Foundation
import NapkinTrace
import Testing
import TestSupport

/// Every recorded trace (the fixtures of `Tests/Fixtures/traces`, the
/// examples of `Examples/traces`) replayed through the in-app ``Detector``
/// as the tracer's writer feeds it (batches, each with the app's time), then
/// the end of the session: it reports the same fingerprints as
/// ``TraceAnalyzer`` (what `check` runs, default options) finds on the file.
@Suite("Detect: recorded traces replayed through the detector")
struct DetectReplayTests {
    /// The recorded traces, relative to the package's root.
    static let traces: [String] = {
        var paths: [String] = []
        for directory in [Fixtures.relativeDirectory, "Examples/traces"] {
            paths += ((try? PackagePaths.files(in: directory, endingIn: ".ndjson")) ?? []).map { "\(directory)/\($0)" }
        }
        return paths
    }()

    @Test("the traces are there")
    func tracesFound() {
        #expect(Self.traces.count > 40, "\(Self.traces)")
        #expect(Self.traces.contains("Examples/traces/bug-retain-cycle.ndjson"))
    }

    @Test("batches of 100 with the batch's time, then the end: the fingerprints check finds", arguments: traces)
    func sameFingerprintsAsCheck(_ path: String) async throws {
        let events = try Self.events(path)
        let expected = Set(TraceAnalyzer.analyze(events).findings.map(\.fingerprint))
        let replay = await Self.replay(events, batchSize: 100)
        #expect(replay.fingerprints == expected, "\(path): detector \(replay.fingerprints.sorted()) vs check \(expected.sorted())")
        // Each fingerprint reported once, nothing dropped (a handful of findings).
        #expect(replay.reported.count == replay.fingerprints.count, "\(path): \(replay.reported)")
        #expect(replay.statistics.dropped == 0, "\(path): \(replay.statistics)")
        #expect(replay.statistics.reported + replay.statistics.repeats == replay.statistics.findings, "\(path): \(replay.statistics)")
    }

    @Test("batches of one event, the detector's probe let run between them: still the fingerprints check finds", arguments: traces)
    func probeLetRun(_ path: String) async throws {
        let events = try Self.events(path)
        let expected = Set(TraceAnalyzer.analyze(events).findings.map(\.fingerprint))
        let replay = await Self.replay(events, batchSize: 1, between: Self.letProbeRun)
        #expect(replay.fingerprints == expected, "\(path): detector \(replay.reported) vs check \(TraceAnalyzer.analyze(events).findings)")
    }

    /// A main actor silent for more than a grace period after a detach while
    /// other threads write (the main thread blocked, as TraceProbe `loaded`
    /// records it), the router's deinit its first act after 3 s. `check` gives
    /// it the benefit of the doubt (blocked or idle, the trace cannot tell):
    /// clean. The detector asks the app instead (``AppProgressProbe``): in the
    /// app, its probe job waits behind the blocked main actor, so it decides
    /// only after the deinit, like check. Replayed, the probe runs in the
    /// replaying process, whose main actor is free: it answers at once, and
    /// the check is decided before the deinit, a leak that check does not
    /// report. A replay holding its probe back (on the main actor, without
    /// suspending) agrees with check.
    @Test("a replay is not the app: a recorded main actor silent past the grace period is taken as idle when the probe runs in the replaying process")
    func silentMainActorReplayed() async throws {
        var b = TraceBuilder.homeTree()
        b.detach(4, from: 2)
        let detach = b.events[b.events.count - 2].time
        for k in 1...150 { b.add(.mark(text: "heartbeat"), at: detach + UInt64(k) * 20_000_000) }
        b.add(.deallocated(id: 4), at: detach + 3 * .second + 1)
        b.add(.deallocated(id: 3), at: detach + 3 * .second + 10)
        b.add(.sessionEnd(reason: "exit"), at: detach + 5 * .second)
        let events = b.events
        #expect(TraceAnalyzer.analyze(events).isClean)

        let heldBack = await Self.replayHoldingTheProbeBack(events)
        #expect(heldBack.fingerprints.isEmpty, "\(heldBack.reported)")

        let letRun = await Self.replay(events, batchSize: 1, between: Self.letProbeRun)
        #expect(letRun.reported.map { "\($0.rule) \($0.subjectName)" } == ["not-deallocated HomeRouter#4"], "\(letRun.reported)")
    }

    // MARK: - Replaying
    // MARK: - Replaying

    /// What a replay reported.
    struct Replay: Sendable {
        /// The handler's findings, in order.
        var reported: [Finding]
        var statistics: NapkinDetector.Statistics
        var fingerprints: Set<String> { Set(reported.map(\.fingerprint)) }
    }

    /// The events of the trace at `path` (relative to the package's root).
    static func events(_ path: String) throws -> [TraceEvent] {
        let (result, _) = try readAll(path: PackagePaths.url(path).path)
        return result.events
    }

    /// A quiet detector whose handler collects what it reports.
    final class ReplayDetector: Sendable {
        let detector: Detector
        private let reported: Locked<[Finding]>

        init() {
            let reported = Locked<[Finding]>([])
            detector = Detector(settings: DetectorSettings(mode: .quiet) { finding in
                reported.withLock { $0.append(finding) }
            })
            self.reported = reported
        }

        /// Ends the session and waits (at most ``hangBound``: the drain's time
        /// limit is no verdict) until every finding was reported or counted.
        func finish() async -> Replay {
            detector.sessionEnded(timeoutMS: 2000)
            let settled = await waitUntil {
                let s = detector.statistics
                return s.reported + s.repeats + s.dropped == s.findings
            }
            #expect(settled, "the reporting thread did not catch up: \(detector.statistics)")
            return Replay(reported: reported.withLock { $0 }, statistics: detector.statistics)
        }
    }

    /// Feeds `events` to a quiet detector in batches of `batchSize`, each with
    /// its last event's time as the app's time, runs `between` after each
    /// batch, then ends the session.
    static func replay(_ events: [TraceEvent], batchSize: Int,
                       between: (@Sendable () async -> Void)? = nil) async -> Replay {
        let replay = ReplayDetector()
        var start = 0
        while start < events.count {
            let batch = Array(events[start..<min(start + batchSize, events.count)])
            replay.detector.consume(batch, now: batch.last!.time)
            start += batchSize
            if let between { await between() }
        }
        return await replay.finish()
    }

    /// Lets the jobs of a probe round the last batch started run: the main
    /// actor's and the global executor's (FIFO), then a moment more.
    @Sendable static func letProbeRun() async {
        await MainActor.run {}
        await Task.detached(priority: .utility) {}.value
        try? await Task.sleep(for: .milliseconds(1))
    }

    /// ``replay(_:batchSize:between:)`` with batches of one event, fed on
    /// the main actor without suspending: no probe job runs until the session
    /// ended, as in an app whose main actor is blocked.
    @MainActor static func replayHoldingTheProbeBack(_ events: [TraceEvent]) async -> Replay {
        let replay = ReplayDetector()
        for event in events { replay.detector.consume([event], now: event.time) }
        return await replay.finish()
    }
}
