@testable import Napkin
import NapkinTrace
import Testing
import TestSupport
import Foundation

/// The appearance poller wakes the app less while nothing changes: each
/// quiet poll doubles the wait before the next, up to sixteen intervals,
/// after which a quiet poll leaves it dormant (``AppearancePollerDormancyTests``);
/// a change or a new view brings it back to one interval; paused (the app in
/// the background), it does not poll at all. Polls are made by hand, as in
/// ``AppearancePollerTests``; the waits are read, not timed.
@Suite("Appearance poller: backing off and pausing")
@MainActor
struct AppearancePollerBackoffTests {
    final class PretendController {
        var snapshot = AppearanceSnapshotTests.loadedAlone
    }

    @Test("quiet polls double the wait up to 16 intervals, then leave it dormant; a change resets it")
    func backsOff() {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let poller = AppearancePoller(interval: 100)
        let controller = PretendController()
        poller.register(screen.viewControllable) { [weak controller] in controller?.snapshot }
        #expect(poller.currentInterval == 100)
        var waits: [Double] = []
        for _ in 0..<6 {
            poller.poll()
            waits.append(poller.currentInterval)
        }
        // 3200: past the longest wait, dormant (no timer), and kept there.
        #expect(waits == [200, 400, 800, 1600, 3200, 3200])
        #expect(!poller.isPolling)
        controller.snapshot = AppearanceSnapshotTests.onScreenInContainer
        poller.poll()                                   // shown: a change
        #expect(poller.currentInterval == 100)
        poller.poll()
        #expect(poller.currentInterval == 200)
        #expect(poller.isPolling)
        withExtendedLifetime((screen, controller)) {}
    }

    @Test("a new view brings the wait back to one interval")
    func registerResets() {
        let recorder = TraceRecorder(app: "poller")
        let first = recorder.record { ScreenRouter() }
        let second = recorder.record { ScreenRouter() }
        let poller = AppearancePoller(interval: 100)
        let controller = PretendController()
        poller.register(first.viewControllable) { [weak controller] in controller?.snapshot }
        poller.poll()
        poller.poll()
        #expect(poller.currentInterval == 400)
        poller.register(second.viewControllable) { [weak controller] in controller?.snapshot }
        #expect(poller.currentInterval == 100)
        withExtendedLifetime((first, second, controller)) {}
    }

    @Test("paused, it schedules no poll, also for a new view; resumed, it polls again after one interval")
    func pauses() {
        let recorder = TraceRecorder(app: "poller")
        let first = recorder.record { ScreenRouter() }
        let second = recorder.record { ScreenRouter() }
        let poller = AppearancePoller(interval: 100)
        let controller = PretendController()
        poller.register(first.viewControllable) { [weak controller] in controller?.snapshot }
        poller.poll()
        #expect(poller.isPolling)
        poller.pause()
        #expect(!poller.isPolling)
        poller.register(second.viewControllable) { [weak controller] in controller?.snapshot }
        #expect(!poller.isPolling, "a view registered in the background starts no timer")
        poller.resume()
        #expect(poller.isPolling)
        #expect(poller.currentInterval == 100)
        #expect(poller.count == 2)
        withExtendedLifetime((first, second, controller)) {}
    }
}

extension AppearancePollerBackoffTests {
    @Test("it pauses on the background notification and resumes on the foreground one")
    func followsNotifications() async {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let poller = AppearancePoller(interval: 3600)
        let controller = PretendController()
        let center = NotificationCenter()
        let background = Notification.Name("test.background"), foreground = Notification.Name("test.foreground")
        poller.follow(pauseOn: [background], resumeOn: [foreground], center: center)
        poller.register(screen.viewControllable) { [weak controller] in controller?.snapshot }
        center.post(name: background, object: nil)
        #expect(await waitUntil { poller.isPaused }, "not paused by the background notification")
        #expect(!poller.isPolling)
        center.post(name: foreground, object: nil)
        #expect(await waitUntil { !poller.isPaused }, "not resumed by the foreground notification")
        #expect(poller.isPolling)
        withExtendedLifetime((screen, controller)) {}
    }
}
