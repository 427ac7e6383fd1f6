import Synchronization

/// Signals the live view reacts to, set from C signal handlers.
enum LiveSignals {
    /// Set by SIGINT, SIGTERM and SIGHUP (and the quit key).
    static let quit = Atomic<Bool>(false)
    /// Set by SIGWINCH: the terminal changed size.
    static let resized = Atomic<Bool>(false)

    /// Installs the handlers (SIGINT, SIGTERM, SIGHUP quit; SIGWINCH redraws).
    static func install() {
        // Touch the atomics first: their lazy initialisation must not run in a handler.
        _ = quit.load(ordering: .relaxed)
        _ = resized.load(ordering: .relaxed)
        signal(SIGINT) { _ in LiveSignals.quit.store(true, ordering: .relaxed) }
        signal(SIGTERM) { _ in LiveSignals.quit.store(true, ordering: .relaxed) }
        signal(SIGHUP) { _ in LiveSignals.quit.store(true, ordering: .relaxed) }
        signal(SIGWINCH) { _ in LiveSignals.resized.store(true, ordering: .relaxed) }
    }
}
