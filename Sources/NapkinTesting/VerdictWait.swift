import NapkinTrace

/// How long ``NapkinLeakCheck`` waits after a test before its verdict.
///
/// Deallocation and cancellation take a moment (a released router's deinit
/// deactivates its interactors in a main-actor task, a task notices its
/// cancellation at its next suspension point), and the analysis reports
/// something only once it is older than the grace period. So the trait
/// analyses the test's recording when the test returns and again each time
/// the recording moves (an event of the test's own objects: a release, a
/// deinit, a task's end) or the wait's clock ticks (``AppTimeClock``, every
/// ``pollInterval`` of the app's time), and stops:
///
/// - at once when the analysis is clean with nothing pending (no finding, no
///   check waiting for its deadline): everything the test let go is gone,
///   the usual case for a passing test, decided by the event that settled
///   the last pending check, never by a tick;
/// - once ``grace`` has passed since the test ended, if no check is pending
///   any more: every check the test's events asked for is then decided;
/// - at the latest once the longer of ``grace`` and ``viewGrace`` has passed
///   (a view check waits for the view grace period).
///
/// A finding may disappear while waiting (with `expectTeardown`, something
/// still alive when the test returned that deallocates a moment later), so a
/// test with findings waits the whole grace period before failing. Another
/// test's events never wake this wait: each recording has its own
/// ``NapkinTrace/ScopeActivity``.
struct VerdictWait: Sendable {
    /// What comes after an analysis.
    enum Step: Sendable, Equatable {
        /// The report is the verdict.
        case verdict
        /// Analyse again at the next wake-up (an event of the test, a tick).
        case poll
    }

    /// The trait's grace period.
    var grace: Duration
    /// The trait's view grace period.
    var viewGrace: Duration
    /// The time between two ticks of the wait's clock (on the clean path,
    /// never waited for).
    var pollInterval: Duration = .milliseconds(10)

    /// What to do after `report`, an analysis made `waited` after the test ended.
    func step(after report: AnalysisReport, waited: Duration) -> Step {
        if report.isClean && report.undecided == 0 { return .verdict }
        if waited >= grace && report.undecided == 0 { return .verdict }
        if waited >= max(grace, viewGrace) { return .verdict }
        return .poll
    }

    /// Analyses until ``step(after:waited:)`` gives the verdict, woken by
    /// `activity` (the recording's events) and by `clock`'s ticks (made on
    /// `activity` by default); throws if the task is cancelled meanwhile.
    /// The time waited is the app's (``AppTimeClock``).
    nonisolated(nonsending) func settle(activity: ScopeActivity = ScopeActivity(), clock: AppTimeClock? = nil,
                _ analyze: () -> AnalysisReport) async throws -> AnalysisReport {
        let clock = clock ?? AppTimeClock(pause: pollInterval, waking: activity)
        defer { clock.stop() }
        return try await settle(elapsed: { clock.elapsed }, generation: { activity.generation }, next: { generation in
            clock.start()
            await activity.changed(since: generation)
            try Task.checkCancellation()
        }, analyze)
    }

    /// Under `napkin-inspect check -- swift test`: waits until what the test
    /// let go has had its chance to go, so that its deallocations are in the
    /// trace before the next test (or the process's exit) and `check` does
    /// not mistake a lagging deinit for something alive at the end. The
    /// trait decides nothing here, so it cannot analyse: it waits on the
    /// test's own tally (`scope`, see ``NapkinTrace/ScopeTallies``) until
    /// every object the test made is gone and every task it started ended
    /// (woken by the event that settles the last), or, for a test that keeps
    /// something alive, until its own events did not move during two ticks
    /// of the clock in a row, or ``grace`` has passed. Other tests' events,
    /// in a parallel run, neither wake nor delay it.
    nonisolated(nonsending) func quiet(scope: ScopeActivity, clock: AppTimeClock? = nil) async throws {
        let clock = clock ?? AppTimeClock(pause: pollInterval, waking: scope)
        defer { clock.stop() }
        try await quiet(pending: { scope.pending }, events: { scope.events }, elapsed: { clock.elapsed },
                        generation: { scope.generation }, next: { generation in
            clock.start()
            await scope.changed(since: generation)
            try Task.checkCancellation()
        })
    }

    /// ``quiet(scope:clock:)`` on the process trace's `sequence` alone, each
    /// wake-up a `sleep` of ``pollInterval`` (for tests).
    nonisolated(nonsending) func quiet(sequence: () -> UInt64, elapsed: () -> Duration, sleep: (Duration) async throws -> Void) async throws {
        try await quiet(pending: { 1 }, events: sequence, elapsed: elapsed, generation: { 0 },
                        next: { _ in try await sleep(pollInterval) })
    }

    /// ``quiet(scope:clock:)`` with its parts injected: `pending` counts the
    /// test's objects alive and tasks running, `events` its events so far,
    /// `elapsed` tells the time since the test ended, `generation` and
    /// `next` wait for the next wake-up after the generation read.
    nonisolated(nonsending) func quiet(pending: () -> Int, events: () -> UInt64, elapsed: () -> Duration,
               generation: () -> UInt64, next: (UInt64) async throws -> Void) async throws {
        var lastEvents = events()
        var lastTick = elapsed()
        var stillTicks = 0
        while true {
            let mark = generation()
            if pending() <= 0 { return }
            let now = elapsed()
            if now >= grace { return }
            if now != lastTick {
                let seen = events()
                stillTicks = seen == lastEvents ? stillTicks + 1 : 0
                lastEvents = seen
                lastTick = now
                if stillTicks >= 2 { return }
            }
            try await next(mark)
        }
    }

    /// Analyses until ``step(after:waited:)`` gives the verdict: `elapsed`
    /// tells the time since the test ended, `sleep` waits (both injectable
    /// for tests); each wake-up is one `sleep` of ``pollInterval``.
    nonisolated(nonsending) func settle(elapsed: () -> Duration, sleep: (Duration) async throws -> Void,
                _ analyze: () -> AnalysisReport) async throws -> AnalysisReport {
        try await settle(elapsed: elapsed, generation: { 0 }, next: { _ in try await sleep(pollInterval) }, analyze)
    }

    /// Analyses until ``step(after:waited:)`` gives the verdict: `elapsed`
    /// tells the time since the test ended; `generation` is read before each
    /// analysis and `next` returns once something happened after it (an
    /// event, a tick). The time is read before each analysis, so an analysis
    /// is never credited with more waiting than it had, and the generation
    /// too, so an event during an analysis is never missed.
    nonisolated(nonsending) func settle(elapsed: () -> Duration, generation: () -> UInt64, next: (UInt64) async throws -> Void,
                _ analyze: () -> AnalysisReport) async throws -> AnalysisReport {
        while true {
            let mark = generation()
            let waited = elapsed()
            let report = analyze()
            if step(after: report, waited: waited) == .verdict { return report }
            try await next(mark)
        }
    }
}
