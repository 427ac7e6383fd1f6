import Napkin
import Testing

/// A mock router that is not a `Router` subclass: attachChild/detachChild
/// must work through the `Routing` protocol alone.
@MainActor
private final class MockRouting: Routing {
    let interactable: Interactable
    var children: [Routing] = []
    var loads = 0
    init(_ interactor: TestInteractor) { interactable = interactor }
    func load() async { loads += 1 }
    func loaded() async {}
    func attachChild(_ child: Routing) async { children.append(child) }
    func detachChild(_ child: Routing) async { children.removeAll { $0 === child } }
}

@Suite("Router")
@MainActor
struct RouterTests {
    @Test("A router exposes its interactor both typed and as Interactable, and starts with no children")
    func exposesInteractor() {
        let router = TestRouter("a")
        #expect(router.interactable === router.interactor)
        #expect(router.children.isEmpty)
    }

    #if os(macOS) || os(Linux) // exit tests: Swift Testing has none on iOS
    @Test("A router whose interactor is not Interactable stops the process")
    func nonInteractableInteractor() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                _ = Router<String>(interactor: "not an interactor")
            }
        }
    }
    #endif

    @Test("load() runs didLoad once, also when called twice")
    func loadOnce() async {
        let router = TestRouter("a")
        await router.load()
        await router.load()
        #expect(router.didLoadCount == 1)
    }

    @Test("Concurrent load() calls run didLoad once")
    func concurrentLoad() async {
        let router = TestRouter("a")
        let gate = Gate()
        router.onLoad = { _ in await gate.wait() }
        async let first: Void = router.load()
        async let second: Void = router.load()
        async let third: Void = router.load()
        #expect(await eventually { router.didLoadCount == 1 })
        gate.open()
        _ = await (first, second, third)
        await router.loaded()
        #expect(router.didLoadCount == 1)
    }

    @Test("load() called from inside didLoad returns at once (no deadlock, no second didLoad)")
    func reentrantLoad() async {
        let router = TestRouter("a")
        router.onLoad = { router in await router.load() }
        await router.load()
        #expect(router.didLoadCount == 1)
    }

    @Test("loaded() awaited before load resumes only after didLoad finished")
    func loadedBeforeLoad() async {
        let router = TestRouter("a")
        var events: [String] = []
        var waiterStarted = false
        router.onLoad = { _ in events.append("didLoad") }
        let waiter = Task { @MainActor in
            waiterStarted = true
            await router.loaded()
            events.append("loaded")
        }
        // Once the waiter ran its first line it is suspended inside loaded():
        // there is no suspension point in between on the main actor.
        #expect(await eventually { waiterStarted })
        for _ in 0..<10 { await Task.yield() }
        #expect(events.isEmpty)
        events.append("load")
        await router.load()
        await waiter.value
        #expect(events == ["load", "didLoad", "loaded"])
    }

    @Test("loaded() after load returns immediately")
    func loadedAfterLoad() async {
        let router = TestRouter("a")
        await router.load()
        await router.loaded()
        await router.loaded()
        #expect(router.didLoadCount == 1)
    }

    @Test("attachChild appends, activates the child, then loads it")
    func attachActivatesThenLoads() async {
        let log = HookLog()
        let parent = TestRouter("p", log: log)
        let child = TestRouter("c", log: log)
        await parent.attachChild(child)
        #expect(parent.children.count == 1)
        #expect(parent.children.first === child)
        #expect(await child.interactor.isActive)
        #expect(log.all == ["c+", "c.load"])
        #expect(await parent.interactor.isActive == false, "attaching does not touch the parent")
    }

    @Test("children changes before the hooks run: listed while activating, gone while deactivating")
    func childrenUpdatedBeforeHooks() async {
        let log = HookLog()
        let parent = TestRouter("p", log: log)
        let child = TestRouter("c", log: log)
        await child.interactor.setDelays(active: .milliseconds(100), resign: .milliseconds(100))
        async let attach: Void = parent.attachChild(child)
        #expect(await eventually { log.all.contains("c+") })
        #expect(parent.children.first === child)
        await attach
        async let detach: Void = parent.detachChild(child)
        #expect(await eventually { log.all.contains("c-") })
        #expect(parent.children.isEmpty)
        await detach
    }

    @Test("Children keep attach order; attaching a router that is already a child changes nothing", .routerMisuseWarns)
    func attachOrderAndDuplicates() async {
        let log = HookLog()
        let parent = TestRouter("p", log: log)
        let a = TestRouter("a", log: log)
        let b = TestRouter("b", log: log)
        await parent.attachChild(a)
        await parent.attachChild(b)
        await parent.attachChild(a)
        #expect(parent.children.map { ObjectIdentifier($0) } == [ObjectIdentifier(a), ObjectIdentifier(b)])
        #expect(log.count("a+") == 1)
        #expect(a.didLoadCount == 1)
    }

    @Test("detachChild deactivates the child and removes it; detaching a non-child changes nothing", .routerMisuseWarns)
    func detach() async {
        let log = HookLog()
        let parent = TestRouter("p", log: log)
        let a = TestRouter("a", log: log)
        let b = TestRouter("b", log: log)
        await parent.attachChild(a)
        await parent.attachChild(b)
        await parent.detachChild(a)
        #expect(parent.children.count == 1)
        #expect(parent.children.first === b)
        #expect(await a.interactor.isActive == false)
        #expect(await b.interactor.isActive)
        let stranger = TestRouter("s", log: log)
        await parent.detachChild(stranger)
        await parent.detachChild(a)
        #expect(parent.children.count == 1)
        #expect(log.all == ["a+", "a.load", "b+", "b.load", "a-"])
    }

    @Test("A re-attached child is re-activated but not loaded again")
    func reattach() async {
        let log = HookLog()
        let parent = TestRouter("p", log: log)
        let child = TestRouter("c", log: log)
        await parent.attachChild(child)
        await parent.detachChild(child)
        await parent.attachChild(child)
        #expect(log.all == ["c+", "c.load", "c-", "c+"])
        #expect(child.didLoadCount == 1)
        #expect(await child.interactor.isActive)
    }

    @Test("didLoad can attach permanent children; they are active once load returns")
    func childrenFromDidLoad() async {
        let log = HookLog()
        let parent = TestRouter("p", log: log)
        let child = TestRouter("c", log: log)
        parent.onLoad = { router in await router.attachChild(child) }
        let root = TestRouter("r", log: log)
        await root.attachChild(parent)
        #expect(parent.children.first === child)
        #expect(log.all == ["p+", "p.load", "c+", "c.load"])
    }

    @Test("A router can attach a child that implements Routing without subclassing Router")
    func mockChild() async {
        let parent = TestRouter("p")
        let mock = MockRouting(TestInteractor("m"))
        await parent.attachChild(mock)
        #expect(await mock.interactable.isActive)
        #expect(mock.loads == 1)
        await parent.detachChild(mock)
        #expect(await mock.interactable.isActive == false)
        #expect(parent.children.isEmpty)
    }
}
