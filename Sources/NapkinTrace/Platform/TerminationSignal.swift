// The termination signal (SIGTERM) as an exit like any other: napkin's end
// of a run (the trace's last records, the detector's findings) happens
// before the process ends, the way the signal would have ended it. Only
// where the process left SIGTERM to its default action: an app with a
// handler of its own keeps it (and then calls exit(), which runs napkin's).
internal import NapkinLibc
import Dispatch

extension Platform {
    /// The signal source, kept for the rest of the process (set once).
    nonisolated(unsafe) private static var terminationSource: (any DispatchSourceSignal)?
    private static let terminationInstalled = Locked(false)

    /// Runs `handler` (on a queue of its own) when SIGTERM comes, then ends
    /// the process by SIGTERM as the default action does; only if SIGTERM
    /// had its default action (else nothing changes). Once per process.
    package static func onTermination(_ handler: @escaping @Sendable () -> Void) {
        terminationInstalled.withLock { installed in
            guard !installed else { return }
            installed = true
            // SIG_DFL is a null handler: anything else is the app's, left alone.
            let previous = signal(SIGTERM, SIG_IGN)
            guard previous == nil else {
                _ = signal(SIGTERM, previous)
                return
            }
            let source = DispatchSource.makeSignalSource(signal: SIGTERM, queue: DispatchQueue(label: "napkin-termination"))
            source.setEventHandler {
                handler()
                // Default action again, unblocked on this thread, raised here: the process ends by it.
                _ = signal(SIGTERM, SIG_DFL)
                var set = sigset_t()
                sigemptyset(&set)
                sigaddset(&set, SIGTERM)
                _ = pthread_sigmask(SIG_UNBLOCK, &set, nil)
                _ = raise(SIGTERM)
                // Not ended (it cannot happen with the default action): end as it would have.
                usleep(200_000)
                _exit(128 + SIGTERM)
            }
            source.resume()
            terminationSource = source
        }
    }
}
