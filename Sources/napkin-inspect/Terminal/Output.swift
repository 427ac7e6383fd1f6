#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes text to stdout or stderr without buffering surprises.
enum Output {
    static func write(_ text: String, to fd: Int32 = 1) {
        var text = text
        text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                let n = Glibc_write(fd, buffer.baseAddress! + offset, buffer.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }

    /// Prints `text` and a newline on stdout.
    static func line(_ text: String = "") { write(text + "\n") }

    /// One line on stderr, prefixed with the program name.
    static func error(_ text: String) { write("napkin-inspect: \(text)\n", to: 2) }
}

@inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int {
    write(fd, p, n)
}
