import NapkinTrace
import Testing

/// `active-after-detach` (`Analysis/Rules/ActiveAfterDetachRule.swift`): an
/// interactor still active a grace period after its router left the tree.
@Suite("Rule active-after-detach")
struct ActiveAfterDetachRuleTests {
    /// Home is detached and deallocated at once; its interactor deactivates `delay` after the detach.
    private func lateDeactivation(_ delay: UInt64) -> (TraceBuilder, detach: TraceEvent) {
        var b = TraceBuilder.homeTree()
        let detach = b.add(.detach(parent: 2, child: 4))
        b.add(.deallocated(id: 4))
        b.add(.deactivate(interactor: 3), at: detach.time + delay)
        b.add(.deallocated(id: 3))
        b.add(.sessionEnd(reason: "exit"), at: b.time + 3 * .second)
        return (b, detach)
    }

    @Test("a slow deactivation within the grace period is fine; one after it is reported once, as the interactor")
    func gracePeriod() {
        #expect(TraceAnalyzer.analyze(lateDeactivation(.second / 2).0.events).isClean)
        let (late, detach) = lateDeactivation(2 * .second)
        // Not also a not-deallocated interactor: the deactivation that never finished is the cause.
        expectOnlyFinding(TraceAnalyzer.analyze(late.events), "active-after-detach HomeInteractor#3", seqs: [detach.seq], words: ["1s later"])
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .activeAfterDetach))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
