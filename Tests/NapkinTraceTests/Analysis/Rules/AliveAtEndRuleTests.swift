import NapkinTrace
import Testing
import TestSupport

/// `alive-at-end` (`Analysis/Rules/AliveAtEndRule.swift`): with
/// expect-teardown, what is still alive at the end of the trace.
@Suite("Rule alive-at-end")
struct AliveAtEndRuleTests {
    @Test("expect-teardown reports each alive subtree once, and an interactor whose router is gone")
    func aliveAtEnd() {
        var b = TraceBuilder.homeTree()
        b.router(6, "Profile")          // never attached: its own subtree
        b.add(.interactorCreated(id: 7, type: "LoneInteractor"))
        b.add(.sessionEnd(reason: "exit"))
        let report = TraceAnalyzer.analyze(b.events, options: .init(expectTeardown: true))
        #expect(report.ruleAndSubject == ["alive-at-end RootRouter#2", "alive-at-end ProfileRouter#6", "alive-at-end LoneInteractor#7"], "\(report)")
        #expect(report.findings.allSatisfy { $0.severity == .error })
        // Without expect-teardown, nothing.
        #expect(TraceAnalyzer.analyze(b.events).isClean)
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .aliveAtEnd))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
