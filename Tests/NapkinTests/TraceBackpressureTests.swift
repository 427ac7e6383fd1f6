import Foundation
import NapkinTrace
import Synchronization
import Testing
import TestSupport

/// With tracing on, the calling actor never waits for I/O: while the sink is
/// stuck, `emit` keeps returning; past the queue's capacity events are dropped
/// and counted, and a `dropped` record (count, first and last missing
/// sequence number) is written with the next batch once the sink moves again.
@Suite("Trace on: a stuck sink never blocks the app")
struct TraceBackpressureTests {
    /// A sink whose writes wait until the test opens its gate.
    final class GateSink: TraceSink {
        private struct State {
            var writesStarted = 0
            var batches: [[TraceEvent]] = []
            var isOpen = false
            var openedByWatchdog = false
            var closed = false
        }
        private let state = Locked(State())

        func write(_ events: [TraceEvent]) throws {
            state.withLock { $0.writesStarted += 1 }
            while !state.withLock({ $0.isOpen }) { usleep(1000) }
            state.withLock { $0.batches.append(events) }
        }

        func close() { state.withLock { $0.closed = true } }

        func open(byWatchdog: Bool = false) {
            state.withLock { s in
                if byWatchdog && !s.isOpen { s.openedByWatchdog = true }
                s.isOpen = true
            }
        }

        var writesStarted: Int { state.withLock { $0.writesStarted } }
        var openedByWatchdog: Bool { state.withLock { $0.openedByWatchdog } }
        var closed: Bool { state.withLock { $0.closed } }
        var events: [TraceEvent] { state.withLock { $0.batches.flatMap { $0 } } }
    }

    @Test("emit returns while the writer is stuck; overflow is dropped, counted and reported")
    @MainActor
    func stuckSink() async throws {
        let sink = GateSink()
        let tracer = Tracer(sink: sink, capacity: 16)
        // Within a flush interval the writer takes the session record and gets stuck in the sink.
        try #require(await waitUntil { sink.writesStarted == 1 })
        // Should emit ever block, the watchdog frees it and the test fails instead of hanging.
        let watchdog = Task.detached {
            try? await Task.sleep(for: .seconds(30))
            sink.open(byWatchdog: true)
        }

        for i in 0..<100 { tracer.emit(.mark(text: "m\(i)")) }

        #expect(!sink.openedByWatchdog, "emit waited for the stuck sink")
        // The queue holds its capacity (16: seq 2...17); seq 18...101 were dropped.
        #expect(tracer.snapshot().map(\.seq) == Array(2...17))
        #expect(tracer.droppedCount == 84)

        sink.open()
        try #require(await waitUntil { sink.events.contains { if case .dropped = $0.kind { true } else { false } } })
        tracer.emit(.mark(text: "after"))
        tracer.shutdown(reason: "test")
        watchdog.cancel()

        let events = sink.events
        #expect(events.map(\.seq) == Array(1...17) + [102, 103, 104])
        #expect(events.first(where: { $0.seq == 102 })?.kind == .dropped(count: 84, firstSeq: 18, lastSeq: 101))
        let marks = events.compactMap { if case .mark(let text) = $0.kind { text } else { nil } }
        #expect(marks == (0..<16).map { "m\($0)" } + ["after"])
        #expect(events.last?.kind == .sessionEnd(reason: "test"))
        #expect(tracer.droppedCount == 84)
        #expect(sink.closed)
    }

    @Test("a pipe nobody reads: the app goes on, and the trace accounts for every dropped event")
    @MainActor
    func stalledPipeReader() async throws {
        var fds: [Int32] = [-1, -1]
        try #require(pipe(&fds) == 0)
        let (readEnd, writeEnd) = (fds[0], fds[1])
        let tracer = Tracer(sink: NDJSONTraceSink(fileDescriptor: writeEnd), capacity: 1024)
        let total = 100_000

        // Nobody reads: the pipe's buffer fills, the writer blocks in write(2),
        // the queue fills. Every emit still returns.
        for i in 0..<total { tracer.emit(.mark(text: "event \(i)")) }
        let dropped = tracer.droppedCount
        #expect(dropped > 0)

        // Now the reader comes: the writer moves again and writes the dropped record.
        // The read and the shutdown block: each on a thread of its own, off the cooperative pool.
        async let received = onOwnThread("pipe-reader") { () -> [UInt8] in
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while true {
                let n = read(readEnd, &buffer, buffer.count)
                if n <= 0 { break }
                bytes.append(contentsOf: buffer[0..<n])
            }
            return bytes
        }
        await onOwnThread("tracer-shutdown") { tracer.shutdown(reason: "test") }
        close(writeEnd)
        let trace = WireTrace(await received)
        close(readEnd)

        #expect(trace.badLines.isEmpty && trace.unterminatedTail == nil)
        // Every missing sequence number is covered by a dropped record, and no more.
        #expect(trace.sequenceProblem() == nil, "\(trace.sequenceProblem() ?? "")")
        let droppedRecords = trace.events.filter { $0.ev == "dropped" }
        #expect(!droppedRecords.isEmpty)
        #expect(droppedRecords.reduce(0) { $0 + ($1[number: "count"] ?? 0) } == Int64(dropped))
        // Each mark was either written or counted.
        #expect(trace.marks.count + Int(dropped) == total)
        #expect(trace.events.last?.ev == "end")
    }
}
