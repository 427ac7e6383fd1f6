/// Writes text straight to standard output or error (no buffering, so that
/// output and errors interleave in the order they are written).
enum Output {
    /// The longest line ``error(_:)`` writes, in characters.
    static let maxErrorLength = 2_000

    /// Writes `text` to `fd` (standard output by default).
    static func write(_ text: String, to fd: Int32 = 1) {
        var text = text
        text.withUTF8 { _ = Platform.writeAll(UnsafeRawBufferPointer($0), to: fd) }
    }

    /// Prints `text` and a newline on standard output.
    static func line(_ text: String = "") { write(text + "\n") }

    /// One line on standard error, prefixed with the program name. The whole
    /// line is made printable (it may quote a path, an argument or a line of
    /// the trace) and cut to ``maxErrorLength`` characters, so it stays one line.
    static func error(_ text: String) {
        write("napkin-inspect: \(PrintableText.printable(text, limit: maxErrorLength))\n", to: 2)
    }
}
