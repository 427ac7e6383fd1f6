import Napkin
import NapkinTrace
import Testing

/// An interactor that runs an app-supplied action inside `didBecomeActive`,
/// like a child that asks its listener (the parent) to close it at once.
private final actor CallbackInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let log: HookLog
    private var onActive: (@Sendable () async -> Void)?

    init(log: HookLog) { self.log = log }

    func setOnActive(_ action: @escaping @Sendable () async -> Void) {
        onActive = action
    }

    func didBecomeActive() async {
        log.add("c+")
        await onActive?()
        log.add("c+ returned")
    }

    func willResignActive() async {
        log.add("c-")
    }
}

@MainActor
private final class CallbackRouter: Router<CallbackInteractor> {
    override func didLoad() async {
        interactor.log.add("c.load")
    }
}

/// A launched root with the subtree p -> (c1 -> g1, c2), all sharing `log`.
@MainActor
private struct Tree {
    let log = HookLog()
    let root: TestRootRouter
    let p: TestRouter
    let c1: TestRouter
    let g1: TestRouter
    let c2: TestRouter

    init() async {
        root = TestRootRouter("root", log: log)
        p = TestRouter("p", log: log)
        c1 = TestRouter("c1", log: log)
        g1 = TestRouter("g1", log: log)
        c2 = TestRouter("c2", log: log)
        await root.launch()
        await root.attachChild(p)
        await p.attachChild(c1)
        await c1.attachChild(g1)
        await p.attachChild(c2)
    }

    var subtree: [TestRouter] { [p, c1, g1, c2] }

    /// The log entries added after `mark` entries.
    func entries(after mark: Int) -> [String] { Array(log.all.dropFirst(mark)) }
}

/// An interactor that can hold back its next deactivation request, so that
/// it takes effect after a later activation request (as when two requests
/// reach an actor out of order).
private final actor LaggingInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let log: HookLog
    nonisolated let lagging = Gate()
    private var lagNextDeactivation: Gate?

    init(log: HookLog) { self.log = log }

    func lagNextDeactivation(until release: Gate) {
        lagNextDeactivation = release
    }

    func deactivate() async {
        if let release = lagNextDeactivation {
            lagNextDeactivation = nil
            lagging.open()
            await release.wait()
        }
        await lifecycle.deactivate { await self.willResignActive() }
    }

    func didBecomeActive() async { log.add("l+") }
    func willResignActive() async { log.add("l-") }
}

