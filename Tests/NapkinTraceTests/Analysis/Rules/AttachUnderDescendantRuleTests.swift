import NapkinTrace
import Testing
import TestSupport

/// `attach-under-descendant` (`Analysis/Rules/AttachUnderDescendantRule.swift`):
/// an attach that would make the tree a cycle; the model ignores the link.
@Suite("Rule attach-under-descendant")
struct AttachUnderDescendantRuleTests {
    @Test("attaching a router under its own descendant is refused and reported, never a cycle")
    func cycleIsRefused() {
        let depth = 10
        let bottom = UInt64(2 * depth)
        let events = TraceBuilder.chain(depth: depth, then: [.attach(parent: bottom, child: 4), .attach(parent: 6, child: 6)])
        var analyzer = TraceAnalyzer()
        for event in events { analyzer.consume(event) }
        analyzer.finish()
        let cycles = analyzer.findings.filter { $0.message.contains("a cycle") }
        #expect(cycles.count == 2, "\(analyzer.findings)")
        #expect(cycles.allSatisfy { $0.rule == .attachUnderDescendant })
        // The tree is unchanged: still one chain.
        #expect(analyzer.state.liveTree().count == depth)
        #expect(analyzer.state[4]?.parent == 2)
        #expect(analyzer.state[bottom]?.children.isEmpty == true)
    }

    @Test("under itself or under a descendant: one warning per attach, naming what it was attached under, and no double-attach")
    func messages() {
        var b = TraceBuilder.homeProfileTree()
        let itself = b.add(.attach(parent: 4, child: 4))
        let rootUnderGrandchild = b.add(.attach(parent: 6, child: 2))
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.ruleAndSubject == ["attach-under-descendant HomeRouter#4", "attach-under-descendant RootRouter#2"], "\(report)")
        #expect(report.findings.map(\.seqs) == [[itself.seq], [rootUnderGrandchild.seq]])
        #expect(report.findings.allSatisfy { $0.severity == .warning && $0.subject == .router })
        #expect(report.findings.first?.message.contains("attached under itself") == true)
        #expect(report.findings.last?.message.contains("under ProfileRouter#6, one of its own descendants") == true)
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .attachUnderDescendant))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
