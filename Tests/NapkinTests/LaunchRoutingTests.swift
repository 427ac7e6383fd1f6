import Napkin
import NapkinTrace
import Testing
#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// A root written for napkin 2.x: a final class that is not a napkin router
/// and implements only what napkin 2.x's `LaunchRouting` (and its
/// `ViewableRouting` and `Routing`) require. Its `launch()` comes from the
/// protocol extension.
@MainActor
private final class Napkin2MockLaunchRouter: LaunchRouting {
    let interactable: Interactable
    let viewControllable: ViewControllable
    var children: [Routing] = []
    /// How many times `load()` ran.
    var loads = 0
    let log: HookLog

    init(_ interactor: TestInteractor, log: HookLog) {
        interactable = interactor
        viewControllable = TestView()
        self.log = log
    }

    func load() async {
        loads += 1
        log.add("mock.load")
    }

    func loaded() async {}
    func attachChild(_ child: Routing) async { children.append(child) }
    func detachChild(_ child: Routing) async { children.removeAll { $0 === child } }

    #if canImport(UIKit)
    func launch(from window: UIWindow) async {}
    #elseif canImport(AppKit)
    func launch(from window: NSWindow) async {}
    #endif
}

/// A napkin 2.x-style root that is a napkin router but not a `LaunchRouter`:
/// a `ViewableRouter` subclass that adopts `LaunchRouting` itself.
@MainActor
private final class ViewableLaunchRouter: ViewableRouter<TraceTestInteractor, TraceTestView>, LaunchRouting {
    convenience init() {
        self.init(interactor: TraceTestInteractor(), viewController: TraceTestView())
    }

    #if canImport(UIKit)
    func launch(from window: UIWindow) async {}
    #elseif canImport(AppKit)
    func launch(from window: NSWindow) async {}
    #endif
}

/// Launches `router` from a generic context (static dispatch on `R`).
@MainActor
private func launchGenerically<R: LaunchRouting>(_ router: R) async {
    await router.launch()
}

/// `launch()` is an extension of `LaunchRouting`, not a requirement: napkin
/// 2.x conformers compile, and every static type launches the same way.
@Suite("LaunchRouting")
@MainActor
struct LaunchRoutingTests {
    @Test("A napkin 2.x-style conformer compiles, and launch() activates its interactor, then loads it")
    func napkin2MockLaunches() async {
        let log = HookLog()
        let interactor = TestInteractor("mock", log: log)
        let mock = Napkin2MockLaunchRouter(interactor, log: log)
        let launching: any LaunchRouting = mock
        await launching.launch()
        #expect(log.all == ["mock+", "mock.load"])
        #expect(await interactor.isActive)
        #expect(mock.loads == 1)
        // Called on the concrete type or generically, it is the same method.
        await mock.launch()
        await launchGenerically(mock)
        #expect(mock.loads == 3)
        #expect(log.count("mock+") == 1)    // activation is idempotent
    }

    @Test("A LaunchRouter launched through any LaunchRouting activates its interactor and loads")
    func launchRouterThroughExistential() async {
        let log = HookLog()
        let root = TestRootRouter("root", log: log)
        var loads = 0
        root.onLoad = { _ in loads += 1 }
        let launching: any LaunchRouting = root
        await launching.launch()
        #expect(await root.interactor.isActive)
        #expect(loads == 1)
        await root.loaded()                 // returns: the root has loaded
        #expect(log.all == ["root+"])
        // Again, generically and on the concrete type: nothing changes.
        await launchGenerically(root)
        await root.launch()
        #expect(loads == 1)
        #expect(log.all == ["root+"])
    }

    @Test("Traced: a LaunchRouter launched through any LaunchRouting records launch, activate, hook_end, load")
    func tracedLaunchThroughExistential() async {
        let recorder = TraceRecorder(app: "launch")
        let root = await recorder.record {
            let root = TraceTestRootRouter()            // interactor 1, router 2
            let launching: any LaunchRouting = root
            await launching.launch()
            return root
        }
        let expected: [TraceEvent.Kind] = [
            .interactorCreated(id: 1, type: "TraceTestInteractor"),
            .routerCreated(id: 2, type: "TraceTestRootRouter", interactor: 1, interactorType: "TraceTestInteractor"),
            .launch(router: 2),
            .activate(interactor: 1),
            .hookEnd(interactor: 1),
            .load(router: 2),
        ]
        #expect(recorder.eventsAsRecorded.dropFirst().map(\.kind) == expected)
        #expect(await root.interactor.isActive)
        withExtendedLifetime(root) {}
    }

    @Test("Traced: a ViewableRouter subclass adopting LaunchRouting launches as a napkin root")
    func tracedViewableRouterLaunch() async {
        let recorder = TraceRecorder(app: "launch")
        let root = await recorder.record {
            let root = ViewableLaunchRouter()           // interactor 1, router 2
            await launchGenerically(root)
            return root
        }
        let expected: [TraceEvent.Kind] = [
            .interactorCreated(id: 1, type: "TraceTestInteractor"),
            .routerCreated(id: 2, type: "ViewableLaunchRouter", interactor: 1, interactorType: "TraceTestInteractor"),
            .launch(router: 2),
            .activate(interactor: 1),
            .hookEnd(interactor: 1),
            .load(router: 2),
        ]
        #expect(recorder.eventsAsRecorded.dropFirst().map(\.kind) == expected)
        #expect(await root.interactor.isActive)
        withExtendedLifetime(root) {}
    }
}
