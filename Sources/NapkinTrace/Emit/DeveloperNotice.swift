/// How the emitting side tells the developer that tracing went wrong (a bad
/// `NAPKIN_TRACE`, a sink that stopped taking data): one line on standard
/// error, never a crash, never an error thrown into the app.
///
/// Not to be confused with ``TraceDiagnostic``, a problem the reader found in
/// a trace's input.
package enum DeveloperNotice {
    /// Writes `message` and a newline to standard error, ignoring failures.
    package static func report(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(10)
        _ = bytes.withUnsafeBytes { Platform.writeAll(2, $0) }
    }
}
