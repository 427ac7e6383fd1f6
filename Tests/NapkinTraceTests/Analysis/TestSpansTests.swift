@testable import NapkinTrace
import Testing

/// A finding names the test its cause happened in, from the trace's
/// `test started:` / `test ended:` marks (``NapkinTrace/testStarted(_:)``).
@Suite("Test spans")
struct TestSpansTests {
    /// A root, then a child attached by `attachSeq` and never detached, its
    /// parent deallocated at `deinitSeq`: an `undetached-child` whose cause
    /// (the parent's deinit) is at seq 12; marks around it as `marks` say.
    static func trace(marks: [(seq: UInt64, text: String)]) -> [TraceEvent] {
        var events: [TraceEvent] = [
            TraceEvent(seq: 1, time: 0, kind: .sessionStart(SessionInfo(app: "t", pid: 1, wallClock: 0))),
            TraceEvent(seq: 3, time: 10, kind: .routerCreated(id: 2, type: "Root", interactor: 1, interactorType: "RootInteractor")),
            TraceEvent(seq: 4, time: 20, kind: .launch(router: 2)),
            TraceEvent(seq: 6, time: 30, kind: .routerCreated(id: 4, type: "Host", interactor: 3, interactorType: "HostInteractor")),
            TraceEvent(seq: 7, time: 40, kind: .attach(parent: 2, child: 4)),
            TraceEvent(seq: 9, time: 50, kind: .routerCreated(id: 6, type: "Kept", interactor: 5, interactorType: "KeptInteractor")),
            TraceEvent(seq: 10, time: 60, kind: .attach(parent: 4, child: 6), location: CodeLocation(fileID: "App/Host.swift", line: 9)),
            TraceEvent(seq: 11, time: 70, kind: .detach(parent: 2, child: 4)),
            TraceEvent(seq: 12, time: 80, kind: .deallocated(id: 4)),
            TraceEvent(seq: 20, time: 3_000_000_000, kind: .launch(router: 2)),
        ]
        events += marks.map { TraceEvent(seq: $0.seq, time: 0, kind: .mark(text: $0.text)) }
        events.sort { $0.seq < $1.seq }
        for k in events.indices { events[k].time = max(events[k].time, k == 0 ? 0 : events[k - 1].time) }
        return events
    }

    static func undetached(_ events: [TraceEvent]) throws -> Finding {
        try #require(TraceAnalyzer.analyze(events).findings(.undetachedChild).first)
    }

    @Test("inside one test's span: the finding names it (and its code)")
    func oneTest() throws {
        let finding = try Self.undetached(Self.trace(marks: [(2, "test started: HostTests/keepsChild()"), (14, "test ended: HostTests/keepsChild()")]))
        #expect(finding.tests == ["HostTests/keepsChild()"])
        #expect(finding.locations.first?.location == CodeLocation(fileID: "App/Host.swift", line: 9))
    }

    @Test("tests running in parallel: the finding names each; outside every span: none")
    func parallelAndOutside() throws {
        let parallel = try Self.undetached(Self.trace(marks: [(2, "test started: A"), (5, "test started: B"), (8, "test ended: A"),
                                                              (13, "test ended: B"), (15, "test started: C")]))
        #expect(parallel.tests == ["B"])
        let overlapping = try Self.undetached(Self.trace(marks: [(2, "test started: A"), (5, "test started: B"), (13, "test ended: B"), (14, "test ended: A")]))
        #expect(overlapping.tests == ["A", "B"])
        let outside = try Self.undetached(Self.trace(marks: [(2, "test started: A"), (8, "test ended: A")]))
        #expect(outside.tests.isEmpty)
        let unmarked = try Self.undetached(Self.trace(marks: []))
        #expect(unmarked.tests.isEmpty)
    }

    @Test("bounded: names are cut, the oldest spans are forgotten, a test that never ends stays open")
    func bounded() {
        var spans = TestSpans()
        spans.note(mark: "test started: " + String(repeating: "x", count: 10_000), at: 1)
        #expect(spans.tests(at: 2).first?.count == TestSpans.maxName)
        for k in 0..<(TestSpans.limit + 10) { spans.note(mark: "test started: t\(k)", at: UInt64(10 + k)) }
        #expect(spans.tests(at: 5).isEmpty, "the first span was forgotten")
        #expect(spans.tests(at: .max).count == 5, "at most five names")
        spans.note(mark: "test ended: unknown", at: 99)
        spans.note(mark: "not a test mark", at: 100)
        #expect(spans.tests(at: UInt64(10 + TestSpans.limit + 9)).last == "t\(TestSpans.limit + 9)")
    }
}
