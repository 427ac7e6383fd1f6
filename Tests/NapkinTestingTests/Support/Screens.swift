import Napkin

/// An interactor with nothing to do.
final actor PlainInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

/// A router that goes away when released.
@MainActor
final class PlainRouter: Router<PlainInteractor> {
    init() { super.init(interactor: PlainInteractor()) }
}

/// An interactor that keeps its router strongly: the retain cycle the leak
/// tests leave behind, until ``release()`` breaks it.
final actor ClingingInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    private var router: ClingingRouter?

    func hold(_ router: ClingingRouter) { self.router = router }
    func release() { router = nil }
}

/// A router its interactor never lets go (see ``ClingingInteractor``).
@MainActor
final class ClingingRouter: Router<ClingingInteractor> {
    init() { super.init(interactor: ClingingInteractor()) }

    /// A router already held by its own interactor.
    static func make() async -> ClingingRouter {
        let router = ClingingRouter()
        await router.interactor.hold(router)
        return router
    }
}

/// The root's view: nothing to draw.
@MainActor
final class RootView: HeadlessViewControllable {}

/// A root that can be launched headless.
@MainActor
final class RootRouter: LaunchRouter<PlainInteractor, RootView> {
    init() { super.init(interactor: PlainInteractor(), viewController: RootView()) }
}

// MARK: - Flows the tests play

/// A root launched, a child attached and detached, the root released: a flow
/// that leaves nothing behind.
@MainActor
func playCleanFlow() async {
    var root: RootRouter? = RootRouter()
    await root!.launch()
    let child = PlainRouter()
    await root!.attachChild(child)
    await root!.detachChild(child)
    root = nil
}

/// A root launched with a ``ClingingRouter`` attached, then released with
/// the child still attached: an `undetached-child` leak. Returns the child,
/// whose interactor's ``ClingingInteractor/release()`` ends the leak.
@MainActor
func playLeakingFlow() async -> ClingingRouter {
    var root: RootRouter? = RootRouter()
    await root!.launch()
    let child = await ClingingRouter.make()
    await root!.attachChild(child)
    root = nil
    return child
}
