import Napkin

/// The shop's business logic: nothing to do in this example.
public final actor ShopInteractor: Interactable {
    public nonisolated let lifecycle = InteractorLifecycle()

    public init() {}
}

/// The root of the shop: it opens and closes the catalog and the cart.
@MainActor
public final class ShopRouter: LaunchRouter<ShopInteractor, ShopView> {
    private var catalog: CatalogRouter?
    private var cart: CartRouter?

    public init() { super.init(interactor: ShopInteractor(), viewController: ShopView()) }

    public func openCatalog() async {
        guard catalog == nil else { return }
        let router = CatalogRouter()
        catalog = router
        await attachChild(router)
    }

    public func closeCatalog() async {
        guard let router = catalog else { return }
        catalog = nil
        await detachChild(router)
    }

    public func openCart() async {
        guard cart == nil else { return }
        let router = await CartRouter.make()
        cart = router
        await attachChild(router) // the attach the leak check points at
    }

    public func closeCart() async {
        guard let router = cart else { return }
        cart = nil
        await detachChild(router)
    }
}

/// The shop's view: nothing to draw here.
@MainActor
public final class ShopView: HeadlessViewControllable {
    public init() {}
}
