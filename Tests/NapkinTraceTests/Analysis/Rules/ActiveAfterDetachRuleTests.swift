import NapkinTrace
import Testing
import TestSupport

/// `active-after-detach` (`Analysis/Rules/ActiveAfterDetachRule.swift`): an
/// interactor still active a grace period after its router left the tree.
@Suite("Rule active-after-detach")
struct ActiveAfterDetachRuleTests {
    /// Home is detached and deallocated at once; its interactor deactivates `delay` after the
    /// detach; meanwhile, just before that, the main actor creates another router (it is not blocked).
    private func lateDeactivation(_ delay: UInt64, mainActorBusy: Bool = false) -> (TraceBuilder, detach: TraceEvent) {
        var b = TraceBuilder.homeTree()
        let detach = b.add(.detach(parent: 2, child: 4))
        b.add(.deallocated(id: 4))
        if !mainActorBusy {
            b.add(.interactorCreated(id: 9, type: "OtherInteractor"), at: detach.time + delay - 1_000)
            b.add(.routerCreated(id: 10, type: "OtherRouter", interactor: 9, interactorType: "OtherInteractor"))
        }
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

    @Test("while the main actor writes nothing (blocked), a late deactivation is not held against the interactor")
    func blockedMainActor() {
        // Deactivation is driven from the main actor: without main-actor progress past the
        // deadline, the interactor had no chance to resign, and its late deactivation is fine.
        #expect(TraceAnalyzer.analyze(lateDeactivation(2 * .second, mainActorBusy: true).0.events).isClean)
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .activeAfterDetach))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
