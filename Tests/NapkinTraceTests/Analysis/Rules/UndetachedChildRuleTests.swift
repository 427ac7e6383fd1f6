import NapkinTrace
import Testing
import TestSupport

/// `undetached-child` (`Analysis/Rules/UndetachedChildRule.swift`): a router
/// still attached to a parent that was deallocated, and alive a grace period later.
@Suite("Rule undetached-child")
struct UndetachedChildRuleTests {
    @Test("a root deallocated with its tree attached is clean when the tree follows it")
    func rootTeardown() {
        var b = TraceBuilder.homeProfileTree()
        b.add(.deallocated(id: 2))
        for interactor: NodeID in [1, 3, 5] { b.add(.deactivate(interactor: interactor)) }
        b.add(.deallocated(id: 1))
        b.release(4)
        b.release(6)
        b.add(.sessionEnd(reason: "exit"), at: b.time + 3 * .second)
        let report = TraceAnalyzer.analyze(b.events, options: .init(expectTeardown: true))
        #expect(report.isClean, "\(report)")
        #expect(report.undecided == 0)
    }

    @Test("a root deallocated while its children are held elsewhere: the children are un-detached, and still active")
    func rootTeardownWithHeldChild() {
        var b = TraceBuilder.homeTree()
        let rootDeinit = b.add(.deallocated(id: 2))
        b.add(.deactivate(interactor: 1))
        b.add(.deallocated(id: 1))
        // Home (#4) is held by something else and never deactivates.
        b.add(.mark(text: "idle"), at: b.time + 3 * .second)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(Set(report.ruleAndSubject) == ["undetached-child HomeRouter#4", "active-after-detach HomeInteractor#3"], "\(report)")
        #expect(report.findings(.undetachedChild).first?.seqs == [rootDeinit.seq])
        #expect(report.findings(.undetachedChild).first?.message.contains("RootRouter#2") == true)
    }

    @Test("a child of a deallocated parent that is attached elsewhere within the grace period is not reported")
    func reattachedOrphan() {
        var b = TraceBuilder.homeProfileTree()
        b.detach(4, from: 2)
        b.release(4)                     // Profile is still attached to Home: orphaned
        b.wait(.second / 4)
        b.add(.attach(parent: 2, child: 6))
        b.add(.mark(text: "idle"), at: b.time + 3 * .second)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.isClean, "\(report)")
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .undetachedChild))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
