import Flows
import NapkinTesting
import XCTest

/// Run with `swift test --parallel`: each leaking test reports only its
/// own router, and the clean ones, which expect everything they created to
/// be gone, see nothing of the others.
final class ParallelTests: NapkinLeakCheckedTestCase {
    // Per test: the clean ones expect a full teardown.
    override var leakCheck: NapkinLeakCheck {
        name.contains("Clean") ? .napkinLeakCheck(expectTeardown: true) : .napkinLeakCheck
    }

    @MainActor
    func testLeaksTheBasket() async {
        await Flows.leaveWithBasketOpen()
    }

    @MainActor
    func testLeaksTheWishlist() async {
        await Flows.leaveWithWishlistOpen()
    }

    @MainActor
    func testCleanOne() async {
        await Flows.browseShelf()
    }

    @MainActor
    func testCleanTwo() async {
        await Flows.browseShelf()
        await Flows.browseShelf()
    }

    func testCleanSynchronous() {
        // Nothing napkin: a synchronous test is checked too, and passes.
        XCTAssertTrue(true)
    }
}
