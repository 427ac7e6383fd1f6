import NapkinTrace
import Testing
import TestSupport

/// `double-attach` (`Analysis/Rules/DoubleAttachRule.swift`): a router
/// attached while it is already attached.
@Suite("Rule double-attach")
struct DoubleAttachRuleTests {
    @Test("attached to a second parent without a detach: reported with the first parent, and the newest link wins")
    func secondParent() {
        var b = TraceBuilder.homeTree()
        b.child(6, "Menu", of: 2)
        let moved = b.add(.attach(parent: 6, child: 4))
        var analyzer = TraceAnalyzer()
        for event in b.events { analyzer.consume(event) }
        analyzer.finish()
        expectOnlyFinding(analyzer.report, "double-attach HomeRouter#4", seqs: [moved.seq], words: ["already attached to RootRouter#2"])
        #expect(analyzer.state[4]?.parent == 6)
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .doubleAttach))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
