import Foundation
import Napkin
import NapkinTrace
import Testing
import TestSupport

/// The tracer's writer thread sleeps while the app is idle: it waits for an
/// event instead of waking every flush interval, also with the detector on,
/// once no check waits for the app's time. Counted through the tracer's
/// wake-up counter (`Tracer.writerWakeUps`), the seam the idle benchmark reads.
@Suite("The writer thread sleeps while nothing happens")
struct WriterSleepTests {
    /// A sink that counts the events written to it.
    final class CountingSink: TraceSink {
        private let count = Locked(0)
        var written: Int { count.withLock { $0 } }
        func write(_ events: [TraceEvent]) throws { count.withLock { $0 += events.count } }
        func close() {}
    }

    /// Expects `tracer`'s writer to stay asleep, without a wake-up, for `idle`.
    static func expectsNoWakeUp(_ tracer: Tracer, for idle: Duration = .milliseconds(300)) async throws {
        let before = tracer.writerWakeUps
        try await Task.sleep(for: idle)
        #expect(tracer.writerWakeUps == before, "woke \(tracer.writerWakeUps - before) times in \(idle) with nothing to do")
        #expect(tracer.writerIsAsleep)
    }

    @Test("idle, the writer sleeps; an event wakes it, it writes the event, and it sleeps again")
    func sleepsUntilAnEvent() async throws {
        let sink = CountingSink()
        let tracer = Tracer(sink: sink, app: "writer-sleep")
        defer { tracer.shutdown(reason: "test") }
        #expect(await waitUntil { sink.written == 1 && tracer.writerIsAsleep }, "the session record was not written, or the writer did not sleep")
        try await Self.expectsNoWakeUp(tracer)
        tracer.emit(.mark(text: "tap"))
        #expect(await waitUntil { sink.written == 2 }, "the event that woke the writer was not written")
        #expect(await waitUntil { tracer.writerIsAsleep })
        try await Self.expectsNoWakeUp(tracer)
    }

    @Test("with the detector on, the writer wakes while a check waits for the app's time, and sleeps once it is decided")
    @MainActor
    func detectorChecksThenSleeps() async throws {
        let received = DetectorInProcessTests.Received()
        let tracer = DetectorInProcessTests.detectingTracer(received, grace: .milliseconds(200))
        defer { tracer.shutdown(reason: "test") }
        var kept: [TestRouter] = []
        await DetectorInProcessTests.traced(tracer) {
            let root = TestRootRouter()
            await root.launch()
            let leaked = TestRouter("screen")
            await root.attachChild(leaked)
            await root.detachChild(leaked)
            kept.append(leaked)
        }
        // No event decides the leak: only the writer's waking does.
        #expect(await waitUntil { received.all.contains { $0.rule.rawValue == "not-deallocated" } }, "the leak was not reported")
        // The retainer search's answer is the last thing written (the
        // handler's second call, with the path): the writer sleeps after it.
        // (Under the thread sanitizer a forked reader can hang in the
        // sanitizer's runtime, docs/detect.md: the answer may be late or none.)
        let answered = await waitUntil(timeout: runsUnderThreadSanitizer ? .seconds(10) : hangBound) { !received.explained.isEmpty }
        #expect(answered || runsUnderThreadSanitizer, "the retainer search gave no answer")
        #expect(await waitUntil { tracer.writerIsAsleep }, "the writer kept waking after every check was decided")
        try await Self.expectsNoWakeUp(tracer)
        _ = kept
    }

    @Test("a shutdown wakes a sleeping writer, which ends")
    func shutdownWakes() async throws {
        let sink = CountingSink()
        let tracer = Tracer(sink: sink, app: "writer-sleep")
        #expect(await waitUntil { tracer.writerIsAsleep })
        let before = tracer.writerWakeUps
        tracer.shutdown(reason: "test")
        #expect(await waitUntil { tracer.writerWakeUps > before }, "the sleeping writer was not woken by the end")
        #expect(sink.written == 2, "the session record and the end")
    }
}
