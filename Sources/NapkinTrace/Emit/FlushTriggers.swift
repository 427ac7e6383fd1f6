import Dispatch
import Foundation
import Synchronization

/// Flushes a trace whenever one of a list of notifications is posted: how
/// an app's trace reaches its destination before the system ends the app
/// with `SIGKILL`, which runs no `atexit` handler.
///
/// iOS ends apps that way (Stop in Xcode, swiping the app away, reclaiming
/// memory while it is suspended), so the exit flush never runs there and
/// the last batch and the `end` record would be lost. The process-wide trace
/// is therefore also flushed when the app enters the background or is about
/// to terminate (``Platform/appLifecycleFlushNotifications``, installed when
/// tracing starts). A trace cut after that reads like a crash: every event up
/// to the flush, no `end` record.
///
/// The posting thread (the main thread, for UIKit and AppKit) only asks for
/// the flush: it runs on a serial queue of the triggers' own. Where the
/// app keeps running without the poster (UIKit: a background task; AppKit's
/// termination: the normal exit that follows drains the trace,
/// ``NormalExitFollows``), the poster does not wait at all: the main thread
/// never waits on lower-priority work (Xcode's thread performance checker
/// flags such waits). Without a ``FlushKeepAlive`` (tests, a caller's own
/// notifications) the poster waits for it at most ``patience``. A file or a local socket takes a batch
/// in milliseconds; a reader that stopped reading must not hold the main
/// thread, which UIKit gives five seconds in all (the app's own handlers
/// included) to finish entering the background. While a flush is still
/// waiting to start (an earlier one is held up by such a reader), a new
/// notification adds no other and returns at once: the waiting flush writes
/// everything emitted until it starts.
package final class FlushTriggers: Sendable {
    /// How long the posting thread waits for a flush unless told otherwise:
    /// a second, a fifth of what UIKit allows for entering the background.
    package static let defaultPatience: Duration = .seconds(1)

    /// The longest the posting thread waits for one flush.
    package let patience: Duration
    /// The center observed and the observers' tokens; `nil` once cancelled.
    private let registration: Locked<(center: NotificationCenter, tokens: [any NSObjectProtocol])?>

    /// Observes `names` on `center`; on each, `flush` runs on the triggers'
    /// queue while the poster waits at most `patience` for it.
    ///
    /// - Parameters:
    ///   - center: where the notifications are posted (`NotificationCenter.default` for the app's).
    ///   - names: the notifications to flush on; none observes nothing.
    ///   - patience: how long a poster waits for the flush it asked for.
    ///   - flush: writes what the trace holds (``Tracer/flush()``).
    ///   - keepAlive: keeps the app running while a flush the poster does not
    ///     wait for finishes; `nil`: the poster waits, at most `patience`.
    package init(center: NotificationCenter, names: [Notification.Name], patience: Duration = defaultPatience,
                 keepAlive: (any FlushKeepAlive)? = nil, flush: @escaping @Sendable () -> Void) {
        self.patience = patience
        let request = Request(patience: patience, keepAlive: keepAlive, flush: flush)
        let tokens = names.map { name in
            center.addObserver(forName: name, object: nil, queue: nil) { _ in request.flushAndWait() }
        }
        registration = Locked((center, tokens))
    }

    /// Triggers that flush the process-wide trace (``NapkinTrace/flush()``)
    /// when one of `names` is posted on `center`, and let the in-app
    /// detector report what it decided (``Detector/flushReports(timeoutMS:)``,
    /// within half the patience): an app sent to the background may be
    /// suspended or killed without an exit.
    package static func forProcessTrace(on center: NotificationCenter, names: [Notification.Name],
                                        patience: Duration = defaultPatience,
                                        keepAlive: (any FlushKeepAlive)? = nil) -> FlushTriggers {
        let (seconds, attoseconds) = patience.components
        let reportingMS = Int(seconds) * 500 + Int(attoseconds / 2_000_000_000_000_000)
        return FlushTriggers(center: center, names: names, patience: patience, keepAlive: keepAlive) {
            guard let tracer = TraceContext.globalTracer else { return }
            tracer.flush()
            tracer.detector?.flushReports(timeoutMS: reportingMS)
        }
    }

    /// Stops observing. A flush already asked for still runs.
    package func cancel() {
        guard let (center, tokens) = registration.withLock({ value in
            defer { value = nil }
            return value
        }) else { return }
        for token in tokens { center.removeObserver(token) }
    }

    deinit { cancel() }

    /// What an observer does: hand the flush to the queue, and wait for it a while.
    private final class Request: Sendable {
        let patience: DispatchTimeInterval
        let keepAlive: (any FlushKeepAlive)?
        let flush: @Sendable () -> Void
        let queue = DispatchQueue(label: "napkin-trace-flush", qos: .userInitiated)
        /// A flush is on the queue and has not started yet.
        let pending = Atomic<Bool>(false)

        init(patience: Duration, keepAlive: (any FlushKeepAlive)?, flush: @escaping @Sendable () -> Void) {
            self.keepAlive = keepAlive
            let (seconds, attoseconds) = patience.components
            // More than a century waits for ever; less than nothing does not wait.
            self.patience = seconds > 3_000_000_000 ? .never
                : .nanoseconds(Int(max(0, seconds * 1_000_000_000 + attoseconds / 1_000_000_000)))
            self.flush = flush
        }

        func flushAndWait() {
            guard !pending.exchange(true, ordering: .acquiringAndReleasing) else { return }
            if let keepAlive {
                // No wait: the app is kept running until the flush is done.
                let token = keepAlive.begin()
                queue.async { [self] in
                    pending.store(false, ordering: .releasing)
                    flush()
                    keepAlive.end(token)
                }
                return
            }
            let done = DispatchSemaphore(value: 0)
            queue.async { [self] in
                pending.store(false, ordering: .releasing)
                flush()
                done.signal()
            }
            _ = done.wait(timeout: .now() + patience)
        }
    }
}
