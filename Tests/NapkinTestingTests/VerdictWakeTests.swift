import Napkin
@testable import NapkinTesting
import NapkinTrace
import Testing

/// A verdict decided by events, not by the clock: the event that settles
/// the last pending check wakes the wait, which never waits for a tick of
/// its clock on the clean path, and only the test's own events wake it. The
/// clocks here tick once an hour: a wait that needed a tick would hang until
/// the suite's time limit fails it (and the tick counts say so); nothing is
/// timed.
@Suite("VerdictWait: woken by the test's own events", .timeLimit(.minutes(5)))
@MainActor
struct VerdictWakeTests {
    static let hour = Duration.seconds(3600)
    static let wait = VerdictWait(grace: hour, viewGrace: hour, pollInterval: hour)

    @Test("pending at the first analysis: the event that settles it gives the verdict, with no tick")
    func wokenByTheEvent() async throws {
        let activity = ScopeActivity()
        let clock = AppTimeClock(pause: Self.hour, waking: activity)
        let released = Locked(false)
        var analyses = 0
        let report = try await Self.wait.settle(activity: activity, clock: clock) {
            analyses += 1
            let report = released.get() ? Reports.report() : Reports.report(undecided: 1)
            if analyses == 1 {
                // The test's last object goes after the verdict's first look.
                Task.detached {
                    released.set(true)
                    activity.note(-1)
                }
            }
            return report
        }
        #expect(report.isClean && report.undecided == 0, "\(report)")
        #expect(analyses == 2)
        #expect(clock.ticks == 0)
    }

    @Test("a real recording: a child released after the test returned wakes the verdict, with no tick")
    func realRecording() async throws {
        let recorder = TraceRecorder(app: "wake")
        let clock = AppTimeClock(pause: Self.hour, waking: recorder.activity)
        let held = Locked<PlainRouter?>(nil)
        await recorder.record {
            let root = RootRouter()
            await root.launch()
            let child = PlainRouter()
            await root.attachChild(child)
            await root.detachChild(child)
            held.set(child)
        }
        var analyses = 0
        let report = try await Self.wait.settle(activity: recorder.activity, clock: clock) {
            analyses += 1
            // The detached child is alive at the first analysis: its check is
            // pending; a task lets it go, and its deinit is the event.
            if analyses == 1 { Task { @MainActor in held.set(nil) } }
            return recorder.analyze(grace: Self.hour, viewGrace: Self.hour)
        }
        recorder.finish()
        #expect(report.isClean && report.undecided == 0, "\(report)")
        #expect(analyses >= 2, "the first analysis saw the child's check pending")
        #expect(clock.ticks == 0)
    }

    @Test("a neighbour with a pending leak: the clean test's verdict comes while the neighbour's object is still there")
    func neighbourDoesNotDelay() async throws {
        let neighbour = TraceRecorder(app: "neighbour")
        let leaked = await neighbour.record { await playLeakingFlow() }
        let recorder = TraceRecorder(app: "clean")
        let clock = AppTimeClock(pause: Self.hour, waking: recorder.activity)
        let neighbourGeneration = neighbour.activity.generation
        await recorder.record { await playCleanFlow() }
        // The neighbour keeps busy meanwhile (its tasks start and end, its events wake its own scope only).
        let busy = Task { @MainActor in
            for _ in 0..<20 {
                let child = PlainRouter()
                await neighbour.record { await leaked.attachChild(child) }
                await leaked.detachChild(child)
            }
        }
        let report = try await Self.wait.settle(activity: recorder.activity, clock: clock) {
            recorder.analyze(grace: Self.hour, viewGrace: Self.hour)
        }
        recorder.finish()
        #expect(report.isClean && report.undecided == 0, "\(report)")
        #expect(clock.ticks == 0)
        // The neighbour's leak is still pending (an hour's grace): the clean verdict did not wait for it.
        #expect(neighbour.analyze(grace: Self.hour, viewGrace: Self.hour).undecided > 0)
        await busy.value
        #expect(neighbour.activity.generation > neighbourGeneration)
        await leaked.interactor.release()
        neighbour.finish()
    }

    @Test("a recording's tally: what it made, and what of it is still alive or running")
    func recorderTally() async throws {
        // Waits as under check: until nothing is pending, or nothing moved during two ticks.
        let settle = VerdictWait(grace: .seconds(5), viewGrace: .seconds(5))
        let recorder = TraceRecorder(app: "tally")
        await recorder.record { await playCleanFlow() }
        try await settle.quiet(scope: recorder.activity)
        // A root and a child, each a router and an interactor: all gone.
        #expect(recorder.activity.made == 4)
        #expect(recorder.activity.pending == 0)
        let leaking = TraceRecorder(app: "tally")
        let child = await leaking.record { await playLeakingFlow() }
        try await settle.quiet(scope: leaking.activity)
        #expect(leaking.activity.made == 4)
        #expect(leaking.activity.pending == 2, "the clinging child and its interactor")
        await child.interactor.release()
    }
}
