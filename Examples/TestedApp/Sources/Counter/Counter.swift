import Napkin

/// The business logic of a counter screen.
public final actor CounterInteractor: Interactable {
    public nonisolated let lifecycle = InteractorLifecycle()
    public private(set) var count = 0

    public init() {}

    public func didBecomeActive() async {
        task(named: "ticker") { [weak self] in
            while !Task.isCancelled {
                await self?.tick()
                try? await Task.sleep(for: .milliseconds(5))
            }
        }
    }

    func tick() { count += 1 }
}

/// The counter's router.
@MainActor
public final class CounterRouter: Router<CounterInteractor> {
    public init() { super.init(interactor: CounterInteractor()) }
}

/// A headless root with a counter it can open and close.
@MainActor
public final class AppRouter: LaunchRouter<CounterInteractor, AppView> {
    private var counter: CounterRouter?

    public init() { super.init(interactor: CounterInteractor(), viewController: AppView()) }

    public func openCounter() async {
        guard counter == nil else { return }
        let router = CounterRouter()
        counter = router
        await attachChild(router)
    }

    public func closeCounter() async {
        guard let router = counter else { return }
        counter = nil
        await detachChild(router)
    }
}

/// The root's view: nothing to draw here.
@MainActor
public final class AppView: HeadlessViewControllable {
    public init() {}
}
