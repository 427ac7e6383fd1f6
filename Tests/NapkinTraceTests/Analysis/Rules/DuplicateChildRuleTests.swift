import NapkinTrace
import Testing

/// `duplicate-child` (`Analysis/Rules/DuplicateChildRule.swift`): a parent
/// with two attached children of the same type.
@Suite("Rule duplicate-child")
struct DuplicateChildRuleTests {
    @Test("duplicate-child is a heuristic: a parent holding several children of one type is flagged once per older child")
    func severalChildrenOfOneType() {
        var b = TraceBuilder()
        b.root(2)
        for id: NodeID in [4, 6, 8] { b.child(id, "Item", of: 2) }
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.ruleAndSubject == ["duplicate-child ItemRouter#4", "duplicate-child ItemRouter#6"], "\(report)")
        // Children of different types are fine.
        var mixed = TraceBuilder()
        mixed.root(2)
        mixed.child(4, "Home", of: 2)
        mixed.child(6, "Menu", of: 2)
        #expect(TraceAnalyzer.analyze(mixed.events).isClean)
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .duplicateChild))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
