/// A code location worked out later, off the thread that made it: the
/// creation line of a router or interactor, whose symbolication reads the
/// binary's symbol and line tables from disk (100 ms and more the first
/// time; seconds in a large debug binary). The creating thread (the main
/// actor, for a router) keeps only what the answer needs (the call stack's
/// return addresses) and a closure to compute it. Who asks for it:
/// - the tracer's writer thread, when it takes the event from the queue,
///   before the sink or the detector sees it, and `TraceRecorder.events`
///   before it returns them: what leaves the process, or reaches the app's
///   code, has its line (the detector alone too: a finding at exit has
///   500 ms to be reported, no time to work a first line out);
/// - nobody, until a finding names it, where only the analysis reads a
///   recording's events: a test's verdict
///   (`TraceRecorder.eventsAsRecorded`). `CodeLocationTable` keeps such a
///   location unread; a verdict with no finding works out no line at all.
///
/// Copies share one answer: the first to ask computes it, under a lock
/// (another asking meanwhile waits for it), and every later ask reads it.
package struct DeferredCodeLocation: Sendable {
    private enum State {
        case pending(@Sendable () -> CodeLocation?)
        case resolved(CodeLocation?)
    }

    private let state: Locked<State>
    /// The answer once computed, readable while another thread computes
    /// (``known``): `.some(nil)` is "no location".
    private let answer = Locked<CodeLocation??>(nil)

    /// A location `compute` will give when first asked (nil: no location).
    package init(_ compute: @escaping @Sendable () -> CodeLocation?) {
        state = Locked(.pending(compute))
    }

    /// The same for every copy: what a model keys a location it has not
    /// worked out yet by (see `CodeLocationTable`).
    package var id: ObjectIdentifier { ObjectIdentifier(state.storage) }

    /// Whether the location was computed already (``resolve()`` called);
    /// asking does not compute it. For tests: a clean verdict works out no
    /// creation line (docs/testing.md).
    package var isResolved: Bool {
        state.withLock { state in
            switch state {
            case .pending: false
            case .resolved: true
            }
        }
    }

    /// The location, computed on the first call; nil when there is none.
    package func resolve() -> CodeLocation? {
        state.withLock { state in
            switch state {
            case .resolved(let location):
                return location
            case .pending(let compute):
                // A deferred answer is never itself deferred.
                let location = compute().flatMap { $0.isDeferred ? $0.resolvedNow() : $0 }
                state = .resolved(location)
                answer.withLock { $0 = .some(location) }
                return location
            }
        }
    }

    /// The answer if it is already computed, without waiting for a
    /// computation under way (`.some(nil)`: there is no location; nil: not
    /// worked out yet). What a process that is exiting reads instead of
    /// ``resolve()`` (see `LineResolver`).
    package var known: CodeLocation?? {
        answer.withLock { $0 }
    }
}
