import NapkinTrace
import Synchronization
import Testing

/// The end of a run is not the app's time (issue 41): once the app stopped
/// (``Tracer/stop()``, at exit or a signal), every record carries the moment
/// it stopped, so what the exit takes never counts toward a grace period;
/// `check` then leaves the checks the exit cut short undecided.
@Suite("Trace: the time after the app stopped")
struct StoppedRunTimeTests {
    /// Keeps what it is given.
    private final class KeptSink: TraceSink {
        let events = Mutex<[TraceEvent]>([])
        func write(_ batch: [TraceEvent]) throws { events.withLock { $0 += batch } }
        func close() {}
    }

    @Test("records emitted after stop() and the end record carry the stop's time; a second stop() keeps the first")
    func stampedAtStop() {
        let sink = KeptSink()
        let tracer = Tracer(sink: sink, app: "stopped", flushInterval: .seconds(3600), startWriter: false)
        tracer.emit(.mark(text: "before"))
        let stop = tracer.stop()
        #expect(tracer.isStopping)
        // However long the exit takes from here, nothing is later than `stop`.
        tracer.emit(.mark(text: "while exiting"))
        #expect(tracer.stop() == stop)
        tracer.shutdown(reason: "exit")
        let events = sink.events.withLock { $0 }
        #expect(events.map(\.kind.name) == [.session, .mark, .mark, .end])
        #expect(events[1].time <= stop)
        #expect(events[2].time == stop)
        #expect(events[3].time == stop)
        // Time never goes backwards in the trace.
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })
    }

    @Test("a check due after the stop is undecided, not a finding, and named by rule and subject")
    func undecidedAtStop() {
        var b = TraceBuilder.homeTree()
        b.detach(4, from: 2)
        // The app stopped 0.4 s later; the exit's records carry that time, however late written.
        b.add(.sessionEnd(reason: "exit"), at: b.time + 400_000_000)
        var analyzer = TraceAnalyzer()
        for event in b.events { analyzer.consume(event) }
        analyzer.finish()
        #expect(analyzer.findings.isEmpty, "\(analyzer.findings)")
        #expect(analyzer.undecided == 1)
        #expect(analyzer.undecidedChecks == ["not-deallocated HomeRouter#4"])
    }
}
