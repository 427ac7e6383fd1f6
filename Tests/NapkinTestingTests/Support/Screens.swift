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
