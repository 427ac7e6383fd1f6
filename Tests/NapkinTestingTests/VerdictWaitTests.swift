@testable import NapkinTesting
import NapkinTrace
import Testing

/// When the trait stops waiting after a test: at once when nothing is left
/// to wait for, after the grace period with findings, after the view grace
/// period while checks are pending. Time is simulated: no test sleeps.
@Suite("VerdictWait: when the leak verdict is given")
struct VerdictWaitTests {
    static let wait = VerdictWait(grace: .seconds(1), viewGrace: .seconds(5))
    static let leak = Reports.report([Reports.leak()])

    @Test("the verdict after one analysis", arguments: [
        // (findings?, undecided, waited in ms, verdict?)
        (false, 0, 0, true),        // clean, nothing pending: at once
        (false, 1, 0, false),       // a check pending
        (false, 1, 999, false),
        (false, 1, 1_000, false),   // pending past the grace: a view check, wait on
        (false, 1, 4_999, false),
        (false, 1, 5_000, true),    // the view grace has passed too
        (true, 0, 0, false),        // a finding may still go away
        (true, 0, 999, false),
        (true, 0, 1_000, true),     // everything decided after the grace period
        (true, 2, 1_000, false),
        (true, 2, 5_000, true),
    ])
    func step(findings: Bool, undecided: Int, waitedMilliseconds: Int, verdict: Bool) {
        let report = Reports.report(findings ? [Reports.leak()] : [], undecided: undecided)
        let step = Self.wait.step(after: report, waited: .milliseconds(waitedMilliseconds))
        #expect(step == (verdict ? .verdict : .poll))
    }

    @Test("a view grace period shorter than the grace period: the grace period decides")
    func shortViewGrace() {
        let wait = VerdictWait(grace: .seconds(2), viewGrace: .milliseconds(100))
        #expect(wait.step(after: Reports.report(undecided: 1), waited: .seconds(1)) == .poll)
        #expect(wait.step(after: Reports.report(undecided: 1), waited: .seconds(2)) == .verdict)
    }

    @Test("clean at the first analysis: no sleep at all")
    func cleanAtOnce() async throws {
        let run = try await Simulation.run(Self.wait, reports: [Reports.report()])
        #expect(run.report.isClean)
        #expect(run.sleeps == 0)
        #expect(run.analyses == 1)
    }

    @Test("a pending check that resolves: the verdict as soon as the analysis is clean")
    func pendingThenClean() async throws {
        let pending = Reports.report(undecided: 1)
        let run = try await Simulation.run(Self.wait, reports: [pending, Self.leak, pending, Reports.report()])
        #expect(run.report.isClean)
        #expect(run.analyses == 4)
        #expect(run.sleeps == 3)
    }

    @Test("a finding that stays: analysed every poll interval until the grace period has passed")
    func findingStays() async throws {
        let run = try await Simulation.run(Self.wait, reports: [Self.leak])
        #expect(run.report.findings == [Reports.leak()])
        // 10 ms apart: analyses at 0, 10, ..., 1000 ms.
        #expect(run.analyses == 101)
        #expect(run.elapsed == .seconds(1))
    }

    @Test("checks still pending after the grace period: waits until the view grace period")
    func pendingPastGrace() async throws {
        let run = try await Simulation.run(Self.wait, reports: [Reports.report([Reports.leak()], undecided: 1)])
        #expect(run.elapsed == .seconds(5))
        #expect(run.report.findings.count == 1)
    }

    @Test("the time is read before each analysis: a slow analysis does not count as waiting")
    func timeReadBeforeAnalysis() async throws {
        // Each analysis takes 600 ms: the one started at 600 ms ends at 1.2 s but
        // counts as made at 600 ms, so one more analysis is made.
        let run = try await Simulation.run(Self.wait, reports: [Self.leak], analysisTakes: .milliseconds(600))
        #expect(run.analyses == 3)
    }

    @Test("a cancelled wait throws")
    func cancelled() async {
        await #expect(throws: CancellationError.self) {
            _ = try await Self.wait.settle(elapsed: { .zero }, sleep: { _ in throw CancellationError() }) {
                Reports.report(undecided: 1)
            }
        }
    }

    @Test("the wait counts the app's time: a main actor held past the grace period delays the verdict instead of making a leak")
    func appTime() async throws {
        // The main actor is held for 300 ms, then releases what the "test" let
        // go. On the clock the 20 ms grace passes long before that, and a
        // verdict by the clock would be the leak; in the app's time no pause
        // counts until the main actor ran again, so the release comes first.
        let released = Locked(false)
        let holding = Locked(false)
        Task { @MainActor in
            holding.set(true)
            let until = ContinuousClock.now + .milliseconds(300)
            while ContinuousClock.now < until {}
        }
        Task { @MainActor in released.set(true) }
        while !holding.get() { await Task.yield() }
        let wait = VerdictWait(grace: .milliseconds(20), viewGrace: .milliseconds(20))
        let report = try await wait.settle {
            released.get() ? Reports.report() : Self.leak
        }
        #expect(report.isClean, "\(report)")
    }

    @Test("under check: quiet at once when the trace does not move (two still pauses)")
    func quietAtOnce() async throws {
        var now: Duration = .zero
        try await Self.wait.quiet(sequence: { 7 }, elapsed: { now }, sleep: { now += $0 })
        #expect(now == .milliseconds(20))
    }

    @Test("under check: a trace that moves (a deinit chain) is waited for until it stops")
    func quietAfterMoves() async throws {
        var now: Duration = .zero
        var sequence: UInt64 = 0
        // The trace moves during the first 5 pauses, then stops.
        try await Self.wait.quiet(sequence: { sequence }, elapsed: { now }, sleep: { pause in
            now += pause
            if now <= .milliseconds(50) { sequence += 3 }
        })
        #expect(now == .milliseconds(70))
    }

    @Test("under check: a trace that never stops (parallel tests) is waited for the grace period, no longer")
    func quietBounded() async throws {
        var now: Duration = .zero
        var sequence: UInt64 = 0
        try await Self.wait.quiet(sequence: { sequence }, elapsed: { now }, sleep: { pause in
            now += pause
            sequence += 1
        })
        #expect(now == .seconds(1))
    }

    /// Runs ``VerdictWait/settle(elapsed:sleep:_:)`` on simulated time.
    final class Simulation {
        var now: Duration = .zero
        var sleeps = 0
        var analyses = 0
        var report = Reports.report()
        var elapsed: Duration { now }

        /// Gives `reports` one after the other (the last one again and again).
        static func run(_ wait: VerdictWait, reports: [AnalysisReport], analysisTakes: Duration = .zero) async throws -> Simulation {
            let simulation = Simulation()
            simulation.report = try await wait.settle(elapsed: { simulation.now }, sleep: { duration in
                simulation.sleeps += 1
                simulation.now += duration
            }) {
                let report = reports[min(simulation.analyses, reports.count - 1)]
                simulation.analyses += 1
                simulation.now += analysisTakes
                return report
            }
            return simulation
        }
    }
}
