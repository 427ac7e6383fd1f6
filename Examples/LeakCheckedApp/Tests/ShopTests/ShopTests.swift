import NapkinTesting
import Shop
import Testing

// `.napkinLeakCheck` on the suite: every test records its own napkin objects
// and gets its own leak verdict, a grace period (1 s) after it ends.
@Suite(.napkinLeakCheck)
@MainActor
struct ShopTests {
    // Clean: the catalog is closed, the shop released, and everything goes.
    // This test's own trait overrides the suite's: with `expectTeardown`,
    // everything it created must be gone, the shop and its interactor too.
    @Test(.napkinLeakCheck(expectTeardown: true))
    func browseTheCatalog() async {
        var shop: ShopRouter? = ShopRouter()
        await shop!.launch()
        await shop!.openCatalog()
        await shop!.closeCatalog()
        shop = nil
    }

    // Leaks: the shop goes away with the cart still attached, and the cart,
    // held by its own interactor, stays alive. Nothing in the body fails: the
    // leak check fails the test with `undetached-child`, on the line of
    // `ShopRouter.openCart` that attached the cart.
    @Test
    func leaveTheShopWithTheCartOpen() async {
        var shop: ShopRouter? = ShopRouter()
        await shop!.launch()
        await shop!.openCart()
        shop = nil
    }
}
