import Foundation
import NapkinTrace

/// Hands events from the reader thread to the live view's loop.
///
/// Bounded: when the view falls behind, the reader thread waits (and, for a
/// pipe, so does the app's trace writer, which then drops and counts events
/// rather than block the app), so memory never grows with the trace's length.
///
/// `@unchecked Sendable`: every stored property is read and written only
/// with `condition` locked.
final class LiveEventQueue: @unchecked Sendable {
    /// How many events may wait for the view.
    static let capacity = 65_536

    private let condition = NSCondition()
    private var events: [TraceEvent] = []
    private var diagnostics: [TraceDiagnostic] = []
    private var finished = false
    private var rejection: TraceReadError?
    private var integrity: TraceIntegrity?
    private var cancelled = false

    /// Queues one item of the reader; waits while the queue is full (unless cancelled).
    func push(_ item: TraceReader.Item) {
        condition.lock()
        defer { condition.unlock() }
        switch item {
        case .event(let event):
            while events.count >= Self.capacity && !cancelled { condition.wait() }
            if !cancelled { events.append(event) }
        case .diagnostic(let diagnostic):
            if diagnostics.count < 1000 { diagnostics.append(diagnostic) }
        }
    }

    /// Marks the end of the input (with the reason, when it is not a trace,
    /// and what the reader found about the trace itself).
    func finish(rejection: TraceReadError?, integrity: TraceIntegrity?) {
        condition.lock()
        finished = true
        self.rejection = rejection
        self.integrity = integrity
        condition.unlock()
    }

    /// What the reader found about the trace itself, once the whole input was read.
    var finalIntegrity: TraceIntegrity? {
        condition.lock()
        defer { condition.unlock() }
        return integrity
    }

    /// Stops waiting for room (the view is closing); later events are dropped.
    func cancel() {
        condition.lock()
        cancelled = true
        condition.broadcast()
        condition.unlock()
    }

    /// Takes everything queued so far.
    func drain(into taken: inout [TraceEvent]) -> (diagnostics: [TraceDiagnostic], finished: Bool, rejection: TraceReadError?) {
        condition.lock()
        defer { condition.unlock() }
        swap(&taken, &events)
        let pending = diagnostics
        diagnostics.removeAll()
        condition.broadcast()
        return (pending, finished, rejection)
    }

    /// Reads `reader` to its end on a new thread.
    func startReading(_ reader: TraceReader) {
        // The reader is used by this thread only; `stop()` is the one call made from elsewhere.
        let box = ReaderBox(reader)
        let thread = Thread { [self] in
            while let item = box.reader.next() {
                // After a rejection (not a trace) only the rejection is reported.
                if case .diagnostic = item, box.reader.rejection != nil { continue }
                push(item)
            }
            finish(rejection: box.reader.rejection, integrity: box.reader.integrity)
        }
        thread.name = "napkin-inspect-reader"
        thread.start()
    }
}

/// Lets the reader cross to its thread. `@unchecked Sendable`: after the hand-off
/// only the reading thread calls `next()`; other threads call only `stop()`,
/// which is an atomic store.
final class ReaderBox: @unchecked Sendable {
    /// The reader handed over.
    let reader: TraceReader
    /// Boxes `reader` for the hand-off.
    init(_ reader: TraceReader) { self.reader = reader }
}
