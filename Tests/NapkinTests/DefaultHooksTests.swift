import Napkin
import NapkinTrace
import Testing

// Interactors for the short way a router takes when an interactor's
// `activate()`/`deactivate()` and hooks are the defaults (DefaultHooks). Each
// type is used by one test only: what the framework learns is per type.

private final actor NoHooksInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

/// Implements `didBecomeActive` only, and checks it runs on its own actor.
private final actor ActivatingInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let log = HookLog()

    func didBecomeActive() async {
        assertIsolated("didBecomeActive runs on the interactor's actor")
        log.add("did:\(lifecycle.isActiveNow)")
    }
}

/// Implements `willResignActive` only, and checks it runs on its own actor.
private final actor ResigningInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let log = HookLog()

    func willResignActive() async {
        assertIsolated("willResignActive runs on the interactor's actor")
        log.add("will:\(lifecycle.isActiveNow)")
    }
}

/// A napkin 2.x-style interactor with its own `activate()` and `deactivate()`.
private final actor OwnTransitionsInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let log = HookLog()

    func activate() async {
        log.add("activate")
        await lifecycle.activate { }
    }

    func deactivate() async {
        log.add("deactivate")
        await lifecycle.deactivate { }
    }
}

@MainActor private final class NoHooksRouter: Router<NoHooksInteractor> {}
@MainActor private final class ActivatingRouter: Router<ActivatingInteractor> {}
@MainActor private final class ResigningRouter: Router<ResigningInteractor> {}
@MainActor private final class OwnTransitionsRouter: Router<OwnTransitionsInteractor> {}

@MainActor private final class HostRouter: Router<NoHooksInteractor> {}

/// A launched parent to attach the children under.
@MainActor private func host() async -> HostRouter {
    let host = HostRouter(interactor: NoHooksInteractor())
    await host.interactable.activate()
    await host.load()
    return host
}

@Suite("Default hooks: transitions without a hop when nothing of the interactor's runs")
@MainActor
struct DefaultHooksTests {
    @Test("an interactor with no hooks is active while attached and inactive after, every time, first time included")
    func noHooks() async {
        let parent = await host()
        for _ in 0..<3 {
            let child = NoHooksRouter(interactor: NoHooksInteractor())
            await parent.attachChild(child)
            #expect(await child.interactor.isActive)
            await parent.detachChild(child)
            #expect(await !child.interactor.isActive)
        }
    }

    @Test("a didBecomeActive of its own runs on its actor at every attach, while active")
    func ownDidBecomeActive() async {
        let parent = await host()
        let log = HookLog()
        for _ in 0..<3 {
            let interactor = ActivatingInteractor()
            let child = ActivatingRouter(interactor: interactor)
            await parent.attachChild(child)
            await parent.detachChild(child)
            #expect(interactor.log.all == ["did:true"])
            log.add(contentsOf: interactor.log.all)
            #expect(await !interactor.isActive)
        }
        #expect(log.count("did:true") == 3)
    }

    @Test("a willResignActive of its own runs on its actor at every detach, while still active")
    func ownWillResignActive() async {
        let parent = await host()
        for _ in 0..<3 {
            let interactor = ResigningInteractor()
            let child = ResigningRouter(interactor: interactor)
            await parent.attachChild(child)
            #expect(await interactor.isActive)
            await parent.detachChild(child)
            #expect(interactor.log.all == ["will:true"])
            #expect(await !interactor.isActive)
        }
    }

    @Test("an interactor with its own activate() and deactivate() has them called at every attach and detach")
    func ownTransitions() async {
        let parent = await host()
        for _ in 0..<3 {
            let interactor = OwnTransitionsInteractor()
            let child = OwnTransitionsRouter(interactor: interactor)
            await parent.attachChild(child)
            await parent.detachChild(child)
            #expect(interactor.log.all == ["activate", "deactivate"])
        }
    }

    @Test("the trace records the same transitions, in the same order, the short way as the first (hopping) time")
    func traceUnchanged() async {
        let recorder = TraceRecorder()
        let names: [[TraceEvent.Name]] = await recorder.record {
            let parent = await host()
            var names: [[TraceEvent.Name]] = []
            for _ in 0..<3 {
                let before = recorder.eventsAsRecorded.count
                do {
                    let child = NoHooksRouter(interactor: NoHooksInteractor())
                    await parent.attachChild(child)
                    await parent.detachChild(child)
                }
                names.append(recorder.eventsAsRecorded.dropFirst(before).map(\.kind.name))
            }
            return names
        }
        #expect(names[0] == [.interactor, .router, .attach, .activate, .hookEnd, .load, .detach, .deactivate, .hookEnd, .deallocated, .deallocated],
                "\(names[0])")
        #expect(names[1] == names[0] && names[2] == names[0])
    }
}

private extension HookLog {
    func add(contentsOf entries: [String]) {
        for entry in entries { add(entry) }
    }
}
