/// Records a trace in memory, for tests.
///
/// Every router, interactor and mark created inside ``record(_:)`` (by the
/// calling task and the tasks it starts) reports to this recorder, for its
/// whole life, even after `record` returns; other tests running in parallel
/// are not mixed in.
///
/// Recording follows the tree: a router attached under a recorded router is
/// recorded from that attach on, with its subtree (see docs/lifecycle.md,
/// "7.2 Adoption: recording follows the tree"), so the flow under test can
/// run outside `record`:
///
/// ```swift
/// let recorder = TraceRecorder()
/// let root = await recorder.record { await makeLaunchedRoot() }
/// await root.logIn()      // LoggedIn, created and attached here, is recorded too
/// await root.logOut()
/// try await Task.sleep(for: .milliseconds(300))
/// let report = recorder.analyze(grace: .milliseconds(200))
/// #expect(report.isClean, "\(report)")
/// ```
///
/// An object reports to one trace for its whole life and is never moved
/// (docs/lifecycle.md, "7.3 Mixed traces").
public final class TraceRecorder: Sendable {
    let tracer: Tracer
    /// How many times ``findRetainers(in:)`` searched (see ``retainerSearchesRun``).
    let searchesRun = Locked(0)

    /// Creates an empty recording (its session record only).
    public init(app: String = "test") {
        tracer = Tracer(sink: nil, app: app)
    }

    /// Runs `body` with tracing into this recorder for objects created inside
    /// it (and, from then on, for what gets attached under them).
    nonisolated(nonsending) public func record<Result>(_ body: () async throws -> Result) async rethrows -> Result {
        TraceContext.beginRecording()
        defer { TraceContext.endRecording() }
        return try await TraceContext.$recording.withValue(tracer) {
            try await body()
        }
    }

    /// Runs synchronous `body` with tracing into this recorder for objects
    /// created inside it (and, from then on, for what gets attached under them).
    public func record<Result>(_ body: () throws -> Result) rethrows -> Result {
        TraceContext.beginRecording()
        defer { TraceContext.endRecording() }
        return try TraceContext.$recording.withValue(tracer) {
            try body()
        }
    }

    /// Every event recorded so far, in sequence order, starting with the session record.
    public var events: [TraceEvent] {
        tracer.snapshot()
    }

    /// ``events`` with the creation lines not worked out yet left deferred:
    /// what the analysis reads (`TraceState` keeps them unread, and a
    /// finding works out the lines it names), so that a verdict with no
    /// finding costs no symbolication (docs/benchmarks.md, "The leak
    /// check's cost").
    package var eventsAsRecorded: [TraceEvent] {
        tracer.snapshot(resolvingLocations: false)
    }

    /// How many times ``findRetainers(in:)`` went searching (a report with a
    /// finding that asks for a search): for tests, which check that a clean
    /// test's verdict runs none (docs/testing.md).
    package var retainerSearchesRun: Int {
        searchesRun.withLock { $0 }
    }

    /// The recording as NDJSON text (trace format v1), one event per line.
    public var ndjson: String {
        var bytes: [UInt8] = []
        for event in events { TraceEncoder.append(event, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends a session-end record; later events are ignored.
    public func finish() {
        tracer.shutdown(reason: "finished")
    }
}
