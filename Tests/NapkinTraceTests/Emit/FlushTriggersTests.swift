import Dispatch
import Foundation
@testable import NapkinTrace
import Synchronization
import Testing
import TestSupport

/// ``FlushTriggers``: the app lifecycle's flush (an iOS app is ended with
/// SIGKILL, which runs no atexit handler), exercised on Linux through a
/// private notification center and names of the test's own.
@Suite("Flush triggers")
struct FlushTriggersTests {
    static let didEnterBackground = Notification.Name("napkin.test.didEnterBackground")
    static let willTerminate = Notification.Name("napkin.test.willTerminate")

    /// A tracer whose writer waits an hour between flushes: only a flush
    /// asked for writes anything to `path`.
    private func quietTracer(_ path: String) throws -> Tracer {
        Tracer(sink: try NDJSONTraceSink(path: path), app: "flush-triggers", flushInterval: .seconds(3600))
    }

    private func marks(in path: String) throws -> [String] {
        try readAll(path: path).0.events.compactMap { if case .mark(let text) = $0.kind { text } else { nil } }
    }

    @Test("a posted notification writes the buffered events to the destination before the poster goes on, with no end record")
    func postedNotificationFlushes() throws {
        let scratch = try ScratchDirectory("flush-trigger")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", "")
        let tracer = try quietTracer(file)
        defer { tracer.shutdown(reason: "finished") }
        for i in 0..<100 { tracer.emit(.mark(text: "before \(i)")) }
        #expect(try marks(in: file).isEmpty, "the writer flushed on its own; the test proves nothing")
        let center = NotificationCenter()
        // A patience no loaded machine outlasts: the flush must have run when `post` returns.
        let triggers = FlushTriggers(center: center, names: [Self.didEnterBackground, Self.willTerminate],
                                     patience: .seconds(120)) { tracer.flush() }
        defer { triggers.cancel() }
        center.post(name: Self.didEnterBackground, object: nil)
        let (result, _) = try readAll(path: file)
        #expect(result.events.first?.kind == .sessionStart(tracer.info))
        #expect(try marks(in: file) == (0..<100).map { "before \($0)" })
        #expect(!result.events.contains { if case .sessionEnd = $0.kind { true } else { false } })
        // The other name flushes too, and only what is new.
        tracer.emit(.mark(text: "after"))
        center.post(name: Self.willTerminate, object: nil)
        #expect(try marks(in: file) == (0..<100).map { "before \($0)" } + ["after"])
    }

    @Test("other notifications, and the same ones after cancel(), flush nothing")
    func onlyTheNamedNotifications() throws {
        let scratch = try ScratchDirectory("flush-trigger-other")
        defer { scratch.remove() }
        let file = try scratch.write("trace.ndjson", "")
        let tracer = try quietTracer(file)
        defer { tracer.shutdown(reason: "finished") }
        tracer.emit(.mark(text: "queued"))
        let center = NotificationCenter()
        let triggers = FlushTriggers(center: center, names: [Self.didEnterBackground], patience: .seconds(120)) { tracer.flush() }
        center.post(name: Self.willTerminate, object: nil)
        NotificationCenter.default.post(name: Self.didEnterBackground, object: nil)
        triggers.cancel()
        center.post(name: Self.didEnterBackground, object: nil)
        #expect(try marks(in: file).isEmpty)
    }

    @Test("a flush held up by its destination keeps the poster at most its patience; meanwhile at most one more waits")
    func boundedWait() async throws {
        let release = DispatchSemaphore(value: 0)
        let flushes = Atomic<Int>(0)
        let center = NotificationCenter()
        let triggers = FlushTriggers(center: center, names: [Self.didEnterBackground], patience: .milliseconds(20)) {
            flushes.add(1, ordering: .relaxed)
            release.wait()   // a reader that stopped reading
        }
        defer { triggers.cancel() }
        // The first flush starts and never finishes: the poster returns anyway.
        center.post(name: Self.didEnterBackground, object: nil)
        #expect(await waitUntil { flushes.load(ordering: .relaxed) == 1 })
        // The second waits behind it; the third and fourth add nothing.
        for _ in 0..<3 { center.post(name: Self.didEnterBackground, object: nil) }
        release.signal()
        #expect(await waitUntil { flushes.load(ordering: .relaxed) == 2 })
        release.signal()
        try await Task.sleep(for: .milliseconds(50))
        #expect(flushes.load(ordering: .relaxed) == 2)
    }

    #if !canImport(UIKit) && !canImport(AppKit)
    @Test("without UIKit or AppKit the platform names no notification to flush on")
    @MainActor func noLifecycleHere() {
        #expect(Platform.appLifecycleFlushNotifications.isEmpty)
    }
    #endif
}
