/// What one recording scope (one test) has going on, for a waiter that must
/// know the moment it changes: a wake-up generation that each of the
/// scope's events moves, and a tally of the scope's own objects and tasks
/// (made, and still alive or running).
///
/// A ``TraceRecorder``'s tracer moves its scope's generation on every event
/// it records; under a process trace (`napkin-inspect check -- swift test`)
/// ``ScopeTallies`` counts, for each scope, what was created inside it. A
/// waiter reads ``generation``, looks at the state, and if it must wait,
/// suspends in ``changed(since:)`` until the next event (or the next tick of
/// its own clock, ``poke()``): it never wakes for another scope's events.
package final class ScopeActivity: Sendable {
    private struct State {
        var generation: UInt64 = 0
        /// The scope's own events so far (ticks of a waiter's clock not included).
        var events: UInt64 = 0
        var made = 0
        var pending = 0
        var waiter: CheckedContinuation<Void, Never>?
    }

    private let state = Locked(State())

    /// A scope with nothing made yet.
    package init() {}

    /// The wake-up generation: moves on every event of the scope and on every ``poke()``.
    package var generation: UInt64 { state.withLock { $0.generation } }

    /// The number of the scope's own events so far.
    package var events: UInt64 { state.withLock { $0.events } }

    /// Routers, interactors and tasks the scope made.
    package var made: Int { state.withLock { $0.made } }

    /// Of ``made``, the objects still alive and the tasks still running.
    package var pending: Int { state.withLock { $0.pending } }

    /// Wakes the waiter without an event of the scope (its clock ticked).
    package func poke() {
        state.withLock { s in
            s.generation &+= 1
            return s.waiter.take()
        }?.resume()
    }

    /// Notes an event of the scope: `delta` is +1 when it made something
    /// (an object, a task), -1 when something it made went (a deinit, a
    /// task's end), 0 otherwise.
    package func note(_ delta: Int) {
        state.withLock { s in
            s.generation &+= 1
            s.events &+= 1
            if delta > 0 { s.made += delta }
            s.pending += delta
            return s.waiter.take()
        }?.resume()
    }

    /// Returns once ``generation`` is no longer `generation` (at once if it
    /// moved already), or the task is cancelled. One waiter at a time.
    package func changed(since generation: UInt64) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { s -> CheckedContinuation<Void, Never>? in
                    if s.generation != generation || Task.isCancelled { return continuation }
                    precondition(s.waiter == nil, "one waiter at a time")
                    s.waiter = continuation
                    return nil
                }
                now?.resume()
            }
        } onCancel: {
            state.withLock { $0.waiter.take() }?.resume()
        }
    }
}

extension TraceRecorder {
    /// The recording's scope: every event recorded moves its generation, and
    /// its tally counts what the recording made and what of it is still alive.
    package var activity: ScopeActivity {
        guard let activity = tracer.activity else { preconditionFailure("a recorder's tracer has no sink, so a scope") }
        return activity
    }
}
