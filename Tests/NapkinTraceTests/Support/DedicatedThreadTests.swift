import Testing
import TestSupport

/// The `.dedicatedThread` trait (Tests/TestSupport) moves a test's code off
/// the cooperative pool, and keeps what Swift Testing needs of the task.
@Suite("TestSupport: .dedicatedThread")
struct DedicatedThreadTests {
    @Test("a synchronous test with the trait runs on its own thread", .dedicatedThread)
    func synchronousMoves() {
        #expect(DedicatedThread.isCurrent)
    }

    @Test("an async test with the trait stays there across suspensions", .dedicatedThread)
    func asyncStays() async {
        #expect(DedicatedThread.isCurrent)
        await Task.yield()
        try? await Task.sleep(for: .milliseconds(1))
        #expect(DedicatedThread.isCurrent)
    }

    @Test("a test without it runs on the pool")
    func withoutTrait() {
        #expect(!DedicatedThread.isCurrent)
    }

    @Test("the current test is known there (issues are recorded against it)", .dedicatedThread)
    func currentTestKnown() {
        #expect(Test.current?.displayName?.contains("the current test is known there") == true)
    }
}
