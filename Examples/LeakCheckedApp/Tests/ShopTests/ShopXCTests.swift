import NapkinTesting
import Shop
import XCTest

// The same two tests with XCTest. `NapkinLeakCheckedTestCase` as the base
// class: every test records its own napkin objects (setUp, the test,
// tearDown) and gets its own leak verdict, a grace period (1 s) after it
// ends, as `@Suite(.napkinLeakCheck)` gives ShopTests.swift's tests.
final class ShopXCTests: NapkinLeakCheckedTestCase {
    // Clean: the catalog is closed, the shop released, and everything goes.
    @MainActor
    func testBrowseTheCatalog() async {
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
    @MainActor
    func testLeaveTheShopWithTheCartOpen() async {
        var shop: ShopRouter? = ShopRouter()
        await shop!.launch()
        await shop!.openCart()
        shop = nil
    }
}
