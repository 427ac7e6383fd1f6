import Dispatch
import Foundation
import NapkinTrace
import Synchronization
import Testing

/// Creation lines must not make an exit slow (issue 41): while the app runs
/// the writer waits for a record's line (``LineResolver``); once the app
/// stopped, it writes the records without the lines not worked out yet.
@Suite("Trace: an exit does not wait for creation lines")
struct ExitLineWaitTests {
    /// Keeps what it is given.
    private final class KeptSink: TraceSink {
        let events = Mutex<[TraceEvent]>([])
        func write(_ batch: [TraceEvent]) throws { events.withLock { $0 += batch } }
        func close() {}
    }

    @Test("a line that never comes: the writer waits for it until the app stops, then the record goes out without it")
    func exitWritesWithoutTheLine() async throws {
        let sink = KeptSink()
        let tracer = Tracer(sink: sink, app: "lines", flushInterval: .seconds(3600), startWriter: false)
        let release = DispatchSemaphore(value: 0)
        let asked = DispatchSemaphore(value: 0)
        let never = CodeLocation(deferred: DeferredCodeLocation {
            asked.signal()
            release.wait()          // a symbolication that does not end while the test waits
            return CodeLocation(fileID: "App/Late.swift", line: 7)
        })
        tracer.emit(.mark(text: "made"), at: never)
        tracer.emit(.mark(text: "plain"), at: CodeLocation(fileID: "App/Known.swift", line: 3))
        // A flush while the app runs waits for the line (on its own thread).
        let flushed = DispatchSemaphore(value: 0)
        let flusher = Thread { tracer.flush(); flushed.signal() }
        flusher.start()
        asked.wait()
        #expect(sink.events.withLock { $0.isEmpty }, "a record went out before its line while the app runs")
        // The app stops: the waiting flush gives up on the line, and the exit completes
        // (a bound on a hang, not a timing: the line never comes while the test waits).
        let ended = DispatchSemaphore(value: 0)
        Thread { tracer.shutdown(reason: "exit"); ended.signal() }.start()
        let exited = ended.wait(timeout: .now() + .seconds(120)) == .success && flushed.wait(timeout: .now() + .seconds(120)) == .success
        let events = sink.events.withLock { $0 }
        release.signal()
        #expect(exited, "the exit waited for a creation line")
        #expect(events.map(\.kind.name) == [.session, .mark, .mark, .end])
        #expect(events[1].location == nil, "the line not worked out by the exit is left out")
        #expect(events[2].location == CodeLocation(fileID: "App/Known.swift", line: 3))
    }
}
