@testable import Napkin
import NapkinTrace
import Testing

/// The registry behind the UIKit and AppKit appearance observer
/// (``AppearancePoller``), driven here by hand with a stand-in for a view
/// controller: it reports changes through the trace, holds nothing alive,
/// drops what is gone, and polls only while it watches something.
@Suite("Appearance poller")
@MainActor
struct AppearancePollerTests {
    /// Where a pretend view controller is; the poller reads it weakly.
    final class PretendController {
        var snapshot = AppearanceSnapshotTests.loadedAlone
    }

    /// A poller whose timer would not fire during a test: polls are made by hand.
    private func makePoller() -> AppearancePoller { AppearancePoller(interval: 3600) }

    private func watch(_ view: any ViewControllable, _ controller: PretendController, on poller: AppearancePoller) {
        poller.register(view) { [weak controller] in controller?.snapshot }
    }

    private func views(of router: NodeID, in recorder: TraceRecorder) -> [ViewAppearance] {
        recorder.eventsAsRecorded.compactMap { event in
            if case .view(router, let appearance) = event.kind { appearance } else { nil }
        }
    }

    @Test("a traced router's view: each change is recorded once, nothing before it is shown")
    func reportsChanges() throws {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let id = try #require(RecordedTrace(recorder).routerIDs("ScreenRouter").first)
        let poller = makePoller()
        let controller = PretendController()
        watch(screen.viewControllable, controller, on: poller)
        #expect(poller.isPolling)

        poller.poll()                                             // loaded, never shown
        controller.snapshot = AppearanceSnapshotTests.onScreenInContainer
        poller.poll()
        poller.poll()                                             // unchanged
        controller.snapshot = AppearanceSnapshotTests.offScreenInContainer
        poller.poll()                                             // pushed over
        controller.snapshot = AppearanceSnapshotTests.onScreenInContainer
        poller.poll()
        controller.snapshot = AppearanceSnapshotTests.loadedAlone
        poller.poll()                                             // popped
        #expect(views(of: id, in: recorder) == [.shown, .covered, .shown, .removed])
        #expect(poller.count == 1)
        withExtendedLifetime((screen, controller)) {}
    }

    @Test("it keeps neither the view nor the controller alive, and drops them at the next poll")
    func holdsNothing() {
        let recorder = TraceRecorder(app: "poller")
        let poller = makePoller()
        weak var weakView: ScreenView?
        weak var weakController: PretendController?
        do {
            let screen = recorder.record { ScreenRouter() }
            let controller = PretendController()
            weakView = screen.viewController
            weakController = controller
            watch(screen.viewControllable, controller, on: poller)
        }
        #expect(weakView == nil)
        #expect(weakController == nil)
        #expect(poller.count == 1)          // nothing happened when they went
        poller.poll()
        #expect(poller.count == 0)
        #expect(!poller.isPolling)          // nothing left to watch: the timer stopped
    }

    @Test("a router detached and freed with its shown view: the next poll records removed, so no view-shown-after-detach")
    func freedWhileShown() async throws {
        let recorder = TraceRecorder(app: "poller")
        let poller = makePoller()
        let controller = PretendController()
        controller.snapshot = AppearanceSnapshotTests.onScreenInContainer
        weak var weakView: ScreenView?
        let root = await recorder.record { () async -> NavigationRootRouter in
            let root = NavigationRootRouter()
            await root.launch()
            return root
        }
        do {
            let screen = ScreenRouter()
            await root.attachChild(screen)              // adopted: traced
            weakView = screen.viewController
            watch(screen.viewControllable, controller, on: poller)
            poller.poll()                               // shown
            await root.detachChild(screen)              // popped and detached at once, then freed
        }
        #expect(weakView == nil)
        let id = try #require(RecordedTrace(recorder).routerIDs("ScreenRouter").first)
        // Before the next poll, the trace says the gone router's view is on screen.
        #expect(!Self.viewShownAfterDetach(in: recorder.eventsAsRecorded).isEmpty)
        poller.poll()
        #expect(views(of: id, in: recorder) == [.shown, .removed])
        #expect(Self.viewShownAfterDetach(in: recorder.eventsAsRecorded).isEmpty)
        #expect(poller.count == 0)
        withExtendedLifetime(root) {}
    }

    @Test("a view whose controller is freed while it was shown is reported removed")
    func controllerFreedWhileShown() throws {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let id = try #require(RecordedTrace(recorder).routerIDs("ScreenRouter").first)
        let poller = makePoller()
        do {
            let controller = PretendController()
            controller.snapshot = AppearanceSnapshotTests.onScreen
            watch(screen.viewControllable, controller, on: poller)
            poller.poll()
        }
        poller.poll()
        #expect(views(of: id, in: recorder) == [.shown, .removed])
        #expect(poller.count == 0)
        withExtendedLifetime(screen) {}
    }

    /// The `view-shown-after-detach` findings of `events`, every check decided
    /// (grace periods of 30 s, the analysis run to 31 s past the last event).
    private static func viewShownAfterDetach(in events: [TraceEvent]) -> [Finding] {
        var analyzer = TraceAnalyzer(options: .init(grace: 30_000_000_000, viewGrace: 30_000_000_000))
        for event in events { analyzer.consume(event) }
        analyzer.advance(to: (events.last?.time ?? 0) + 31_000_000_000)
        analyzer.finish()
        return analyzer.findings.filter { $0.rule == .viewShownAfterDetach }
    }

    @Test("a view whose controller is gone is dropped, with nothing recorded")
    func controllerGone() throws {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let poller = makePoller()
        do {
            let controller = PretendController()
            controller.snapshot = AppearanceSnapshotTests.onScreen
            watch(screen.viewControllable, controller, on: poller)
        }
        poller.poll()
        #expect(poller.count == 0)
        #expect(!poller.isPolling)
        #expect(!recorder.eventsAsRecorded.contains { $0.kind.name == .view })
        withExtendedLifetime(screen) {}
    }

    @Test("an untraced view is dropped at the first poll and reports nothing")
    func untracedDropped() {
        let screen = ScreenRouter()         // created outside any recording: untraced
        let poller = makePoller()
        let controller = PretendController()
        controller.snapshot = AppearanceSnapshotTests.onScreen
        watch(screen.viewControllable, controller, on: poller)
        poller.poll()
        #expect(poller.count == 0)
        #expect(!poller.isPolling)
        withExtendedLifetime((screen, controller)) {}
    }

    @Test("a poll drops only what is gone or unlisted; the timer runs while something is watched")
    func dropsOnlyWhatWent() {
        let recorder = TraceRecorder(app: "poller")
        let screen = recorder.record { ScreenRouter() }
        let poller = makePoller()
        let controller = PretendController()
        watch(screen.viewControllable, controller, on: poller)
        let untraced = ScreenRouter()
        watch(untraced.viewControllable, controller, on: poller)
        #expect(poller.count == 2)
        poller.poll()
        #expect(poller.count == 1)          // the untraced one went, the traced one stays
        #expect(poller.isPolling)
        withExtendedLifetime((screen, untraced, controller)) {}
    }
}
