import Napkin
import Testing

/// An interactor whose bound task captures the interactor itself strongly,
/// as app code does (`task { await self.poll() }`).
private final actor PollingInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    private(set) var polls = 0

    func didBecomeActive() async {
        task { await self.pollUntilCancelled() }
        task(named: "second") { await self.pollUntilCancelled() }
    }

    private func pollUntilCancelled() async {
        while !Task.isCancelled {
            polls += 1
            try? await Task.sleep(for: .milliseconds(1))
        }
    }
}

@MainActor
private final class PollingRouter: Router<PollingInteractor> {}

/// Weak references to a router and its interactor.
@MainActor
private struct Weak {
    weak var router: AnyObject?
    weak var interactor: AnyObject?
    init(_ router: TestRouter) {
        self.router = router
        self.interactor = router.interactor
    }
    var isGone: Bool { router == nil && interactor == nil }
}

@Suite("Deallocation")
@MainActor
struct DeallocationTests {
    @Test("A detached, released router and its interactor are deallocated")
    func detachedRouterDeallocates() async {
        let parent = TestRouter("p")
        var child: TestRouter? = TestRouter("c")
        let refs = Weak(child!)
        await parent.attachChild(child!)
        await parent.detachChild(child!)
        child = nil
        #expect(await eventually { refs.isGone })
    }

    @Test("A router never attached is deallocated when released")
    func unusedRouterDeallocates() async {
        var router: TestRouter? = TestRouter("r")
        let refs = Weak(router!)
        router = nil
        #expect(await eventually { refs.isGone })
    }

    @Test("A detached subtree is deallocated with its root, however deep")
    func detachedSubtreeDeallocates() async {
        let root = TestRootRouter()
        await root.launch()
        var refs: [Weak] = []
        do {
            let a = TestRouter("a")
            let b = TestRouter("b")
            let c = TestRouter("c")
            let d = TestRouter("d")
            refs = [Weak(a), Weak(b), Weak(c), Weak(d)]
            await root.attachChild(a)
            await a.attachChild(b)
            await b.attachChild(c)
            await a.attachChild(d)
            await root.detachChild(a)
        }
        #expect(await eventually { refs.allSatisfy(\.isGone) })
        #expect(root.children.isEmpty)
    }

    @Test("A router whose interactor ran bound tasks (capturing the interactor) deallocates after detach")
    func boundTasksDoNotRetain() async {
        let parent = TestRouter("p")
        weak var weakRouter: PollingRouter?
        weak var weakInteractor: PollingInteractor?
        do {
            let interactor = PollingInteractor()
            let router = PollingRouter(interactor: interactor)
            weakRouter = router
            weakInteractor = interactor
            await parent.attachChild(router)
            #expect(await eventually { await interactor.polls > 2 })
            await parent.detachChild(router)
        }
        #expect(await eventually { weakRouter == nil && weakInteractor == nil })
    }

    @Test("Attach/detach cycles leave nothing behind: the framework retains no router or interactor")
    func cyclesRetainNothing() async {
        let root = TestRootRouter()
        await root.launch()
        var refs: [Weak] = []
        for index in 0..<20 {
            let router = TestRouter("r\(index)")
            refs.append(Weak(router))
            await root.attachChild(router)
            _ = await router.interactor.task { await waitForCancellation() }
            await root.detachChild(router)
            await root.attachChild(router)
            await root.detachChild(router)
        }
        #expect(await eventually { refs.allSatisfy(\.isGone) })
    }

    @Test("A released router that is still active deactivates its interactor and subtree, root first")
    func releasedActiveRouterDeactivates() async {
        let log = HookLog()
        var interactors: [TestInteractor] = []
        var refs: [Weak] = []
        do {
            // `host` is never activated; attaching `top` activates top's subtree.
            let host = TestRouter("host", log: log)
            let top = TestRouter("top", log: log)
            let child = TestRouter("child", log: log)
            let grandchild = TestRouter("grand", log: log)
            let sibling = TestRouter("sibling", log: log)
            await host.attachChild(top)
            await top.attachChild(child)
            await child.attachChild(grandchild)
            await top.attachChild(sibling)
            interactors = [top, child, grandchild, sibling].map(\.interactor)
            refs = [host, top, child, grandchild, sibling].map(Weak.init)
        }
        // host is released here with its whole subtree still active.
        #expect(await eventually { await allInactive(interactors) })
        #expect(log.all.filter { $0.hasSuffix("-") } == ["top-", "child-", "grand-", "sibling-"])
        #expect(refs.allSatisfy { $0.router == nil })
        interactors.removeAll()
        #expect(await eventually { refs.allSatisfy(\.isGone) })
    }

    @Test("A released launched root deactivates the whole tree")
    func releasedRootDeactivatesTree() async {
        let log = HookLog()
        var interactors: [TestInteractor] = []
        do {
            let root = TestRootRouter("root", log: log)
            let child = TestRouter("child", log: log)
            await root.launch()
            await root.attachChild(child)
            interactors = [root.interactor, child.interactor]
        }
        #expect(await eventually { await allInactive(interactors) })
        #expect(log.all.filter { $0.hasSuffix("-") } == ["root-", "child-"])
        weak let weakRoot = interactors.first
        interactors.removeAll()
        #expect(await eventually { weakRoot == nil })
    }
}

/// Whether none of `interactors` is active.
func allInactive(_ interactors: [TestInteractor]) async -> Bool {
    for interactor in interactors where await interactor.isActive { return false }
    return true
}
