import NapkinTrace
import Napkin
import Synchronization
import Testing

/// Uses every default of `Interactable`: no hooks of its own.
private final actor BareInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

/// Records what `isActive` says from inside its hooks.
private final actor ProbingInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let log = HookLog()

    func didBecomeActive() async {
        log.add("did:\(await isActive)")
    }

    func willResignActive() async {
        log.add("will:\(await isActive)")
    }
}

/// Deactivates itself from inside `didBecomeActive`.
private final actor SelfResigningInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let log = HookLog()

    func didBecomeActive() async {
        log.add("+")
        await deactivate()
        log.add("+ returned")
    }

    func willResignActive() async {
        log.add("-")
    }
}

/// Starts bound tasks from its hooks, as app interactors do.
private final actor WorkingInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let cancelled = HookLog()
    private(set) var started: [Task<Void, Never>] = []

    func didBecomeActive() async {
        let cancelled = self.cancelled
        started.append(task {
            await waitForCancellation()
            cancelled.add("plain")
        })
        started.append(task(named: "named", priority: .low) {
            await waitForCancellation()
            cancelled.add("named")
        })
        started.append(task(priority: .high) {
            await waitForCancellation()
            cancelled.add("prioritised")
        })
    }
}

private final actor PresentingInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: String
    init(presenter: String) { self.presenter = presenter }
}

@Suite("Interactable")
struct InteractableTests {
    @Test("The defaults: inactive at first, hooks do nothing, activate/deactivate flip isActive")
    func defaults() async {
        let interactor = BareInteractor()
        let scope: any InteractorScope = interactor
        #expect(await scope.isActive == false)
        await interactor.activate()
        #expect(await scope.isActive)
        await interactor.didBecomeActive()
        await interactor.willResignActive()
        #expect(await scope.isActive, "calling the hooks directly changes nothing")
        await interactor.deactivate()
        #expect(await scope.isActive == false)
    }

    @Test("activate and deactivate are idempotent: each hook runs once per real transition")
    func idempotent() async {
        let interactor = TestInteractor("a")
        await interactor.deactivate()
        await interactor.activate()
        await interactor.activate()
        await interactor.deactivate()
        await interactor.deactivate()
        await interactor.activate()
        #expect(interactor.log.all == ["a+", "a-", "a+"])
        #expect(await interactor.isActive)
    }

    @Test("isActive is true inside both didBecomeActive and willResignActive")
    func activeInsideHooks() async {
        let interactor = ProbingInteractor()
        await interactor.activate()
        await interactor.deactivate()
        #expect(interactor.log.all == ["did:true", "will:true"])
    }

    @Test("Exactly one of two concurrent deactivations runs willResignActive")
    func concurrentDeactivations() async {
        let interactor = TestInteractor("a")
        await interactor.activate()
        await interactor.setDelays(active: nil, resign: .milliseconds(50))
        async let first: Void = interactor.deactivate()
        async let second: Void = interactor.deactivate()
        _ = await (first, second)
        #expect(await eventually { await interactor.isActive == false })
        #expect(interactor.log.count("a-") == 1)
    }

