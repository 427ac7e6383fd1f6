import Foundation
import NapkinTrace

/// Collects a child's output (its stdout and stderr) for the live view's pane.
///
/// Bounded whatever the child writes: the last ``maxLines`` lines are kept,
/// and a line longer than ``maxLineBytes`` (output without newlines) is cut
/// into lines of that size as it arrives, so memory never grows with it.
/// The lines are behind a pthread mutex (NapkinTrace's `Locked`), which
/// ThreadSanitizer understands (`Synchronization.Mutex` on Linux it does not).
final class OutputPane: Sendable {
    /// Lines kept.
    static let maxLines = 1_000
    /// The longest line kept, in bytes; a longer one is cut.
    static let maxLineBytes = 4_096

    private let lines = Locked<[String]>([])

    /// Reads `fd` until it closes, on a new thread.
    func startReading(_ fd: Int32) {
        let thread = Thread { [self] in
            var collector = LineCollector()
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                collector.take(buffer[0..<n]) { append($0) }
            }
            collector.finish { append($0) }
            close(fd)
        }
        thread.name = "napkin-inspect-output"
        thread.start()
    }

    private func append(_ line: String) {
        lines.withLock { l in
            l.append(line)
            if l.count > Self.maxLines { l.removeFirst(l.count - Self.maxLines) }
        }
    }

    /// Every line kept (the last 1,000).
    var all: [String] { lines.withLock { $0 } }

    /// The last `count` lines.
    func last(_ count: Int) -> [String] { lines.withLock { Array($0.suffix(count)) } }
}

/// Cuts bytes into lines: at each newline (a carriage return is dropped), and
/// every ``OutputPane/maxLineBytes`` bytes of a line that goes on. Lines are
/// decoded as UTF-8 (invalid bytes become U+FFFD); they are not yet printable.
struct LineCollector {
    private var pending: [UInt8] = []

    /// Takes `bytes`, calling `emit` with each line they complete.
    mutating func take(_ bytes: ArraySlice<UInt8>, emit: (String) -> Void) {
        for byte in bytes {
            if byte == 10 {
                emit(String(decoding: pending, as: UTF8.self))
                pending.removeAll(keepingCapacity: true)
            } else if byte != 13 {
                pending.append(byte)
                if pending.count >= OutputPane.maxLineBytes {
                    emit(String(decoding: pending, as: UTF8.self))
                    pending.removeAll(keepingCapacity: true)
                }
            }
        }
    }

    /// Ends the input: the last line, if it has no newline.
    mutating func finish(emit: (String) -> Void) {
        if !pending.isEmpty { emit(String(decoding: pending, as: UTF8.self)) }
        pending.removeAll()
    }
}
