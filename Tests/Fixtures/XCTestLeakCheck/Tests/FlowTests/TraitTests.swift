import Flows
import NapkinTesting
import Testing

/// The same flows under the Swift Testing trait: the same findings as the
/// XCTest support's, on the same lines.
@Suite(.napkinLeakCheck)
@MainActor
struct TraitTests {
    @Test
    func leavesWithBasketOpen() async {
        await Flows.leaveWithBasketOpen()
    }

    @Test(.napkinLeakCheck(expectTeardown: true))
    func browsesTheShelf() async {
        await Flows.browseShelf()
    }
}
