@testable import NapkinTrace
import Testing

/// A `retained` record (what a retainer search in the app found holding a
/// router or interactor) joins every finding about that node of the rules
/// that report something alive past its grace period, whichever comes
/// first: at `finish()`, while streaming (`findings` of a live view), and
/// for findings already taken out (`takeFindings()`, then
/// `takeRetainerUpdates()`).
@Suite("Retained records join findings")
struct RetainedFindingsTests {
    static let cycle = Retainers(
        paths: ["HomeRouter#4.interactor → HomeInteractor#3.router (suspect) → HomeRouter#4 (cycle)"],
        found: 1, total: 1, note: nil)
    static let twoPaths = Retainers(
        paths: ["RootInteractor#1.store (suspect) → Store.screens[0] → HomeRouter#4", "Cache.items[\"home\"] → HomeRouter#4"],
        found: 2, total: 3, note: "1 more strong reference is outside what the search reaches (a global, a task)")
    static let nothing = Retainers(paths: [], found: 0, total: 1, note: "nothing the search reaches holds it")

    /// Home (router 4, interactor 3) detached from the root and never deallocated.
    static func leakedHome() -> TraceBuilder {
        var b = TraceBuilder.homeTree()
        b.detach(4, from: 2)
        return b
    }

    @Test("a record after the grace deadline explains the not-deallocated finding at finish()")
    func afterDeadline() {
        var b = Self.leakedHome()
        b.add(.retained(id: 4, retainers: Self.cycle), at: b.time + 2 * UInt64.second)
        let findings = TraceAnalyzer.analyze(b.events).findings
        let router = findings.filter { $0.rule == .notDeallocated && $0.id == 4 }
        #expect(router.count == 1)
        #expect(router.first?.retainers == Self.cycle)
        // The interactor's finding is about another node: no search about it ran.
        #expect(findings.filter { $0.id == 3 }.allSatisfy { $0.retainers == nil })
    }

    @Test("a record before the finding is established explains it too")
    func beforeDeadline() {
        var b = Self.leakedHome()
        b.add(.retained(id: 4, retainers: Self.twoPaths))
        b.add(.mark(text: "later"), at: b.time + 3 * UInt64.second)
        let finding = TraceAnalyzer.analyze(b.events).findings.first { $0.rule == .notDeallocated && $0.id == 4 }
        #expect(finding?.retainers == Self.twoPaths)
        #expect(finding?.retainers?.key == "RootInteractor.store")
    }

    @Test("the latest record counts; a record about another node explains nothing here")
    func latestCounts() {
        var b = Self.leakedHome()
        b.add(.retained(id: 4, retainers: Self.nothing), at: b.time + 2 * UInt64.second)
        b.add(.retained(id: 4, retainers: Self.cycle))
        b.add(.retained(id: 2, retainers: Self.twoPaths))
        let findings = TraceAnalyzer.analyze(b.events).findings
        #expect(findings.first { $0.id == 4 }?.retainers == Self.cycle)
        #expect(!findings.contains { $0.id == 2 })
    }

    @Test("streaming: a finding already established gains its retainers when the record arrives")
    func streaming() {
        let b = Self.leakedHome()
        var analyzer = TraceAnalyzer()
        for event in b.events { analyzer.consume(event) }
        analyzer.advance(to: b.time + 2 * UInt64.second)
        let shown = analyzer.findings.firstIndex { $0.rule == .notDeallocated && $0.id == 4 }
        #expect(shown != nil)
        #expect(analyzer.findings.allSatisfy { $0.retainers == nil })
        analyzer.consume(TraceEvent(seq: b.seq + 1, time: b.time + 2 * UInt64.second + 1,
                                    kind: .retained(id: 4, retainers: Self.cycle)))
        #expect(shown.map { analyzer.findings[$0].retainers } == Self.cycle)
        #expect(analyzer.state.retainers(of: 4) == Self.cycle)
    }

    @Test("findings taken out before the record come back with it from takeRetainerUpdates(), once")
    func takenOut() {
        let b = Self.leakedHome()
        var analyzer = TraceAnalyzer()
        for event in b.events { analyzer.consume(event) }
        analyzer.advance(to: b.time + 2 * UInt64.second)
        let taken = analyzer.takeFindings()
        #expect(taken.contains { $0.rule == .notDeallocated && $0.id == 4 && $0.retainers == nil })
        #expect(analyzer.takeRetainerUpdates().isEmpty)
        analyzer.consume(TraceEvent(seq: b.seq + 1, time: b.time + 2 * UInt64.second + 1,
                                    kind: .retained(id: 4, retainers: Self.cycle)))
        let updates = analyzer.takeRetainerUpdates()
        #expect(updates.map(\.rule) == [.notDeallocated])
        #expect(updates.first?.retainers == Self.cycle)
        #expect(updates.first?.fingerprint == taken.first { $0.id == 4 }?.fingerprint)
        #expect(analyzer.takeRetainerUpdates().isEmpty)
        // A finding taken out waits for a search only while its node lives.
        var gone = Self.leakedHome()
        var second = TraceAnalyzer()
        for event in gone.events { second.consume(event) }
        second.advance(to: gone.time + 2 * UInt64.second)
        #expect(!second.takeFindings().isEmpty)
        gone.add(.deallocated(id: 4), at: gone.time + 3 * UInt64.second)
        gone.add(.retained(id: 4, retainers: Self.cycle))
        for event in gone.events.suffix(2) { second.consume(event) }
        #expect(second.takeRetainerUpdates().isEmpty)
    }

