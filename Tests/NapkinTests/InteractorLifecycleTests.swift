import NapkinTrace
import Napkin
import Synchronization
import Testing

@Suite("InteractorLifecycle")
struct InteractorLifecycleTests {
    @Test("A new lifecycle is inactive and its stream starts with false")
    func initialState() async {
        let lifecycle = InteractorLifecycle()
        #expect(await lifecycle.isActive == false)
        var iterator = lifecycle.isActiveStream.makeAsyncIterator()
        #expect(await iterator.next() == false)
    }

    @Test("activate(invoking:) marks active before the hook, runs it once; deactivate(invoking:) runs the hook while still active")
    func activateDeactivate() async {
        let lifecycle = InteractorLifecycle()
        let log = HookLog()
        await lifecycle.activate {
            log.add("did:\(await lifecycle.isActive)")
        }
        #expect(await lifecycle.isActive)
        await lifecycle.activate { log.add("did-again") }
        await lifecycle.deactivate {
            log.add("will:\(await lifecycle.isActive)")
        }
        #expect(await lifecycle.isActive == false)
        await lifecycle.deactivate { log.add("will-again") }
        #expect(log.all == ["did:true", "will:true"])
    }

    @Test("Activation yields true to the streams before didBecomeActive runs", .timeLimit(.minutes(1)))
    func streamBeforeHook() async {
        let lifecycle = InteractorLifecycle()
        var iterator = lifecycle.isActiveStream.makeAsyncIterator()
        #expect(await iterator.next() == false)
        var seenInHook: Bool?
        await lifecycle.activate { seenInHook = await iterator.next() }
        #expect(seenInHook == true)
    }

    @Test("Deactivation yields false to the stream, then cancels bound tasks")
    func deactivationOrder() async {
        let lifecycle = InteractorLifecycle()
        await lifecycle.activate {}
        let stream = lifecycle.isActiveStream
        let observedInactiveBeforeCancel = Locked<Bool?>(nil)
        let started = Gate()
        let task = lifecycle.register {
            started.open()
            await waitForCancellation()
            let active = await lifecycle.isActive
            observedInactiveBeforeCancel.withLock { $0 = !active }
        }
        await started.wait()
        await lifecycle.deactivate {
            #expect(!task.isCancelled, "bound tasks are cancelled after willResignActive returns")
        }
        #expect(task.isCancelled)
        await task.value
        #expect(observedInactiveBeforeCancel.withLock { $0 } == true)
        var iterator = stream.makeAsyncIterator()
        #expect(await iterator.next() == true)
        #expect(await iterator.next() == false)
    }

    @Test("Of two concurrent deactivate(invoking:) calls exactly one runs its hook")
    func concurrentDeactivate() async {
        let lifecycle = InteractorLifecycle()
        await lifecycle.activate {}
        let calls = HookLog()
        async let first: Void = lifecycle.deactivate {
            calls.add("first")
            try? await Task.sleep(for: .milliseconds(50))
        }
        async let second: Void = lifecycle.deactivate {
            calls.add("second")
            try? await Task.sleep(for: .milliseconds(50))
        }
        _ = await (first, second)
        #expect(calls.all.count == 1)
        #expect(await lifecycle.isActive == false)
    }

    @Test("activate(invoking:) only activates: a deactivation requested during its hook waits for the next deactivate call")
    func directCallsMoveOneWay() async {
        let lifecycle = InteractorLifecycle()
        let log = HookLog()
        let inHook = Gate()
        let release = Gate()
        async let activation: Void = lifecycle.activate {
            log.add("did")
            inHook.open()
            await release.wait()
        }
        await inHook.wait()
        await lifecycle.deactivate { log.add("will (during activation)") }
        release.open()
        await activation
        #expect(await lifecycle.isActive)
        #expect(log.all == ["did"])
        await lifecycle.deactivate { log.add("will") }
        #expect(await lifecycle.isActive == false)
        #expect(log.all == ["did", "will"])
    }

    @Test("register returns the bound task: it runs, and cancelling the handle cancels the work")
    func registerReturnsBoundTask() async {
        let lifecycle = InteractorLifecycle()
        let sawCancel = Locked(false)
        let task = lifecycle.register {
            await waitForCancellation()
            sawCancel.withLock { $0 = true }
        }
        task.cancel()
        await task.value
        #expect(sawCancel.withLock { $0 })
    }

    @Test("A task registered while inactive runs and is cancelled at the next deactivation")
    func registerWhileInactive() async {
        let lifecycle = InteractorLifecycle()
        let ran = Gate()
        let task = lifecycle.register {
            ran.open()
            await waitForCancellation()
        }
        await ran.wait()
        await lifecycle.activate {}
        #expect(!task.isCancelled)
        await lifecycle.deactivate {}
        #expect(task.isCancelled)
        await task.value
    }

    @Test("Tasks that already finished are not cancelled; later tasks still are")
    func finishedTasks() async {
        let lifecycle = InteractorLifecycle()
        await lifecycle.activate {}
        let quick = lifecycle.register {}
        await quick.value
        let slow = lifecycle.register(priority: .low) { await waitForCancellation() }
        await lifecycle.deactivate {}
        #expect(!quick.isCancelled)
        #expect(slow.isCancelled)
        await slow.value
    }

    @Test("Deinit cancels the remaining bound tasks and finishes every stream")
    func deinitCancelsAndFinishes() async {
        var lifecycle: InteractorLifecycle? = InteractorLifecycle()
        weak let weakLifecycle = lifecycle
        await lifecycle?.activate {}
        let started = Gate()
        let task = lifecycle!.register {
            started.open()
            await waitForCancellation()
        }
        await started.wait()
        let stream = lifecycle!.isActiveStream
        lifecycle = nil
        #expect(weakLifecycle == nil)
        #expect(task.isCancelled)
        await task.value
        var values: [Bool] = []
        for await value in stream { values.append(value) }
        #expect(values == [true])
    }
}
