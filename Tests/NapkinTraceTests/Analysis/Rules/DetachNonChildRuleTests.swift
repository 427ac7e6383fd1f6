import NapkinTrace
import Testing
import TestSupport

/// `detach-non-child` (`Analysis/Rules/DetachNonChildRule.swift`): a detach
/// of a router that is not attached to that parent.
@Suite("Rule detach-non-child")
struct DetachNonChildRuleTests {
    @Test("a detach from the wrong parent is reported and changes nothing: the router stays attached, no leak follows")
    func wrongParent() {
        var b = TraceBuilder.homeProfileTree()
        let wrong = b.add(.detach(parent: 2, child: 6))
        b.add(.mark(text: "idle"), at: b.time + 3 * .second)
        expectOnlyFinding(TraceAnalyzer.analyze(b.events), "detach-non-child ProfileRouter#6", seqs: [wrong.seq],
                          words: ["RootRouter#2 detached ProfileRouter#6"])
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .detachNonChild))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
