/// One recording analysed again and again while it grows (the leak check's
/// wait after a test): each event is consumed once, and each ``report()``
/// decides, on a copy, what is decided as of now, as
/// ``TraceRecorder/analyze(grace:expectTeardown:viewGrace:maxAlive:)``
/// would on the whole recording at that moment. An analysis after each
/// event of a test's teardown then costs what its new events cost, not the
/// whole recording again.
package struct RecordingAnalysis: Sendable {
    private let recorder: TraceRecorder
    private var analyzer: TraceAnalyzer
    private var consumed = 0

    /// An analysis of `recorder` with these settings (those of ``TraceRecorder/analyze(grace:expectTeardown:viewGrace:maxAlive:)``).
    package init(_ recorder: TraceRecorder, grace: Duration, expectTeardown: Bool, viewGrace: Duration,
                 maxAlive: [String: Int]) {
        self.recorder = recorder
        analyzer = TraceAnalyzer(options: .init(grace: Self.nanoseconds(grace), expectTeardown: expectTeardown,
                                                viewGrace: Self.nanoseconds(viewGrace), maxAlive: maxAlive))
    }

    /// The report as of now: the events recorded since the last call are
    /// consumed, then checks whose grace period has passed are decided.
    package mutating func report() -> AnalysisReport {
        let events = recorder.eventsAsRecorded
        for event in events[min(consumed, events.count)...] { analyzer.consume(event) }
        consumed = events.count
        var now = analyzer
        now.advance(to: MonotonicClock.now() &- recorder.tracer.origin)
        now.finish()
        return now.report
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
    }
}
