import NapkinTrace
import Testing
import TestSupport

/// What the analyzer does for every rule: the grace period and its checks
/// (decided by trace time, by a live clock, or left undecided at the end),
/// sessions, partial traces, and the same verdict however the events come
/// (in a batch, one by one, or re-encoded). Each rule's own behaviour is
/// tested in `Rules/<Rule>Tests.swift`.
@Suite("Trace analyzer")
struct TraceAnalyzerTests {
    @Test("the fixtures written for no rule yield exactly their findings",
          arguments: try ExpectedFindings.load().cases(writtenFor: nil))
    func fixture(_ c: ExpectedFindings.Case) throws {
        try c.check()
    }

    @Test("the grace period is an option: a longer one leaves the leak undecided, a shorter one finds it")
    func graceOption() throws {
        let events = try Fixtures.events("not-deallocated")
        // Detach at 0.6 s, end at 2.6 s.
        let long = TraceAnalyzer.analyze(events, options: .init(grace: 5 * .second))
        #expect(long.isClean)
        #expect(long.undecided == 1)
        let short = TraceAnalyzer.analyze(events, options: .init(grace: 100_000_000))
        expectOnlyFinding(short, "not-deallocated OrderRouter#4", words: ["100ms"])
    }

    @Test("a check is decided by trace time, not by the number of events: a deinit just inside the grace period is fine")
    func deinitJustInsideGrace() {
        var b = TraceBuilder.homeTree()
        b.detach(4, from: 2)
        let detach = b.events[b.events.count - 2].time
        b.add(.deallocated(id: 4), at: detach + .second - 1)
        b.add(.deallocated(id: 3), at: detach + .second)
        b.add(.sessionEnd(reason: "exit"), at: detach + 3 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)

        // The main actor keeps running (it creates another router half-way) and
        // the deinit comes just after the grace period: reported.
        var late = TraceBuilder.homeTree()
        late.detach(4, from: 2)
        late.add(.interactorCreated(id: 9, type: "OtherInteractor"), at: detach + .second / 2)
        late.add(.routerCreated(id: 10, type: "OtherRouter", interactor: 9, interactorType: "OtherInteractor"))
        late.add(.deallocated(id: 4), at: detach + .second + 1)
        late.add(.deallocated(id: 3), at: detach + .second + 2)
        late.add(.sessionEnd(reason: "exit"), at: detach + 3 * .second)
        #expect(TraceAnalyzer.analyze(late.events).ruleAndSubject == ["not-deallocated HomeRouter#4"])
    }

    @Test("a main actor silent for the whole grace period (blocked, or idle): what it does first when it runs again counts as in time")
    func silentMainActor() {
        var b = TraceBuilder.homeTree()
        b.detach(4, from: 2)
        let detach = b.events[b.events.count - 2].time
        b.add(.mark(text: "another thread"), at: detach + .second / 2)
        b.add(.mark(text: "another thread"), at: detach + 2 * .second)     // trace time passes the deadline...
        b.add(.deallocated(id: 4), at: detach + 3 * .second)               // ...the main actor's first act after 3 s
        b.add(.deallocated(id: 3), at: detach + 3 * .second + 10)
        b.add(.sessionEnd(reason: "exit"), at: detach + 5 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)

        // Its catch-up lasts one grace period from its first event: a deinit after that is late.
        var late = TraceBuilder.homeTree()
        late.detach(4, from: 2)
        late.add(.interactorCreated(id: 9, type: "OtherInteractor"), at: detach + 3 * .second)
        late.add(.routerCreated(id: 10, type: "OtherRouter", interactor: 9, interactorType: "OtherInteractor"))
        late.add(.load(router: 2), at: detach + 3 * .second + .second / 2)
        late.add(.load(router: 2), at: detach + 4 * .second + .second / 4)
        late.add(.deallocated(id: 4), at: detach + 4 * .second + .second / 2)
        late.add(.deallocated(id: 3), at: detach + 4 * .second + .second / 2 + 10)
        late.add(.sessionEnd(reason: "exit"), at: detach + 6 * .second)
        #expect(TraceAnalyzer.analyze(late.events).ruleAndSubject == ["not-deallocated HomeRouter#4"])
    }

