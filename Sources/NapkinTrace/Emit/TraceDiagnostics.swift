#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// How the emitting side talks to the developer when something goes wrong:
/// one line on standard error, never a crash.
package enum TraceDiagnostics {
    /// Writes `message` and a newline to standard error, ignoring failures.
    package static func report(_ message: String) {
        var bytes = Array(message.utf8)
        bytes.append(10)
        bytes.withUnsafeBytes { raw in
            var offset = 0
            while offset < raw.count {
                let n = write(2, raw.baseAddress! + offset, raw.count - offset)
                if n > 0 { offset += n } else if n < 0 && errno == EINTR { continue } else { return }
            }
        }
    }

    /// Runs `body` with SIGPIPE blocked on the calling thread, and swallows a
    /// SIGPIPE that `body` raised, so that writing to a pipe whose reader went
    /// away fails with `EPIPE` instead of killing the process.
    package static func withBrokenPipeIgnored<R>(_ body: () -> R) -> R {
        var block = sigset_t()
        var previous = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        let result = body()
        var pending = sigset_t()
        sigemptyset(&pending)
        if sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) == 0 {
            var signal: Int32 = 0
            sigwait(&block, &signal)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }

    /// The text of the C library's message for `code`.
    package static func describe(errno code: Int32) -> String {
        String(cString: strerror(code))
    }
}
