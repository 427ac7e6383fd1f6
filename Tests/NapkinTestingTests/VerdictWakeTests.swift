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
@Suite("VerdictWait: woken by the test's own events", .timeLimit(.minutes(3)))
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

    @Test("a busy neighbour: its events neither wake the clean test's wait nor hold its verdict, which comes while the neighbour's leak is still alive")
    func neighbourDoesNotDelay() async throws {
        let neighbour = TraceRecorder(app: "neighbour")
        let leaked = await neighbour.record { await playLeakingFlow() }
        let recorder = TraceRecorder(app: "clean")
        let clock = AppTimeClock(pause: Self.hour, waking: recorder.activity)
        // A child of the clean test still alive at the first analysis: its check is pending, so the wait must wait.
        // The root lives on (never let go: no check) so that nothing of the clean test moves until the child goes.
        let held = Locked<PlainRouter?>(nil)
        let root = await recorder.record {
            let root = RootRouter()
            await root.launch()
            let child = PlainRouter()
            await root.attachChild(child)
            await root.detachChild(child)
            held.set(child)
            return root
        }
        let neighbourEvents = neighbour.activity.events
        // While the clean test waits, the neighbour moves 20 times; then the clean child goes.
        let during = Locked<(generation: UInt64, analyses: Int)?>(nil)
        let analyses = Locked(0)
        var busy: Task<Void, Never>?
        let report = try await Self.wait.settle(activity: recorder.activity, clock: clock) {
            analyses.set(analyses.get() + 1)
            if analyses.get() == 1 {
                let generation = recorder.activity.generation
                busy = Task { @MainActor in
                    for _ in 0..<20 {
                        let child = PlainRouter()
                        await neighbour.record { await leaked.attachChild(child) }
                        await leaked.detachChild(child)
                        await Task.yield()
                    }
                    // What the neighbour's 20 rounds did to the clean wait: the scope's
                    // generation moved (a wake-up) and the analyses made meanwhile.
                    during.set((recorder.activity.generation - generation, analyses.get()))
                    held.set(nil)
                }
            }
            return recorder.analyze(grace: Self.hour, viewGrace: Self.hour)
        }
        await busy?.value
        recorder.finish()
        #expect(report.isClean && report.undecided == 0, "\(report)")
        #expect(clock.ticks == 0)
        let seen = try #require(during.get())
        #expect(neighbour.activity.events - neighbourEvents >= 20, "the neighbour was busy")
        #expect(seen.generation == 0, "the neighbour's events woke the clean test's wait \(seen.generation) times")
        #expect(seen.analyses == 1, "the clean test analysed again on the neighbour's events")
        #expect(analyses.get() >= 2, "the clean child's release woke the verdict")
        // The verdict did not wait for the neighbour: its leaked child and interactor are still alive.
        #expect(neighbour.activity.pending >= 2)
        await leaked.interactor.release()
        neighbour.finish()
        withExtendedLifetime(root) {}
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
