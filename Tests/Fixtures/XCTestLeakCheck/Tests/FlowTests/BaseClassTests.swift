import Flows
import NapkinTesting
import XCTest

/// Every test of the class is leak-checked: `NapkinLeakCheckedTestCase`.
final class BaseClassTests: NapkinLeakCheckedTestCase {
    // Leaks: fails with one `undetached-child` failure, on the line of the basket's attach.
    @MainActor
    func testLeavesWithBasketOpen() async {
        await Flows.leaveWithBasketOpen()
    }

    // Clean: passes.
    @MainActor
    func testBrowsesTheShelf() async {
        await Flows.browseShelf()
    }

    // Leaks, but fails on its own first: only its own failure, no leak verdict.
    @MainActor
    func testFailsOnItsOwn() async {
        await Flows.leaveWithBasketOpen()
        XCTFail("fails on its own")
    }

    // Leaks, but throws: only the thrown error, no leak verdict.
    @MainActor
    func testThrows() async throws {
        await Flows.leaveWithBasketOpen()
        throw FlowError.stopped
    }
}

/// A block of a test is leak-checked: `napkinLeakCheck { ... }` in a plain `XCTestCase`.
final class FunctionTests: XCTestCase {
    // Leaks: fails with one `undetached-child` failure, on the line of the basket's attach.
    @MainActor
    func testLeavesWithBasketOpen() async {
        await napkinLeakCheck {
            await Flows.leaveWithBasketOpen()
        }
    }

    // Clean, even with everything expected gone: passes.
    @MainActor
    func testBrowsesTheShelf() async {
        await napkinLeakCheck(expectTeardown: true) {
            await Flows.browseShelf()
        }
    }

    // Failed before the block: only its own failure, no leak verdict.
    @MainActor
    func testFailsOnItsOwn() async {
        XCTFail("fails on its own")
        await napkinLeakCheck {
            await Flows.leaveWithBasketOpen()
        }
    }

    // The block throws: only the thrown error, no leak verdict.
    @MainActor
    func testThrows() async throws {
        try await napkinLeakCheck {
            await Flows.leaveWithBasketOpen()
            throw FlowError.stopped
        }
    }
}

/// What the tests that fail on their own throw.
enum FlowError: Error {
    case stopped
}