    @Test("active-after-detach and undetached-child: the interactor's and the router's own records")
    func interactorAndRouterRules() {
        // Detached without deactivating: the interactor stays active.
        var active = TraceBuilder.homeTree()
        active.add(.detach(parent: 2, child: 4))
        active.add(.retained(id: 3, retainers: Self.nothing), at: active.time + 2 * UInt64.second)
        let found = TraceAnalyzer.analyze(active.events).findings
        let interactor = found.first { $0.rule == .activeAfterDetach }
        #expect(interactor?.id == 3)
        #expect(interactor?.retainers == Self.nothing)
        #expect(found.filter { $0.id == 4 }.allSatisfy { $0.retainers == nil })

        // Its parent deallocated without detaching it: undetached-child.
        var orphan = TraceBuilder.homeTree()
        orphan.add(.retained(id: 4, retainers: Self.cycle))
        orphan.release(2)
        orphan.add(.mark(text: "later"), at: orphan.time + 3 * UInt64.second)
        let undetached = TraceAnalyzer.analyze(orphan.events).findings.first { $0.rule == .undetachedChild }
        #expect(undetached?.id == 4)
        #expect(undetached?.retainers == Self.cycle)
    }

    @Test("over-budget names its newest survivor, which carries that node's record")
    func population() {
        var b = TraceBuilder()
        b.root(2)
        b.child(4, "Home", of: 2)
        b.child(6, "Home", of: 2)
        b.add(.retained(id: 6, retainers: Self.cycle))
        let finding = TraceAnalyzer.analyze(b.events, options: .init(maxAlive: ["HomeRouter": 1])).findings
            .first { $0.rule == .overBudget && $0.subject == .router }
        #expect(finding?.id == 6)
        #expect(finding?.retainers == Self.cycle)
    }

    @Test("alive-at-end carries retainers too, rules about other things never; the fingerprint never changes with them")
    func otherRulesAndFingerprint() {
        var b = TraceBuilder.homeTree()
        b.add(.retained(id: 2, retainers: Self.cycle))
        b.add(.sessionEnd(reason: "exit"))
        let teardown = TraceAnalyzer.analyze(b.events, options: .init(expectTeardown: true)).findings
        #expect(teardown.contains { $0.rule == .aliveAtEnd && $0.id == 2 })
        #expect(teardown.allSatisfy { ($0.rule == .aliveAtEnd && $0.id == 2) == ($0.retainers == Self.cycle) }, "\(teardown)")
        #expect(!Finding.Rule.eventsDropped.searchesRetainers && !Finding.Rule.orphanedTask.searchesRetainers)

        var leaked = Self.leakedHome()
        var plain = leaked
        plain.add(.mark(text: "later"), at: leaked.time + 2 * UInt64.second)
        let without = TraceAnalyzer.analyze(plain.events).findings
        leaked.add(.retained(id: 4, retainers: Self.cycle), at: leaked.time + 2 * UInt64.second)
        let with = TraceAnalyzer.analyze(leaked.events).findings
        #expect(!without.isEmpty)
        #expect(without.map(\.fingerprint) == with.map(\.fingerprint))
        #expect(with.contains { $0.retainers != nil })
    }

    @Test("the model keeps the latest record of a live node and forgets it at its deinit; a record about a gone node is no misuse")
    func model() {
        var b = Self.leakedHome()
        b.add(.retained(id: 4, retainers: Self.nothing))
        b.add(.retained(id: 4, retainers: Self.cycle))
        var state = b.state()
        #expect(state.retainers(of: 4) == Self.cycle)
        #expect(state.eventCount(.retained) == 2)
        #expect(state.apply(TraceEvent(seq: b.seq + 1, time: b.time + 1, kind: .deallocated(id: 4))) == nil)
        #expect(state.retainers(of: 4) == nil)
        #expect(state.apply(TraceEvent(seq: b.seq + 2, time: b.time + 2, kind: .retained(id: 4, retainers: Self.cycle))) == nil)
        #expect(state.retainers(of: 4) == nil)
        // An id the session never created is an unknown id, as for any kind.
        #expect(state.apply(TraceEvent(seq: b.seq + 3, time: b.time + 3, kind: .retained(id: 99, retainers: Self.cycle)))?.kind == .unknownNode)
    }

    @Test("the history keeps the latest record on the router's row, the interactor's apart")
    func history() {
        var b = Self.leakedHome()
        b.add(.retained(id: 4, retainers: Self.cycle))
        b.add(.retained(id: 3, retainers: Self.nothing))
        var history = TraceHistory()
        for event in b.events { history.apply(event) }
        #expect(history.life(of: 4)?.retainers == Self.cycle)
        #expect(history.life(of: 4)?.interactorRetainers == Self.nothing)
    }
}
