#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the views print their screen: one line per screen change,
/// e.g. `[screen] LoggedIn: welcome, Smokey Joe`.
///
/// Lines go to standard output, or to standard error when the trace itself
/// goes to standard output (`NAPKIN_TRACE=stdout`), so the two never mix.
/// Each line is written with a single `write(2)`, so lines from different
/// threads never interleave.
final class Console: Sendable {
    private let quiet: Bool
    private let fileDescriptor: Int32

    init(quiet: Bool, traceSetting: String?) {
        self.quiet = quiet
        let traceOnStdout = ["stdout", "-", "fd:1"].contains(traceSetting ?? "")
        self.fileDescriptor = traceOnStdout ? 2 : 1
    }

    /// Prints `[screen] <screen>: <text>` unless the console is quiet.
    func screen(_ screen: String, _ text: String) {
        guard !quiet else { return }
        Console.write("[screen] \(screen): \(text)\n", to: fileDescriptor)
    }

    /// Writes `text` to standard error (used for errors, never silenced).
    static func error(_ text: String) {
        write(text.hasSuffix("\n") ? text : text + "\n", to: 2)
    }

    private static func write(_ text: String, to fd: Int32) {
        var bytes = Array(text.utf8)
        var offset = 0
        bytes.withUnsafeMutableBytes { raw in
            while offset < raw.count {
                let n = systemWrite(fd, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }
}

@inline(__always) private func systemWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
    write(fd, buffer, count)
}
