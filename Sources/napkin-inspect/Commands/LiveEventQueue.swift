import Foundation
import NapkinTrace
import Synchronization

/// Hands events from the reader thread to the live view's loop.
final class LiveEventQueue: Sendable {
    private struct State {
        var events: [TraceEvent] = []
        var diagnostics: [TraceDiagnostic] = []
        var finished = false
        var rejection: TraceReadError?
    }
    private let state = Mutex(State())

    func push(_ item: TraceReader.Item) {
        state.withLock { s in
            switch item {
            case .event(let event): s.events.append(event)
            case .diagnostic(let diagnostic):
                if s.diagnostics.count < 1000 { s.diagnostics.append(diagnostic) }
            }
        }
    }

    func finish(rejection: TraceReadError?) {
        state.withLock { s in
            s.finished = true
            s.rejection = rejection
        }
    }

    /// Takes everything queued so far.
    func drain(into events: inout [TraceEvent]) -> (diagnostics: [TraceDiagnostic], finished: Bool, rejection: TraceReadError?) {
        state.withLock { s in
            swap(&events, &s.events)
            let diagnostics = s.diagnostics
            s.diagnostics.removeAll()
            return (diagnostics, s.finished, s.rejection)
        }
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
            finish(rejection: box.reader.rejection)
        }
        thread.name = "napkin-inspect-reader"
        thread.start()
    }
}

/// Lets the reader cross to its thread. `@unchecked Sendable`: after the hand-off
/// only the reading thread calls `next()`; other threads call only `stop()`,
/// which is an atomic store.
final class ReaderBox: @unchecked Sendable {
    let reader: TraceReader
    init(_ reader: TraceReader) { self.reader = reader }
}

/// Collects a child's output (its stdout and stderr) for the live view's pane.
final class OutputPane: Sendable {
    private let lines = Mutex<[String]>([])
    private let limit = 1000

    /// Reads `fd` until it closes, on a new thread.
    func startReading(_ fd: Int32) {
        let thread = Thread { [self] in
            var pending: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, 4096) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                for byte in buffer[0..<n] {
                    if byte == 10 {
                        append(String(decoding: pending, as: UTF8.self))
                        pending.removeAll(keepingCapacity: true)
                    } else if byte != 13 {
                        pending.append(byte)
                    }
                }
            }
            if !pending.isEmpty { append(String(decoding: pending, as: UTF8.self)) }
            close(fd)
        }
        thread.name = "napkin-inspect-output"
        thread.start()
    }

    private func append(_ line: String) {
        lines.withLock { l in
            l.append(line)
            if l.count > limit { l.removeFirst(l.count - limit) }
        }
    }

    var all: [String] { lines.withLock { $0 } }
}