@Suite("Subtree lifecycle")
@MainActor
struct SubtreeLifecycleTests {
    @Test("Detaching a router deactivates its whole subtree, root first (pre-order)")
    func detachDeactivatesSubtreePreOrder() async {
        let tree = await Tree()
        for router in tree.subtree { #expect(await router.interactor.isActive) }
        let mark = tree.log.all.count
        await tree.root.detachChild(tree.p)
        #expect(tree.entries(after: mark) == ["p-", "c1-", "g1-", "c2-"])
        for router in tree.subtree { #expect(await router.interactor.isActive == false) }
        #expect(await tree.root.interactor.isActive)
        // The subtree's structure is kept.
        #expect(tree.p.children.count == 2)
        #expect(tree.c1.children.first === tree.g1)
    }

    @Test("Re-attaching a router re-activates its retained subtree, root first, without reloading")
    func reattachReactivatesSubtreePreOrder() async {
        let tree = await Tree()
        await tree.root.detachChild(tree.p)
        let mark = tree.log.all.count
        await tree.root.attachChild(tree.p)
        #expect(tree.entries(after: mark) == ["p+", "c1+", "g1+", "c2+"])
        for router in tree.subtree {
            #expect(await router.interactor.isActive)
            #expect(router.didLoadCount == 1)
        }
    }

    @Test("Children attached in didLoad activate after their parent (root first on first attach too)")
    func firstAttachOrder() async {
        let log = HookLog()
        let root = TestRootRouter("root", log: log)
        let p = TestRouter("p", log: log)
        let c = TestRouter("c", log: log)
        p.onLoad = { router in await router.attachChild(c) }
        await root.launch()
        await root.attachChild(p)
        #expect(log.all == ["root+", "p+", "p.load", "c+", "c.load"])
    }

    @Test("Detaching a grandchild leaves its ancestors and siblings alone")
    func detachInner() async {
        let tree = await Tree()
        let mark = tree.log.all.count
        await tree.c1.detachChild(tree.g1)
        #expect(tree.entries(after: mark) == ["g1-"])
        #expect(await tree.c1.interactor.isActive)
        #expect(await tree.c2.interactor.isActive)
    }

    @Test("A child detached inside a detached subtree stays inactive when the subtree is re-attached")
    func detachedInsideDetached() async {
        let tree = await Tree()
        await tree.root.detachChild(tree.p)
        await tree.c1.detachChild(tree.g1)
        let mark = tree.log.all.count
        await tree.root.attachChild(tree.p)
        #expect(tree.entries(after: mark) == ["p+", "c1+", "c2+"])
        #expect(await tree.g1.interactor.isActive == false)
    }

    @Test("attachChild activates the child even when the parent is itself inactive (RIBs semantics)")
    func attachUnderInactiveParent() async {
        let tree = await Tree()
        await tree.root.detachChild(tree.p)
        let extra = TestRouter("x", log: tree.log)
        await tree.c2.attachChild(extra)
        #expect(await extra.interactor.isActive)
        #expect(await tree.c2.interactor.isActive == false)
        // Re-attaching the subtree keeps it active; detaching it deactivates it.
        await tree.root.attachChild(tree.p)
        #expect(await extra.interactor.isActive)
        await tree.root.detachChild(tree.p)
        #expect(await extra.interactor.isActive == false)
    }

    @Test("Re-attaching while the subtree is still deactivating leaves it active")
    func reattachDuringSlowDetach() async {
        let tree = await Tree()
        await tree.c1.interactor.setDelays(active: nil, resign: .milliseconds(100))
        async let detach: Void = tree.root.detachChild(tree.p)
        #expect(await eventually { tree.log.all.contains("c1-") })
        await tree.root.attachChild(tree.p)
        await detach
        for router in tree.subtree { #expect(await router.interactor.isActive) }
        #expect(tree.root.children.count == 1)
    }

    @Test("Detaching while the subtree is still activating leaves it inactive")
    func detachDuringSlowAttach() async {
        let tree = await Tree()
        await tree.root.detachChild(tree.p)
        await tree.c1.interactor.setDelays(active: .milliseconds(100), resign: nil)
        let mark = tree.log.all.count
        async let attach: Void = tree.root.attachChild(tree.p)
        #expect(await eventually { tree.entries(after: mark).contains("c1+") })
        await tree.root.detachChild(tree.p)
        await attach
        for router in tree.subtree { #expect(await router.interactor.isActive == false) }
        #expect(tree.root.children.isEmpty)
        for router in tree.subtree {
            let name = router.interactor.name
            #expect(tree.log.count("\(name)+") == tree.log.count("\(name)-"))
        }
    }

    @Test("A detach whose deactivation lands after a later re-attach re-checks the link and re-activates")
    func outOfOrderRequestsConverge() async {
        let log = HookLog()
        let root = TestRootRouter("root", log: log)
        await root.launch()
        let interactor = LaggingInteractor(log: log)
        let child = Router(interactor: interactor)
        await root.attachChild(child)
        let release = Gate()
        await interactor.lagNextDeactivation(until: release)
        async let detach: Void = root.detachChild(child)
        await interactor.lagging.wait()
        // The detach has removed the link and its deactivation is in flight.
        #expect(root.children.isEmpty)
        await root.attachChild(child)
        release.open()
        await detach
        // The late deactivation ran, then the detach saw the link back in place.
        #expect(root.children.count == 1)
        #expect(await interactor.isActive)
        #expect(log.all.filter { $0.hasPrefix("l") } == ["l+", "l-", "l+"])
    }

    @Test("A child that detaches itself from inside didBecomeActive ends detached and inactive, without deadlock")
    func reentrantSelfDetach() async {
        let log = HookLog()
        let root = TestRootRouter("root", log: log)
        await root.launch()
        let interactor = CallbackInteractor(log: log)
        let child = CallbackRouter(interactor: interactor)
        await interactor.setOnActive { [weak root, weak child] in
            await MainActor.run {} // hop like a real listener call would
            guard let root, let child else { return }
            await root.detachChild(child)
        }
        await root.attachChild(child)
        #expect(root.children.isEmpty)
        #expect(await interactor.isActive == false)
        #expect(Array(log.all.drop { $0 != "c+" }.prefix(3)) == ["c+", "c+ returned", "c-"])
        #expect(log.count("c+") == 1)
        #expect(log.count("c-") == 1)
    }

    @Test("A child's didLoad awaiting its parent's loaded() while the parent attaches it from its didLoad returns",
          .timeLimit(.minutes(3)))
    func loadedFromChildInsideParentLoad() async {
        let log = HookLog()
        let root = TestRootRouter("root", log: log)
        let p = TestRouter("p", log: log)
        let c = TestRouter("c", log: log)
        p.onLoad = { router in
            await router.attachChild(c)
            log.add("p.load.end")
        }
        c.onLoad = { [weak p] _ in
            await p?.loaded()
            log.add("c.saw-p")
        }
        await root.launch()
        #expect(await completes { await root.attachChild(p) }, "the nested loaded() hung")
        // The child sees the parent still loading: its didLoad started, the rest of it has not run.
        #expect(log.all == ["root+", "p+", "p.load", "c+", "c.load", "c.saw-p", "p.load.end"])
        #expect(await completes { await p.loaded() })
    }

    @Test("A grandchild's didLoad awaiting the root's, its parent's and its own loaded() during launch returns",
          .timeLimit(.minutes(3)))
    func loadedFromGrandchildInsideRootLaunch() async {
        let log = HookLog()
        let root = TestRootRouter("root", log: log)
        let c = TestRouter("c", log: log)
        let g = TestRouter("g", log: log)
        root.onLoad = { router in
            await router.attachChild(c)
            log.add("root.load.end")
        }
        c.onLoad = { router in
            await router.attachChild(g)
            log.add("c.load.end")
        }
        g.onLoad = { [weak root, weak c] router in
            await root?.loaded()
            log.add("g.saw-root")
            await c?.loaded()
            log.add("g.saw-c")
            await router.loaded()
            log.add("g.saw-self")
        }
        #expect(await completes { await root.launch() }, "the nested loaded() hung")
        #expect(log.all == ["root+", "c+", "c.load", "g+", "g.load", "g.saw-root", "g.saw-c", "g.saw-self",
                            "c.load.end", "root.load.end"])
        #expect(await completes { await root.loaded() })
    }

    @Test("loaded() from a task started inside the load still waits for didLoad to return",
          .timeLimit(.minutes(3)))
    func loadedFromOtherTaskWaits() async {
        let log = HookLog()
        let root = TestRootRouter("root", log: log)
        let p = TestRouter("p", log: log)
        let c = TestRouter("c", log: log)
        let waiter = Locked<Task<Void, Never>?>(nil)
        c.onLoad = { [weak p] _ in
            waiter.withLock { $0 = Task { @MainActor in
                await p?.loaded()
                log.add("waiter.saw-p")
            } }
            for _ in 0..<20 { await Task.yield() }
        }
        p.onLoad = { router in
            await router.attachChild(c)
            for _ in 0..<20 { await Task.yield() }
            log.add("p.load.end")
        }
        await root.launch()
        #expect(await completes { await root.attachChild(p) })
        #expect(await completes { await waiter.withLock { $0 }?.value })
        #expect(Array(log.all.suffix(2)) == ["p.load.end", "waiter.saw-p"])
    }

    @Test("A direct deactivate() reaches only that interactor; detaching its router deactivates the subtree")
    func directDeactivateIsNotSubtree() async {
        let tree = await Tree()
        let mark = tree.log.all.count
        await tree.p.interactor.deactivate()
        #expect(tree.entries(after: mark) == ["p-"])
        #expect(await tree.p.interactor.isActive == false)
        for router in [tree.c1, tree.g1, tree.c2] { #expect(await router.interactor.isActive) }
        // What to call instead: detach the router (its already inactive interactor is left alone).
        await tree.root.detachChild(tree.p)
        #expect(tree.entries(after: mark) == ["p-", "c1-", "g1-", "c2-"])
        for router in tree.subtree { #expect(await router.interactor.isActive == false) }
    }
}
