import Foundation
@testable import NapkinTrace
import Testing
import TestSupport

/// `NAPKIN_TRACE=tcp:` and `unix:` in an idle app: connected, the writer
/// thread sleeps until the next event (after one look at the peer a moment
/// after the last write, the sink asks for no idle call); not
/// connected, it wakes only when a connection attempt is due
/// (``SocketTraceSink/idleCallDue``), so an inspector that starts later still
/// gets the trace without any new event. Wake-ups are counted
/// (`Tracer.writerWakeUps`), against the attempts the sink made; the waits
/// only bound the test.
@Suite("Socket trace sink: an idle app sleeps")
struct SocketSinkIdleTests {
    @Test("connected to an inspector and idle, the writer does not wake")
    func connectedSleeps() async throws {
        let listener = try TestListener.tcp()
        defer { listener.stop() }
        let sink = SocketTraceSink(address: listener.address)
        // A flush interval of 2 ms: a writer that woke every interval would wake 150 times below.
        let tracer = Tracer(sink: sink, app: "socket-idle", flushInterval: .milliseconds(2))
        defer { tracer.shutdown(reason: "test") }
        tracer.emit(.mark(text: "tap"))
        // One look at the peer a moment after the write, then nothing is due.
        #expect(await waitUntil { sink.status.isConnected && sink.idleCallDue == nil && tracer.writerIsAsleep },
                "not connected, or the writer did not sleep")
        let before = tracer.writerWakeUps
        try await Task.sleep(for: .milliseconds(300))
        #expect(tracer.writerWakeUps == before, "woke \(tracer.writerWakeUps - before) times while connected and idle")
        #expect(sink.status.isConnected)
        // An event still goes out at once.
        tracer.emit(.mark(text: "later"))
        #expect(await waitUntil { String(decoding: listener.bytes(of: 0), as: UTF8.self).contains("later") })
    }

    @Test("no inspector: the writer wakes once per attempt, and connects to one that comes later without a new event")
    func retriesAtTheBackoffsPace() async throws {
        let scratch = try ScratchDirectory(short: true)
        defer { scratch.remove() }
        let path = scratch.path + "/i.sock"
        let settings = SocketTraceSink.Settings(connectTimeoutMS: 1_000, firstBackoffMS: 5, maxBackoffMS: 20)
        let sink = SocketTraceSink(address: .unix(path: path), settings: settings)
        let tracer = Tracer(sink: sink, app: "socket-idle", flushInterval: .milliseconds(2))
        defer { tracer.shutdown(reason: "test") }
        tracer.emit(.mark(text: "before"))
        #expect(await waitUntil { sink.status.attempts >= 2 })
        #expect(sink.idleCallDue != nil, "not connected, yet no attempt is due")
        let (attempts, wakeUps) = (sink.status.attempts, tracer.writerWakeUps)
        #expect(await waitUntil { sink.status.attempts >= attempts + 10 }, "no retries while idle")
        let moreAttempts = sink.status.attempts - attempts
        let moreWakeUps = Int(tracer.writerWakeUps - wakeUps)
        // One wake-up per attempt (give or take the ones in progress), not one
        // per 2 ms interval, which would be several per 20 ms attempt.
        #expect(moreWakeUps <= moreAttempts + 2, "\(moreWakeUps) wake-ups for \(moreAttempts) attempts")
        let listener = try TestListener.unix(path)
        defer { listener.stop() }
        #expect(await waitUntil { sink.status.isConnected }, "did not connect to the inspector that came")
        #expect(await waitUntil { String(decoding: listener.bytes(of: 0), as: UTF8.self).contains("before") },
                "the events kept while no inspector listened were not sent")
        #expect(await waitUntil { sink.idleCallDue == nil && tracer.writerIsAsleep })
    }

    @Test("after a write, one look at the peer is due: an inspector that hung up after the batch is noticed without another event")
    func peerCheckAfterAWrite() async throws {
        let listener = try TestListener.tcp()
        defer { listener.stop() }
        let settings = SocketTraceSink.Settings(connectTimeoutMS: 1_000, firstBackoffMS: 5, maxBackoffMS: 20)
        let sink = SocketTraceSink(address: listener.address, settings: settings)
        defer { sink.close() }
        // Driven by hand, as the writer thread would, so that the hang-up comes after the batch.
        try sink.write([TraceEvent(seq: 1, time: 0, kind: .mark(text: "last"))])
        #expect(sink.status.isConnected)
        #expect(await waitUntil { String(decoding: listener.bytes(of: 0), as: UTF8.self).contains("last") })
        let due = try #require(sink.idleCallDue, "no look at the peer is due after the write")
        listener.hangUp(0)
        #expect(await waitUntil { listener.hasEnded(0) && MonotonicClock.now() >= due })
        sink.writerIsIdle()
        #expect(!sink.status.isConnected, "the inspector that hung up was not noticed")
        #expect(sink.idleCallDue != nil, "no reconnection is due")
        // The listener still listens: the idle calls reconnect, then, the look after that write made, nothing is due.
        #expect(await waitUntil {
            if let next = sink.idleCallDue, MonotonicClock.now() >= next { sink.writerIsIdle() }
            return sink.status.isConnected && sink.idleCallDue == nil
        }, "did not reconnect, or kept something due")
        #expect(sink.status.connections == 2)
    }

    @Test("exiting or closed, no idle call is due (the writer must not spin on a past attempt)")
    func nothingDueAtTheEnd() throws {
        let scratch = try ScratchDirectory(short: true)
        defer { scratch.remove() }
        let sink = SocketTraceSink(address: .unix(path: scratch.path + "/none.sock"))
        #expect(sink.idleCallDue == 0, "not connected yet: the first attempt is due at once")
        sink.processWillExit()
        #expect(sink.idleCallDue == nil)
        let closed = SocketTraceSink(address: .unix(path: scratch.path + "/none.sock"))
        closed.close()
        #expect(closed.idleCallDue == nil)
    }
}
