import NapkinTrace
import Testing

/// The analyzer's behaviour at the edges of its definitions: the grace period,
/// checks decided by a live clock, re-attachment, sessions, and shapes the
/// fixtures do not cover.
@Suite("Leak analyzer edge cases")
struct TraceAnalyzerEdgeTests {
    private static let second: UInt64 = 1_000_000_000

    /// root #2 (interactor #1) with Home #4 (interactor #3) attached, at t ≈ 0.
    private func homeTree() -> TraceBuilder {
        var b = TraceBuilder()
        b.root(2)
        b.router(4, "Home")
        b.attach(4, to: 2)
        return b
    }

    private func rules(_ report: AnalysisReport) -> [String] {
        report.findings.map { "\($0.rule.rawValue) \($0.subjectName)" }
    }

    @Test("the grace period is an option: a longer one leaves the leak undecided, a shorter one finds it")
    func graceOption() throws {
        let events = try readAll(path: Fixtures.path("not-deallocated")).0.events
        // Detach at 0.6 s, end at 2.6 s.
        let long = TraceAnalyzer.analyze(events, options: .init(grace: 5 * Self.second))
        #expect(long.isClean)
        #expect(long.undecided == 1)
        let short = TraceAnalyzer.analyze(events, options: .init(grace: 100_000_000))
        #expect(rules(short) == ["not-deallocated OrderRouter#4"])
        #expect(short.findings.first?.message.contains("100ms") == true)
    }

    @Test("a check is decided by trace time, not by the number of events: a deinit just inside the grace period is fine")
    func deinitJustInsideGrace() {
        var b = homeTree()
        b.detach(4, from: 2)
        let detach = b.events[b.events.count - 2].time
        b.add(.deallocated(id: 4), at: detach + Self.second - 1)
        b.add(.deallocated(id: 3), at: detach + Self.second)
        b.add(.sessionEnd(reason: "exit"), at: detach + 3 * Self.second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)

        var late = homeTree()
        late.detach(4, from: 2)
        late.add(.deallocated(id: 4), at: detach + Self.second + 1)
        late.add(.deallocated(id: 3), at: detach + Self.second + 2)
        late.add(.sessionEnd(reason: "exit"), at: detach + 3 * Self.second)
        #expect(rules(TraceAnalyzer.analyze(late.events)) == ["not-deallocated HomeRouter#4"])
    }

    @Test("a live view: advance(to:) decides a due check without any further event")
    func advanceDecidesChecks() {
        var b = homeTree()
        b.detach(4, from: 2)
        var analyzer = TraceAnalyzer()
        for event in b.events { analyzer.consume(event) }
        #expect(analyzer.findings.isEmpty)
        #expect(analyzer.pendingChecks > 0)
        analyzer.advance(to: b.time + Self.second / 2)
        #expect(analyzer.findings.isEmpty)
        analyzer.advance(to: b.time + 2 * Self.second)
        #expect(analyzer.findings.map(\.rule) == [.notDeallocated])
        #expect(analyzer.state.time == b.time + 2 * Self.second)
        // Finishing adds nothing twice.
        #expect(analyzer.finish().count == 1)
        #expect(analyzer.finish().count == 1)
    }

    @Test("a router re-attached within the grace period is not a leak; kept detached longer, it is reported")
    func reattachment() {
        var quick = homeTree()
        quick.detach(4, from: 2)
        quick.wait(Self.second / 2)
        quick.attach(4, to: 2)
        quick.add(.mark(text: "idle"), at: quick.time + 5 * Self.second)
        #expect(TraceAnalyzer.analyze(quick.events).isClean)

        // Keeping a detached router around to re-attach it later is reported: it
        // left the tree and was not deallocated within the grace period.
        var slow = homeTree()
        slow.detach(4, from: 2)
        slow.wait(3 * Self.second)
        slow.attach(4, to: 2)
        slow.add(.mark(text: "idle"), at: slow.time + 5 * Self.second)
        #expect(rules(TraceAnalyzer.analyze(slow.events)) == ["not-deallocated HomeRouter#4"])
    }

    @Test("a child detached from its already detached parent, then leaked, is reported")
    func detachFromDetachedParent() {
        var b = homeTree()
        b.router(6, "Profile")
        b.attach(6, to: 4)
        // Home leaves the tree; while resigning it detaches its own child.
        b.add(.detach(parent: 2, child: 4))
        b.add(.deactivate(interactor: 3))
        b.add(.deactivate(interactor: 5))
        b.add(.detach(parent: 4, child: 6))
        // Home goes away; Profile never does.
        b.release(4)
        b.add(.mark(text: "idle"), at: b.time + 3 * Self.second)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(rules(report) == ["not-deallocated ProfileRouter#6"], "\(report)")
        #expect(report.findings.first?.seqs == [b.events.first { $0.kind == .detach(parent: 4, child: 6) }!.seq])
    }