    @Test("Exactly one of many concurrent activations runs didBecomeActive")
    func concurrentActivations() async {
        let interactor = TestInteractor("a")
        await interactor.setDelays(active: .milliseconds(20), resign: nil)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<16 { group.addTask { await interactor.activate() } }
        }
        #expect(await interactor.isActive)
        #expect(interactor.log.all == ["a+"])
    }

    @Test("A deactivation requested while didBecomeActive runs is not lost")
    func deactivateDuringActivation() async {
        let interactor = TestInteractor("a")
        await interactor.setDelays(active: .milliseconds(200), resign: nil)
        async let activation: Void = interactor.activate()
        #expect(await eventually { interactor.log.all == ["a+"] })
        await interactor.deactivate()
        await activation
        #expect(interactor.log.all == ["a+", "a-"])
        #expect(await interactor.isActive == false)
    }

    @Test("An activation requested while willResignActive runs is not lost")
    func activateDuringDeactivation() async {
        let interactor = TestInteractor("a")
        await interactor.activate()
        await interactor.setDelays(active: nil, resign: .milliseconds(200))
        async let deactivation: Void = interactor.deactivate()
        #expect(await eventually { interactor.log.all == ["a+", "a-"] })
        await interactor.activate()
        await deactivation
        #expect(interactor.log.all == ["a+", "a-", "a+"])
        #expect(await interactor.isActive)
    }

    @Test("An interactor that deactivates itself inside didBecomeActive neither deadlocks nor loses the request")
    func reentrantSelfDeactivation() async {
        let interactor = SelfResigningInteractor()
        await interactor.activate()
        #expect(interactor.log.all == ["+", "+ returned", "-"])
        #expect(await interactor.isActive == false)
    }

    @Test("isActiveStream yields the current value first, then every change")
    func stream() async {
        let interactor = TestInteractor("a")
        await interactor.activate()
        let scope: any InteractorScope = interactor
        var iterator = scope.isActiveStream.makeAsyncIterator()
        #expect(await iterator.next() == true)
        await interactor.deactivate()
        await interactor.activate()
        await interactor.activate()
        await interactor.deactivate()
        #expect(await iterator.next() == false)
        #expect(await iterator.next() == true)
        #expect(await iterator.next() == false)
        // Each access is an independent stream starting from the current value.
        var second = interactor.isActiveStream.makeAsyncIterator()
        #expect(await second.next() == false)
    }

    @Test("isActiveStream finishes when the interactor is deallocated")
    func streamFinishesOnDeinit() async {
        var interactor: TestInteractor? = TestInteractor("a")
        weak let weakInteractor = interactor
        await interactor?.activate()
        await interactor?.deactivate()
        let stream = interactor!.isActiveStream
        interactor = nil
        #expect(await eventually { weakInteractor == nil })
        var values: [Bool] = []
        for await value in stream { values.append(value) }
        #expect(values == [false])
    }

    @Test("Tasks bound with task {}, task(priority:) and task(named:) are cancelled on deactivate")
    func boundTasksCancelled() async {
        let interactor = WorkingInteractor()
        await interactor.activate()
        let tasks = await interactor.started
        #expect(tasks.count == 3)
        #expect(tasks.allSatisfy { !$0.isCancelled })
        await interactor.deactivate()
        #expect(tasks.allSatisfy { $0.isCancelled })
        for task in tasks { await task.value }
        #expect(Set(interactor.cancelled.all) == ["plain", "named", "prioritised"])
    }

    @Test("The handle task {} returns is the bound task itself")
    func handleIsBoundTask() async {
        let interactor = TestInteractor("a")
        await interactor.activate()
        let sawCancellation = Locked(false)
        let handle = await interactor.task {
            await waitForCancellation()
            sawCancellation.withLock { $0 = true }
        }
        // Cancelling the handle cancels the work...
        handle.cancel()
        await handle.value
        #expect(sawCancellation.withLock { $0 })
        // ...and deactivation cancels the handle.
        let second = await interactor.task(named: "second") { await waitForCancellation() }
        #expect(!second.isCancelled)
        await interactor.deactivate()
        #expect(second.isCancelled)
        await second.value
    }

    @Test("A bound task that finishes on its own is left alone; a new activation binds new tasks")
    func tasksAcrossActivations() async {
        let interactor = TestInteractor("a")
        await interactor.activate()
        let done = await interactor.task {}
        await done.value
        await interactor.deactivate()
        #expect(!done.isCancelled)
        await interactor.activate()
        let next = await interactor.task { await waitForCancellation() }
        #expect(!next.isCancelled)
        await interactor.deactivate()
        #expect(next.isCancelled)
        await next.value
    }

    @Test("PresentableInteractable exposes its presenter nonisolated")
    func presentable() {
        let interactor = PresentingInteractor(presenter: "view state")
        #expect(interactor.presenter == "view state")
    }
}
