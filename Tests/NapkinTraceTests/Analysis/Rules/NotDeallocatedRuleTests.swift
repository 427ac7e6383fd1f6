import NapkinTrace
import Testing
import TestSupport

/// `not-deallocated` (`Analysis/Rules/NotDeallocatedRule.swift`): a router
/// that left the tree, or the interactor of a deallocated router, still
/// alive a grace period later.
@Suite("Rule not-deallocated")
struct NotDeallocatedRuleTests {
    @Test("a detached subtree that leaks as a whole is one finding, on its top router")
    func leakedSubtreeIsOneFinding() {
        var b = TraceBuilder.homeProfileTree()
        b.child(8, "Avatar", of: 6)
        b.add(.detach(parent: 2, child: 4))
        for interactor: NodeID in [3, 5, 7] { b.add(.deactivate(interactor: interactor)) }
        b.add(.mark(text: "idle"), at: b.time + 3 * .second)
        #expect(TraceAnalyzer.analyze(b.events).ruleAndSubject == ["not-deallocated HomeRouter#4"])
    }

    @Test("a router re-attached within the grace period is not a leak; kept detached longer, it is reported")
    func reattachment() {
        var quick = TraceBuilder.homeTree()
        quick.detach(4, from: 2)
        quick.wait(.second / 2)
        quick.attach(4, to: 2)
        quick.add(.mark(text: "idle"), at: quick.time + 5 * .second)
        #expect(TraceAnalyzer.analyze(quick.events).isClean)

        // Keeping a detached router around to re-attach it later is reported: it
        // left the tree and was not deallocated within the grace period.
        var slow = TraceBuilder.homeTree()
        slow.detach(4, from: 2)
        slow.wait(.second / 2)
        slow.child(8, "Menu", of: 2)        // the main actor runs on meanwhile
        slow.wait(3 * .second)
        slow.attach(4, to: 2)
        slow.add(.mark(text: "idle"), at: slow.time + 5 * .second)
        #expect(TraceAnalyzer.analyze(slow.events).ruleAndSubject == ["not-deallocated HomeRouter#4"])
    }

    @Test("a child detached from its already detached parent, then leaked, is reported")
    func detachFromDetachedParent() {
        var b = TraceBuilder.homeProfileTree()
        // Home leaves the tree; while resigning it detaches its own child.
        b.add(.detach(parent: 2, child: 4))
        b.add(.deactivate(interactor: 3))
        b.add(.deactivate(interactor: 5))
        let detach = b.add(.detach(parent: 4, child: 6))
        // Home goes away; Profile never does.
        b.release(4)
        b.add(.mark(text: "idle"), at: b.time + 3 * .second)
        expectOnlyFinding(TraceAnalyzer.analyze(b.events), "not-deallocated ProfileRouter#6", seqs: [detach.seq])
    }

    @Test("its fixtures yield exactly their findings; the clean twins nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .notDeallocated))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