    @Test("a live view: advance(to:) decides a due check without any further event")
    func advanceDecidesChecks() {
        var b = TraceBuilder.homeTree()
        b.detach(4, from: 2)
        var analyzer = TraceAnalyzer()
        for event in b.events { analyzer.consume(event) }
        #expect(analyzer.findings.isEmpty)
        #expect(analyzer.pendingChecks > 0)
        analyzer.advance(to: b.time + .second / 2)
        #expect(analyzer.findings.isEmpty)
        analyzer.advance(to: b.time + 2 * .second)
        #expect(analyzer.findings.map(\.rule) == [.notDeallocated])
        #expect(analyzer.state.time == b.time + 2 * .second)
        // Finishing adds nothing twice.
        #expect(analyzer.finish().count == 1)
        #expect(analyzer.finish().count == 1)
    }

    @Test("several sessions in one stream: each is analysed on its own, dropped events per session")
    func severalSessions() {
        var b = TraceBuilder.homeTree()
        b.add(.dropped(count: 2, firstSeq: 100, lastSeq: 101))
        b.detach(4, from: 2)
        b.add(.sessionEnd(reason: "exit"), at: b.time + 3 * .second)
        var second = TraceBuilder.homeTree()
        second.add(.dropped(count: 1, firstSeq: 50, lastSeq: 50))
        second.add(.sessionEnd(reason: "exit"))
        var analyzer = TraceAnalyzer()
        for event in b.events + second.events { analyzer.consume(event) }
        analyzer.finish()
        #expect(analyzer.sessionCount == 2)
        #expect(analyzer.findings.map(\.rule) == [.notDeallocated, .eventsDropped, .eventsDropped])
        #expect(analyzer.findings.last?.message.contains("1 events") == true)
    }

    @Test("events about ids the trace never created (its beginning is missing) are not findings")
    func partialTrace() {
        var b = TraceBuilder()
        b.add(.attach(parent: 90, child: 92))
        b.add(.activate(interactor: 91))
        b.add(.deallocated(id: 92))
        b.add(.sessionEnd(reason: "exit"), at: 5 * .second)
        #expect(TraceAnalyzer.analyze(b.events, options: .init(expectTeardown: true)).isClean)
    }

    @Test("re-encoding a fixture's events as NDJSON gives the same events and findings", .dedicatedThread, .singleThreaded,
          arguments: try ExpectedFindings.load().allCasesWithTwins())
    func encodeRoundTrip(_ c: ExpectedFindings.Case) throws {
        let events = try Fixtures.events(c.fixture)
        var bytes: [UInt8] = []
        for event in events { TraceEncoder.append(event, to: &bytes) }
        let (again, _) = try readAll(bytes: bytes)
        #expect(again.events == events)
        #expect(TraceAnalyzer.analyze(again.events, options: c.options).findings
                == TraceAnalyzer.analyze(events, options: c.options).findings)
    }

    @Test("the analysis is the same when fed event by event with the live clock advancing in between", .dedicatedThread, .singleThreaded,
          arguments: try ExpectedFindings.load().allCasesWithTwins())
    func incremental(_ c: ExpectedFindings.Case) throws {
        let events = try Fixtures.events(c.fixture)
        var analyzer = TraceAnalyzer(options: c.options)
        for event in events {
            analyzer.advance(to: event.time)   // a live view's clock never runs ahead of the events here
            analyzer.consume(event)
        }
        analyzer.finish()
        let batch = TraceAnalyzer.analyze(events, options: c.options)
        #expect(analyzer.findings == batch.findings)
        #expect(analyzer.undecided == batch.undecided)
        #expect(analyzer.findings.count == c.findings.count)
    }
}
