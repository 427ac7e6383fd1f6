#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Ctrl-C (SIGINT) and SIGTERM: the script stops before its next step, the
/// app tears the tree down and exits 0, so even `--loop 0` ends with a
/// complete trace. A second signal ends the process at once.
enum Interruption {
    private static let received = Atomic<Int32>(0)

    /// Installs the handlers. Call once, before the script starts.
    static func install() {
        _ = received.load(ordering: .relaxed) // initialise before any handler can run
        for number in [SIGINT, SIGTERM] {
            _ = signal(number) { number in
                Interruption.received.store(number, ordering: .relaxed)
                _ = signal(number, SIG_DFL) // the next one is not handled
            }
        }
    }

    /// The signal received, if any.
    static var signalNumber: Int32? {
        let number = received.load(ordering: .relaxed)
        return number == 0 ? nil : number
    }
}
