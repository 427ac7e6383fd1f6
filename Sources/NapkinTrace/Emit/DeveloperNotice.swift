/// How the emitting side tells the developer that tracing went wrong (a bad
/// `NAPKIN_TRACE`, a sink that stopped taking data): one line on standard
/// error, never a crash, never an error thrown into the app.
///
/// Not to be confused with ``TraceDiagnostic``, a problem the reader found in
/// a trace's input.
package enum DeveloperNotice {
    /// How long ``report(_:)`` waits for standard error to take the line.
    static let patienceMS: Int32 = 250

    /// Writes `message` and a newline to standard error, ignoring failures.
    ///
    /// Standard error may itself be a pipe that nobody reads (it may even be
    /// the trace's destination that just stalled), so the line is written
    /// only when `poll` says there is room, waiting at most ``patienceMS``,
    /// and then dropped; a closed pipe fails the write with `EPIPE` instead
    /// of raising `SIGPIPE` (on Apple platforms standard error gets
    /// `F_SETNOSIGPIPE` first, see `Platform.preventSIGPIPE(on:)`). Each write is at most `PIPE_BUF` bytes, so a
    /// line that short reaches a shared pipe whole, between trace records.
    package static func report(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(10)
        let deadline = MonotonicClock.now() &+ UInt64(patienceMS) * 1_000_000
        Platform.preventSIGPIPE(on: 2)
        Platform.withBrokenPipeIgnored {
            bytes.withUnsafeBytes { raw in
                var offset = 0
                while offset < raw.count {
                    let now = MonotonicClock.now()
                    guard now < deadline else { return }
                    let left = Int32(clamping: (deadline &- now) / 1_000_000 + 1)
                    switch Platform.waitUntilWritable(2, timeoutMS: left) {
                    case .interrupted: continue
                    case .timedOut: return
                    case .ready, .failed: break
                    }
                    let chunk = min(raw.count - offset, Platform.atomicPipeWriteSize)
                    switch Platform.writeSome(2, from: raw.baseAddress! + offset, count: chunk) {
                    case .bytes(let n): offset += n
                    case .interrupted: continue
                    case .wouldBlock: Platform.sleep(microseconds: 1_000)
                    case .nothing, .failed: return
                    }
                }
            }
        }
    }
}
