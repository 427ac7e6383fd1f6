import NapkinTrace
import Testing
import TestSupport

/// `events-dropped` (`Analysis/Rules/EventsDroppedRule.swift`): the app's
/// trace writer dropped events; one finding per session, at its end.
@Suite("Rule events-dropped")
struct EventsDroppedRuleTests {
    @Test("several dropped records: one finding with the total and the first three ranges, each lowest first")
    func severalRecords() {
        var b = TraceBuilder()
        b.add(.dropped(count: 2, firstSeq: 10, lastSeq: 11))
        b.add(.dropped(count: 1, firstSeq: 20, lastSeq: 20))
        b.add(.dropped(count: 3, firstSeq: 32, lastSeq: 30))   // written backwards
        b.add(.dropped(count: 4, firstSeq: 40, lastSeq: 43))
        b.add(.sessionEnd(reason: "exit"))
        let report = TraceAnalyzer.analyze(b.events)
        expectOnlyFinding(report, "events-dropped trace", seqs: [], words: ["dropped 10 events (seq 10-11, 20-20, 30-32, ...)"])
        #expect(report.droppedEvents == 10)
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .eventsDropped))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
