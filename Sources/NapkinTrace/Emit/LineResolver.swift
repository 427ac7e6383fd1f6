import Dispatch
import Foundation

/// Works out creation lines (``DeferredCodeLocation``) for the tracer's
/// writer on a thread of its own, so that the writer can stop waiting for
/// one: while the app runs it waits for every line (a record leaves the
/// process with its line); once the app stopped (its `main` returned,
/// `exit()` was called, a signal came) it waits for none, and writes the
/// records without the lines not worked out yet. A first symbolication can
/// take seconds in a large debug binary, many more on a busy machine; an
/// exit must not wait for it (docs/trace-format.md, "Delivery").
///
/// One thread for the process, started at the first line that is not
/// known yet, and one line worked out at a time (the symbolication is
/// serial anyway). A line already worked out is read without a hop.
package final class LineResolver: Sendable {
    /// The process's resolver.
    package static let shared = LineResolver()

    private let queue = Locked<[Request]>([])
    private let wake = DispatchSemaphore(value: 0)
    private let started = Locked(false)

    private final class Request: Sendable {
        let location: DeferredCodeLocation
        let done = DispatchSemaphore(value: 0)
        init(_ location: DeferredCodeLocation) { self.location = location }
    }

    /// How often a waiting writer asks whether to give up (ms).
    static let pollMS = 20

    /// `location` worked out, waiting for it while `giveUp` says no; nil
    /// when there is no line, or when the wait was given up (the line is
    /// still worked out in the background, for later records).
    package func resolve(_ location: CodeLocation, giveUp: () -> Bool) -> CodeLocation? {
        guard let deferred = location.deferred else { return location }
        if let known = deferred.known { return known }
        if giveUp() { return nil }
        let request = Request(deferred)
        startIfNeeded()
        queue.withLock { $0.append(request) }
        wake.signal()
        while request.done.wait(timeout: .now() + .milliseconds(Self.pollMS)) == .timedOut {
            if giveUp() { return deferred.known ?? nil }
        }
        return deferred.known ?? nil
    }

    private func startIfNeeded() {
        let first = started.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let thread = Thread { [self] in self.run() }
        thread.name = "napkin-trace-lines"
        thread.qualityOfService = .utility
        thread.start()
    }

    private func run() {
        while true {
            wake.wait()
            while let request = queue.withLock({ $0.isEmpty ? nil : $0.removeFirst() }) {
                _ = request.location.resolve()
                request.done.signal()
            }
        }
    }
}
