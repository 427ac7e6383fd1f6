import NapkinTrace
import Testing
import TestSupport

/// `event-after-deinit` (`Analysis/Rules/EventAfterDeinitRule.swift`): an
/// event about a router or interactor the trace already deallocated.
@Suite("Rule event-after-deinit")
struct EventAfterDeinitRuleTests {
    @Test("each event after the deinit is one finding about the trace, naming the event's kind")
    func oncePerEvent() {
        var b = TraceBuilder.homeTree()
        b.detach(4, from: 2)
        b.release(4)
        let load = b.add(.load(router: 4))
        let attach = b.add(.attach(parent: 2, child: 4))
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.findings.map(\.rule) == [.eventAfterDeinit, .eventAfterDeinit], "\(report)")
        #expect(report.findings.map(\.seqs) == [[load.seq], [attach.seq]])
        #expect(report.findings.allSatisfy { $0.subject == .trace && $0.type == "#4" && $0.id == 4 })
        #expect(report.findings.first?.message.contains("load refers to #4") == true)
        #expect(report.findings.last?.message.contains("attach refers to #4") == true)
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .eventAfterDeinit))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