    @Test("a detached subtree that leaks as a whole is one finding, on its top router")
    func leakedSubtreeIsOneFinding() {
        var b = homeTree()
        b.router(6, "Profile")
        b.attach(6, to: 4)
        b.router(8, "Avatar")
        b.attach(8, to: 6)
        b.add(.detach(parent: 2, child: 4))
        for interactor: NodeID in [3, 5, 7] { b.add(.deactivate(interactor: interactor)) }
        b.add(.mark(text: "idle"), at: b.time + 3 * Self.second)
        #expect(rules(TraceAnalyzer.analyze(b.events)) == ["not-deallocated HomeRouter#4"])
    }

    @Test("a root deallocated with its tree attached is clean when the tree follows it")
    func rootTeardown() {
        var b = homeTree()
        b.router(6, "Profile")
        b.attach(6, to: 4)
        b.add(.deallocated(id: 2))
        for interactor: NodeID in [1, 3, 5] { b.add(.deactivate(interactor: interactor)) }
        b.add(.deallocated(id: 1))
        b.release(4)
        b.release(6)
        b.add(.sessionEnd(reason: "exit"), at: b.time + 3 * Self.second)
        let report = TraceAnalyzer.analyze(b.events, options: .init(expectTeardown: true))
        #expect(report.isClean, "\(report)")
        #expect(report.undecided == 0)
    }

    @Test("a root deallocated while its children are held elsewhere: the children are un-detached, and still active")
    func rootTeardownWithHeldChild() {
        var b = homeTree()
        b.add(.deallocated(id: 2))
        b.add(.deactivate(interactor: 1))
        b.add(.deallocated(id: 1))
        // Home (#4) is held by something else and never deactivates.
        b.add(.mark(text: "idle"), at: b.time + 3 * Self.second)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(Set(rules(report)) == ["undetached-child HomeRouter#4", "active-after-detach HomeInteractor#3"], "\(report)")
    }

    @Test("a task that ignores cancellation is not reported while its owner is active again")
    func reactivatedOwner() {
        var b = homeTree()
        b.add(.taskStart(task: 9, owner: 3, label: "poll"))
        b.detach(4, from: 2)
        b.add(.taskCancel(task: 9))
        b.wait(Self.second / 4)
        b.attach(4, to: 2)   // back within the grace period: the owner is active again
        b.add(.mark(text: "idle"), at: b.time + 3 * Self.second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)
        // The next deactivation checks it again.
        b.detach(4, from: 2)
        b.add(.deallocated(id: 4))
        b.add(.mark(text: "idle"), at: b.time + 3 * Self.second)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(rules(report) == ["orphaned-task HomeInteractor#3 'poll'"], "\(report)")
    }

    @Test("duplicate-child is a heuristic: a parent holding several children of one type is flagged once per older child")
    func severalChildrenOfOneType() {
        var b = TraceBuilder()
        b.root(2)
        for id: NodeID in [4, 6, 8] {
            b.router(id, "Item")
            b.attach(id, to: 2)
        }
        let report = TraceAnalyzer.analyze(b.events)
        #expect(rules(report) == ["duplicate-child ItemRouter#4", "duplicate-child ItemRouter#6"], "\(report)")
        // Children of different types are fine.
        var mixed = TraceBuilder()
        mixed.root(2)
        mixed.router(4, "Home")
        mixed.attach(4, to: 2)
        mixed.router(6, "Menu")
        mixed.attach(6, to: 2)
        #expect(TraceAnalyzer.analyze(mixed.events).isClean)
    }

    @Test("several sessions in one stream: each is analysed on its own, dropped events per session")
    func severalSessions() {
        var b = homeTree()
        b.add(.dropped(count: 2, firstSeq: 100, lastSeq: 101))
        b.detach(4, from: 2)
        b.add(.sessionEnd(reason: "exit"), at: b.time + 3 * Self.second)
        var second = homeTree()
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
        b.add(.sessionEnd(reason: "exit"), at: 5 * Self.second)
        #expect(TraceAnalyzer.analyze(b.events, options: .init(expectTeardown: true)).isClean)
    }

    @Test("expect-teardown reports each alive subtree once, and an interactor whose router is gone")
    func aliveAtEnd() {
        var b = homeTree()
        b.router(6, "Profile")          // never attached: its own subtree
        b.add(.interactorCreated(id: 7, type: "LoneInteractor"))
        b.add(.sessionEnd(reason: "exit"))
        let report = TraceAnalyzer.analyze(b.events, options: .init(expectTeardown: true))
        #expect(rules(report) == ["alive-at-end RootRouter#2", "alive-at-end ProfileRouter#6", "alive-at-end LoneInteractor#7"], "\(report)")
        #expect(report.findings.allSatisfy { $0.severity == .error })
    }
}
