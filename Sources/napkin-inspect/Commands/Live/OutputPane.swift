import Foundation
import Synchronization

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
                let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
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

    /// Every line kept (the last 1,000).
    var all: [String] { lines.withLock { $0 } }
}
