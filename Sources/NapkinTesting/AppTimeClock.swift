import NapkinTrace

/// The clock of a verdict's wait: time in the app's terms, ticking in the
/// background and waking the wait at each tick.
///
/// A pause counts only once the main actor and the global executor have
/// each run a job queued after it (what they had queued before, a
/// deactivation or a release, ran first). On a starved machine (a sanitizer,
/// a busy CI runner) the clock runs on while the app cannot, and a lag would
/// otherwise be reported as a leak; on an idle one both are the same. It
/// starts at the first ``start()``: a wait decided by an event (the usual
/// clean test) never starts it, and never waits for one of its ticks.
final class AppTimeClock: Sendable {
    private struct State {
        var progressed: Duration = .zero
        var ticks = 0
        var task: Task<Void, Never>?
        var stopped = false
    }

    private let state = Locked(State())
    /// The time between two ticks.
    let pause: Duration
    /// Woken at each tick.
    private let activity: ScopeActivity

    /// A clock that ticks every `pause` of the app's time and pokes `activity`.
    init(pause: Duration, waking activity: ScopeActivity) {
        self.pause = pause
        self.activity = activity
    }

    /// The app's time since ``start()``.
    var elapsed: Duration { state.withLock { $0.progressed } }

    /// The ticks so far (a clean test's wait has none).
    var ticks: Int { state.withLock { $0.ticks } }

    /// Starts ticking, if not started (or stopped) yet.
    func start() {
        state.withLock { s in
            guard s.task == nil, !s.stopped else { return }
            s.task = Task.detached { [self] in await run() }
        }
    }

    /// Stops ticking for good.
    func stop() {
        state.withLock { s in
            s.stopped = true
            return s.task.take()
        }?.cancel()
    }

    private func run() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: pause) } catch { return }
            await MainActor.run {}
            await Task.detached {}.value
            state.withLock { s in
                s.progressed += pause
                s.ticks += 1
            }
            activity.poke()
        }
    }
}
