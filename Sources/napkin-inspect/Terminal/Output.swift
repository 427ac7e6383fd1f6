/// Writes text straight to standard output or error (no buffering, so that
/// output and errors interleave in the order they are written).
enum Output {
    /// Writes `text` to `fd` (standard output by default).
    static func write(_ text: String, to fd: Int32 = 1) {
        var text = text
        text.withUTF8 { Platform.writeAll(UnsafeRawBufferPointer($0), to: fd) }
    }

    /// Prints `text` and a newline on standard output.
    static func line(_ text: String = "") { write(text + "\n") }

    /// One line on standard error, prefixed with the program name.
    static func error(_ text: String) { write("napkin-inspect: \(text)\n", to: 2) }
}
