import Napkin

/// The cart's business logic. It talks back to its router.
public final actor CartInteractor: Interactable {
    public nonisolated let lifecycle = InteractorLifecycle()
    /// The bug: a strong reference (it should be `weak`). The router holds
    /// its interactor, the interactor holds the router: neither ever goes.
    private var router: CartRouter?

    public init() {}

    func set(router: CartRouter) { self.router = router }
}

/// The cart's router.
@MainActor
public final class CartRouter: Router<CartInteractor> {
    private init() { super.init(interactor: CartInteractor()) }

    /// A cart router wired to its interactor (the way a builder would).
    static func make() async -> CartRouter {
        let router = CartRouter()
        await router.interactor.set(router: router)
        return router
    }
}
