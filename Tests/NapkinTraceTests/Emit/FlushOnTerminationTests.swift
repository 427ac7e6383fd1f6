import Dispatch
import Foundation
@testable import NapkinTrace
import Synchronization
import Testing
import TestSupport

/// AppKit's termination (`willTerminateNotification`, added by the framework
/// through `ExitFlush.alsoFlush(on:)`) with ``NormalExitFollows``: the poster,
/// the main thread, does not wait for the flush it starts (the normal exit
/// that follows drains the trace), so no main-thread wait on a lower-priority
/// queue is left at termination. The poster runs on a thread of its own, so
/// that a poster that did wait would fail the test rather than hang it.
@Suite("Flush triggers: no main-thread wait at termination")
struct FlushOnTerminationTests {
    static let willTerminate = Notification.Name("napkin.test.termination.willTerminate")

    @Test("the poster returns while the flush is held up, and the flush still runs")
    func posterDoesNotWait() async throws {
        let release = DispatchSemaphore(value: 0)
        let flushed = Atomic<Bool>(false)
        let posted = Atomic<Bool>(false)
        let center = NotificationCenter()
        let triggers = FlushTriggers(center: center, names: [Self.willTerminate], patience: .seconds(3600),
                                     keepAlive: NormalExitFollows()) {
            release.wait()   // a destination that takes its time
            flushed.store(true, ordering: .releasing)
        }
        defer { triggers.cancel() }
        let poster = Thread {
            center.post(name: Self.willTerminate, object: nil)
            posted.store(true, ordering: .releasing)
        }
        poster.start()
        let returned = await waitUntil { posted.load(ordering: .acquiring) }
        let flushedBeforeReturn = flushed.load(ordering: .acquiring)
        release.signal()   // lets a poster that waited go too
        #expect(returned, "the poster waited for the flush")
        #expect(!flushedBeforeReturn, "the flush was not held up: the test proves nothing")
        #expect(await waitUntil { flushed.load(ordering: .acquiring) }, "the flush did not run")
    }

    @Test("the flush writes what was queued before the notification")
    func flushWrites() async throws {
        let scratch = try ScratchDirectory("flush-termination")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", "")
        let tracer = Tracer(sink: try NDJSONTraceSink(path: file), app: "termination", flushInterval: .seconds(3600))
        defer { tracer.shutdown(reason: "finished") }
        tracer.emit(.mark(text: "before quitting"))
        let center = NotificationCenter()
        let triggers = FlushTriggers(center: center, names: [Self.willTerminate], keepAlive: NormalExitFollows()) { tracer.flush() }
        defer { triggers.cancel() }
        center.post(name: Self.willTerminate, object: nil)
        #expect(await waitUntil { (try? String(contentsOfFile: file, encoding: .utf8))?.contains("before quitting") == true },
                "the mark was not flushed")
    }
}
