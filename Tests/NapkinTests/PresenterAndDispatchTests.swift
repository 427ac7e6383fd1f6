import NapkinTrace
import Napkin
import Synchronization
import Testing

@MainActor
private protocol GreetingPresentable: Presentable, Sendable {
    var greeting: String { get set }
}

@MainActor
private final class GreetingPresenter: Presenter<TestView>, GreetingPresentable {
    var greeting = ""
}

private final actor GreetingInteractor: PresentableInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any GreetingPresentable

    init(presenter: any GreetingPresentable) { self.presenter = presenter }

    func didBecomeActive() async {
        await MainActor.run { presenter.greeting = "hello" }
    }
}

@MainActor
private final class GreetingRouter: ViewableRouter<GreetingInteractor, TestView> {}

@Suite("Presenter, views, launch and dispatch")
@MainActor
struct PresenterAndDispatchTests {
    @Test("Presenter holds its view controller; a presentable interactor drives it")
    func presenterHoldsViewController() async {
        let view = TestView()
        let presenter = GreetingPresenter(viewController: view)
        #expect(presenter.viewController === view)
        let interactor = GreetingInteractor(presenter: presenter)
        #expect(interactor.presenter === presenter)
        await interactor.activate()
        #expect(presenter.greeting == "hello")
    }

    @Test("ViewableRouter exposes its view controller typed and as ViewControllable")
    func viewableRouter() {
        let view = TestView()
        let presenter = GreetingPresenter(viewController: view)
        let router = GreetingRouter(interactor: GreetingInteractor(presenter: presenter), viewController: view)
        #expect(router.viewController === view)
        #expect(router.viewControllable === view)
        let viewable: any ViewableRouting = router
        #expect(viewable.viewControllable === view)
        #expect(viewable.interactable === router.interactor)
    }

    #if os(macOS) || os(Linux) // exit tests: Swift Testing has none on iOS
    @Test("A ViewableRouter whose view is not ViewControllable stops the process")
    func nonViewControllableView() async {
        await #expect(processExitsWith: .failure) {
            await MainActor.run {
                _ = ViewableRouter<TestInteractor, String>(interactor: TestInteractor("a"), viewController: "no view")
            }
        }
    }
    #endif

    @Test("LaunchRouter.launch() activates the root, then loads it")
    func launchActivatesThenLoads() async {
        let log = HookLog()
        let root = TestRootRouter("root", log: log)
        let child = TestRouter("child", log: log)
        root.onLoad = { root in
            log.add("root.load")
            await root.attachChild(child)
        }
        let launching: any LaunchRouting = root
        await launching.launch()
        #expect(log.all == ["root+", "root.load", "child+", "child.load"])
        #expect(await root.interactor.isActive)
        await root.loaded()
        // Launching again changes nothing: activation and load are idempotent.
        await root.launch()
        #expect(log.all == ["root+", "root.load", "child+", "child.load"])
    }

    @Test("dispatch runs its action in a new task and returns that task")
    func dispatchRunsAction() async {
        let ran = Locked(false)
        let task = dispatch { ran.withLock { $0 = true } }
        await task.value
        #expect(ran.withLock { $0 })
    }

    @Test("dispatch with a priority reaches an interactor from the main actor")
    func dispatchWithPriority() async {
        let interactor = TestInteractor("a")
        let priority = Locked<TaskPriority?>(nil)
        let task = dispatch(priority: .high) {
            priority.withLock { $0 = Task.currentPriority }
            await interactor.activate()
        }
        await task.value
        #expect(priority.withLock { $0 } == .high)
        #expect(await interactor.isActive)
        #expect(interactor.log.all == ["a+"])
    }

    @Test("The task dispatch returns can be cancelled: it is the action's task")
    func dispatchTaskIsCancellable() async {
        let sawCancel = Locked(false)
        let task = dispatch {
            await waitForCancellation()
            sawCancel.withLock { $0 = true }
        }
        task.cancel()
        await task.value
        #expect(sawCancel.withLock { $0 })
    }
}
