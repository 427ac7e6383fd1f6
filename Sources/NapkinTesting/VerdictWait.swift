import NapkinTrace

/// How long ``NapkinLeakCheck`` waits after a test before its verdict.
///
/// Deallocation and cancellation take a moment (a released router's deinit
/// deactivates its interactors in a main-actor task, a task notices its
/// cancellation at its next suspension point), and the analysis reports
/// something only once it is older than the grace period. So the trait
/// analyses the recording again and again, ``pollInterval`` apart, and stops:
///
/// - at once when the analysis is clean with nothing pending (no finding, no
///   check waiting for its deadline): everything the test let go is gone,
///   the usual case for a passing test;
/// - once ``grace`` has passed since the test ended, if no check is pending
///   any more: every check the test's events asked for is then decided;
/// - at the latest once the longer of ``grace`` and ``viewGrace`` has passed
///   (a view check waits for the view grace period).
///
/// A finding may disappear while waiting (with `expectTeardown`, something
/// still alive when the test returned that deallocates a moment later), so a
/// test with findings waits the whole grace period before failing.
struct VerdictWait: Sendable {
    /// What comes after an analysis.
    enum Step: Sendable, Equatable {
        /// The report is the verdict.
        case verdict
        /// Analyse again after ``VerdictWait/pollInterval``.
        case poll
    }

    /// The trait's grace period.
    var grace: Duration
    /// The trait's view grace period.
    var viewGrace: Duration
    /// The time between two analyses.
    var pollInterval: Duration = .milliseconds(10)

    /// What to do after `report`, an analysis made `waited` after the test ended.
    func step(after report: AnalysisReport, waited: Duration) -> Step {
        if report.isClean && report.undecided == 0 { return .verdict }
        if waited >= grace && report.undecided == 0 { return .verdict }
        if waited >= max(grace, viewGrace) { return .verdict }
        return .poll
    }

    /// Analyses until ``step(after:waited:)`` gives the verdict; throws if
    /// the task is cancelled meanwhile.
    ///
    /// The time waited is the app's, not the clock's: a pause counts only
    /// once the main actor and the global executor have each run a job
    /// queued after it (what they had queued before, a deactivation or a
    /// release, ran first). On a starved machine (a sanitizer, a busy CI
    /// runner) the clock runs on while the app cannot, and a lag would
    /// otherwise be reported as a leak; on an idle one both are the same.
    func settle(_ analyze: () -> AnalysisReport) async throws -> AnalysisReport {
        var progressed: Duration = .zero
        return try await settle(elapsed: { progressed }, sleep: { pause in
            try await Task.sleep(for: pause)
            await MainActor.run {}
            await Task.detached {}.value
            progressed += pause
        }, analyze)
    }

    /// Under `napkin-inspect check -- swift test`: waits until what the test
    /// let go has had its chance to go, so that its deallocations are in the
    /// trace before the next test (or the process's exit) and `check` does
    /// not mistake a lagging deinit for something alive at the end. The
    /// trait decides nothing here, so it cannot analyse: it waits, in the
    /// app's time as ``settle(_:)`` does, until the trace is quiet (its
    /// sequence number, read by `sequence`, did not move during two pauses
    /// in a row) or ``grace`` has passed. One test at a time it is quiet at
    /// once; in a parallel run, where other tests keep the trace busy, it
    /// is the grace period.
    func quiet(sequence: () -> UInt64) async throws {
        var progressed: Duration = .zero
        try await quiet(sequence: sequence, elapsed: { progressed }, sleep: { pause in
            try await Task.sleep(for: pause)
            await MainActor.run {}
            await Task.detached {}.value
            progressed += pause
        })
    }

    /// ``quiet(sequence:)`` with the time and the pause injected (for tests).
    func quiet(sequence: () -> UInt64, elapsed: () -> Duration, sleep: (Duration) async throws -> Void) async throws {
        var last = sequence()
        var stillPauses = 0
        while stillPauses < 2 && elapsed() < grace {
            try await sleep(pollInterval)
            let now = sequence()
            stillPauses = now == last ? stillPauses + 1 : 0
            last = now
        }
    }

    /// Analyses until ``step(after:waited:)`` gives the verdict: `elapsed`
    /// tells the time since the test ended, `sleep` waits (both injectable
    /// for tests). The time is read before each analysis, so an analysis is
    /// never credited with more waiting than it had.
    func settle(elapsed: () -> Duration, sleep: (Duration) async throws -> Void,
                _ analyze: () -> AnalysisReport) async throws -> AnalysisReport {
        while true {
            let waited = elapsed()
            let report = analyze()
            if step(after: report, waited: waited) == .verdict { return report }
            try await sleep(pollInterval)
        }
    }
}
