@testable import Napkin
import NapkinTrace
import Testing
import TestSupport

/// A still screen costs no wake-up: once the appearance poller's backing-off
/// schedule ends quiet (a poll after the longest wait found nothing), it is
/// dormant, with no timer; it then polls only when the main run loop is
/// about to sleep after waking for something else
/// (``AppearancePoller/mainRunLoopWillSleep()``, which UIKit and AppKit apps
/// call from a run loop observer), at most once an interval, with one
/// trailing poll for a pass that comes sooner. Polls and passes are made by
/// hand, with the poller's clock set by the test (intervals of 100 s, so that
/// no timer fires during a test).
@Suite("Appearance poller: dormant on a still screen")
@MainActor
struct AppearancePollerDormancyTests {
    /// Where a pretend view controller is, and how often it was read.
    final class PretendController {
        var snapshot = AppearanceSnapshotTests.loadedAlone
        var reads = 0
    }

    /// A clock the test moves.
    final class TestClock {
        var now: Double = 1_000
    }

    private func makePoller(_ clock: TestClock) -> AppearancePoller {
        AppearancePoller(interval: 100) { clock.now }
    }

    private func watch(_ view: any ViewControllable, _ controller: PretendController, on poller: AppearancePoller) {
        poller.register(view) { [weak controller] in
            controller?.reads += 1
            return controller?.snapshot
        }
    }

    /// Polls by hand, as the timer would, until the poller is dormant (at most `limit` polls).
    private func pollUntilDormant(_ poller: AppearancePoller, _ clock: TestClock, limit: Int = 10) -> Int {
        var polls = 0
        while !poller.isDormant && polls < limit {
            clock.now += poller.currentInterval
            poller.poll()
            polls += 1
        }
        return polls
    }

    @Test("a view that never moves: five polls (after 1, 3, 7, 15 and 31 intervals), then no timer at all")
    func stillViewGoesDormant() {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let clock = TestClock()
        let poller = makePoller(clock)
        let controller = PretendController()
        watch(screen.viewControllable, controller, on: poller)
        #expect(poller.isPolling && !poller.isDormant)
        let start = clock.now
        #expect(pollUntilDormant(poller, clock) == 5)
        #expect(clock.now - start == 3_100, "polled at 100, 300, 700, 1500 and 3100 s")
        #expect(poller.isDormant)
        #expect(!poller.isPolling, "a dormant poller keeps a timer, which would wake the app")
        #expect(poller.count == 1, "the view is still watched")
        withExtendedLifetime((screen, controller)) {}
    }

    @Test("dormant, a pass of the main run loop polls at once; a change found starts the schedule again")
    func passPollsAndWakesOnChange() {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let clock = TestClock()
        let poller = makePoller(clock)
        let controller = PretendController()
        watch(screen.viewControllable, controller, on: poller)
        _ = pollUntilDormant(poller, clock)
        let reads = controller.reads
        // The app woke for something of its own, long after the last poll, and nothing moved.
        clock.now += 500
        poller.mainRunLoopWillSleep()
        #expect(controller.reads == reads + 1, "the pass did not poll")
        #expect(poller.isDormant && !poller.isPolling, "a quiet pass started a timer")
        // The next pass moved the view on screen.
        controller.snapshot = AppearanceSnapshotTests.onScreenInContainer
        clock.now += 500
        poller.mainRunLoopWillSleep()
        #expect(controller.reads == reads + 2)
        #expect(!poller.isDormant && poller.isPolling, "a change did not start the schedule again")
        #expect(poller.currentInterval == 100)
        let shown = recorder.eventsAsRecorded.contains { event in
            if case .view(_, .shown) = event.kind { true } else { false }
        }
        #expect(shown, "the change was not reported")
        withExtendedLifetime((screen, controller)) {}
    }

    @Test("a pass within one interval of the last poll polls not now but once, when the interval is up")
    func passSoonAfterAPollSchedulesOne() {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let clock = TestClock()
        let poller = makePoller(clock)
        let controller = PretendController()
        watch(screen.viewControllable, controller, on: poller)
        _ = pollUntilDormant(poller, clock)
        clock.now += 500
        poller.mainRunLoopWillSleep()               // polls
        let reads = controller.reads
        clock.now += 10                             // a burst of passes, a tenth of an interval later
        poller.mainRunLoopWillSleep()
        poller.mainRunLoopWillSleep()
        #expect(controller.reads == reads, "a pass polled again within the interval")
        #expect(poller.isPolling, "no trailing poll was scheduled for the burst's last change")
        withExtendedLifetime((screen, controller)) {}
    }

    @Test("with a timer scheduled, paused, or with nothing watched, a pass does nothing")
    func passIgnoredOtherwise() {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let clock = TestClock()
        let poller = makePoller(clock)
        let controller = PretendController()
        watch(screen.viewControllable, controller, on: poller)
        clock.now += 500
        poller.mainRunLoopWillSleep()               // the schedule's timer is pending: it polls
        #expect(controller.reads == 0)
        _ = pollUntilDormant(poller, clock)
        let reads = controller.reads
        poller.pause()
        clock.now += 500
        poller.mainRunLoopWillSleep()
        #expect(controller.reads == reads, "a paused poller polled")
        #expect(!poller.isPolling)
        withExtendedLifetime((screen, controller)) {}

        let empty = makePoller(clock)
        clock.now += 500
        empty.mainRunLoopWillSleep()
        #expect(!empty.isPolling, "a poller watching nothing scheduled a poll")
    }
}
