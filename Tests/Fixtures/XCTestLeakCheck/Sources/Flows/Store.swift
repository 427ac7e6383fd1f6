import Napkin

/// The store's business logic: nothing to do.
public final actor StoreInteractor: Interactable {
    public nonisolated let lifecycle = InteractorLifecycle()
}

/// The store's view: nothing to draw.
@MainActor
public final class StoreView: HeadlessViewControllable {}

/// The root: it opens a basket, a wishlist or a shelf under itself.
@MainActor
public final class StoreRouter: LaunchRouter<StoreInteractor, StoreView> {
    public init() { super.init(interactor: StoreInteractor(), viewController: StoreView()) }

    func openBasket() async {
        let basket = await BasketRouter.make()
        await attachChild(basket) // the basket's attach the leak check points at
    }

    func openWishlist() async {
        let wishlist = await WishlistRouter.make()
        await attachChild(wishlist) // the wishlist's attach the leak check points at
    }

    func browseShelf() async {
        let shelf = ShelfRouter()
        await attachChild(shelf)
        await detachChild(shelf)
    }
}

/// An interactor that keeps its router strongly (it should be `weak`): the
/// router holds its interactor, the interactor holds the router, neither goes.
public final actor ClingingInteractor: Interactable {
    public nonisolated let lifecycle = InteractorLifecycle()
    private var router: (any Routing)?

    func hold(_ router: any Routing) { self.router = router }
}

/// The basket: held by its own interactor.
@MainActor
public final class BasketRouter: Router<ClingingInteractor> {
    private init() { super.init(interactor: ClingingInteractor()) }

    static func make() async -> BasketRouter {
        let router = BasketRouter()
        await router.interactor.hold(router)
        return router
    }
}

/// The wishlist: held by its own interactor, like the basket.
@MainActor
public final class WishlistRouter: Router<ClingingInteractor> {
    private init() { super.init(interactor: ClingingInteractor()) }

    static func make() async -> WishlistRouter {
        let router = WishlistRouter()
        await router.interactor.hold(router)
        return router
    }
}

/// A shelf: a clean screen.
@MainActor
public final class ShelfRouter: Router<StoreInteractor> {
    init() { super.init(interactor: StoreInteractor()) }
}

/// The flows the tests run, the same code whichever test library checks
/// them (so the findings name the same lines).
@MainActor
public enum Flows {
    /// Leaks: the store goes away with the basket still attached, and the
    /// basket, held by its own interactor, stays alive (`undetached-child`).
    public static func leaveWithBasketOpen() async {
        var store: StoreRouter? = StoreRouter()
        await store!.launch()
        await store!.openBasket()
        store = nil
    }

    /// Leaks the wishlist the same way.
    public static func leaveWithWishlistOpen() async {
        var store: StoreRouter? = StoreRouter()
        await store!.launch()
        await store!.openWishlist()
        store = nil
    }

    /// Clean: a shelf opened and closed, the store released; everything goes.
    public static func browseShelf() async {
        var store: StoreRouter? = StoreRouter()
        await store!.launch()
        await store!.browseShelf()
        store = nil
    }
}
