import Dispatch
import Foundation
@testable import NapkinTrace
import Synchronization
import Testing
import TestSupport

/// ``FlushTriggers`` with a ``FlushKeepAlive`` (UIKit's background task): the
/// poster, the main thread in an app, does not wait for the flush at all, so
/// it never waits on lower-priority work; the app is kept running from the
/// notification until the flush is done. Exercised with a recording keep-alive.
@Suite("Flush triggers: no wait where the app can be kept running")
struct FlushKeepAliveTests {
    static let didEnterBackground = Notification.Name("napkin.test.keepAlive.didEnterBackground")

    /// Records begins and ends.
    final class RecordingKeepAlive: FlushKeepAlive {
        let calls = Locked<[String]>([])
        func begin() -> Int {
            calls.withLock { $0.append("begin"); return $0.count }
        }
        func end(_ token: Int) {
            calls.withLock { $0.append("end \(token)") }
        }
    }

    @Test("the poster returns while the flush is held up; the app is kept running until it is done")
    func posterDoesNotWait() async throws {
        let release = DispatchSemaphore(value: 0)
        let flushed = Atomic<Bool>(false)
        let keepAlive = RecordingKeepAlive()
        let center = NotificationCenter()
        // A patience no loaded machine outlasts: returning early proves the poster did not wait.
        let triggers = FlushTriggers(center: center, names: [Self.didEnterBackground], patience: .seconds(3600),
                                     keepAlive: keepAlive) {
            release.wait()   // a destination that takes its time
            flushed.store(true, ordering: .releasing)
        }
        defer { triggers.cancel() }
        center.post(name: Self.didEnterBackground, object: nil)
        let flushedBeforeReturn = flushed.load(ordering: .acquiring)
        #expect(!flushedBeforeReturn, "the poster waited for the flush")
        #expect(keepAlive.calls.withLock { $0 } == ["begin"], "kept running from the notification on")
        release.signal()
        #expect(await waitUntil { keepAlive.calls.withLock { $0 } == ["begin", "end 1"] }, "the keep-alive was not ended after the flush")
        let flushedAtEnd = flushed.load(ordering: .acquiring)
        #expect(flushedAtEnd)
    }

    @Test("the flush still writes what was queued before the notification")
    func flushWrites() async throws {
        let scratch = try ScratchDirectory("flush-keep-alive")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", "")
        let tracer = Tracer(sink: try NDJSONTraceSink(path: file), app: "keep-alive", flushInterval: .seconds(3600))
        defer { tracer.shutdown(reason: "finished") }
        tracer.emit(.mark(text: "before"))
        let keepAlive = RecordingKeepAlive()
        let center = NotificationCenter()
        let triggers = FlushTriggers(center: center, names: [Self.didEnterBackground], keepAlive: keepAlive) { tracer.flush() }
        defer { triggers.cancel() }
        center.post(name: Self.didEnterBackground, object: nil)
        #expect(await waitUntil { keepAlive.calls.withLock { $0 }.count == 2 })
        let marks = try readAll(path: file).0.events.compactMap { if case .mark(let text) = $0.kind { text } else { nil } }
        #expect(marks == ["before"])
    }
}
