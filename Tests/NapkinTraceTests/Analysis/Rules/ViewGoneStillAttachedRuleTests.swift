import NapkinTrace
import Testing
import TestSupport

/// `view-gone-still-attached` (`Analysis/Rules/ViewGoneStillAttachedRule.swift`):
/// a router whose view was removed (popped, dismissed) while it was attached
/// in the live tree, still attached there with its view removed a grace
/// period later.
@Suite("Rule view-gone-still-attached")
struct ViewGoneStillAttachedRuleTests {
    /// ``TraceBuilder/homeTree()`` with Home's view shown at 0.1 s.
    private func homeShown() -> TraceBuilder {
        var b = TraceBuilder.homeTree()
        b.add(.view(router: 4, appearance: .shown), at: 100_000_000)
        return b
    }

    /// The analyzer after folding `events` one by one, without finishing (the trace goes on).
    private func analyzer(_ events: [TraceEvent], options: TraceAnalyzer.Options = .init()) -> TraceAnalyzer {
        var analyzer = TraceAnalyzer(options: options)
        for event in events { analyzer.consume(event) }
        return analyzer
    }

    @Test("a view removed while attached, still attached a grace period later: one finding with its attach and the removal")
    func backNavigationLeak() {
        var b = homeShown()
        let removal = b.add(.view(router: 4, appearance: .removed), at: 500_000_000)
        b.add(.mark(text: "idle"), at: 3 * .second)
        let report = TraceAnalyzer.analyze(b.events)
        let attach = b.events.first { $0.kind == .attach(parent: 2, child: 4) }!
        let finding = expectOnlyFinding(report, "view-gone-still-attached HomeRouter#4", seqs: [attach.seq, removal.seq],
                                        words: ["view was removed", "RootRouter#2", "and active", "1s later", "detachChild"])
        #expect(finding?.severity == .error)
        #expect(finding?.time == removal.time + .second)
        // An inactive router is not said to be active.
        var inactive = homeShown()
        inactive.add(.deactivate(interactor: 3))
        inactive.add(.view(router: 4, appearance: .removed), at: 500_000_000)
        inactive.add(.mark(text: "idle"), at: 3 * .second)
        let quiet = expectOnlyFinding(TraceAnalyzer.analyze(inactive.events), "view-gone-still-attached HomeRouter#4")
        #expect(quiet?.message.contains("active") == false, "\(String(describing: quiet))")
    }

    @Test("removed, then detached within the grace period: clean; detached after it: reported")
    func detachWithinGrace() {
        for (delay, reported) in [(UInt64(900_000_000), false), (1_100_000_000, true)] {
            var b = homeShown()
            let removal = b.add(.view(router: 4, appearance: .removed), at: 500_000_000)
            b.add(.load(router: 2), at: 600_000_000)                        // the main actor runs on
            b.add(.load(router: 2), at: removal.time + delay - 1_000)
            b.add(.detach(parent: 2, child: 4), at: removal.time + delay)
            b.add(.deactivate(interactor: 3))
            b.release(4)
            b.add(.mark(text: "idle"), at: 5 * .second)
            let report = TraceAnalyzer.analyze(b.events)
            #expect(report.ruleAndSubject == (reported ? ["view-gone-still-attached HomeRouter#4"] : []), "detach \(delay) ns after: \(report)")
        }
    }

    @Test("a view shown again within the grace period is not gone; removed again, the grace period starts from that removal")
    func shownAgain() {
        var b = homeShown()
        b.add(.view(router: 4, appearance: .removed), at: 500_000_000)
        b.add(.view(router: 4, appearance: .shown), at: 900_000_000)
        b.add(.mark(text: "idle"), at: 5 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)

        var again = homeShown()
        again.add(.view(router: 4, appearance: .removed), at: 500_000_000)
        again.add(.view(router: 4, appearance: .shown), at: 900_000_000)
        let second = again.add(.view(router: 4, appearance: .removed), at: 1_200_000_000)
        // The first removal's deadline (1.5 s) passes with the main actor running: not yet.
        again.add(.load(router: 2), at: 1_600_000_000)
        #expect(analyzer(again.events).findings.isEmpty)
        again.add(.load(router: 2), at: 2_300_000_000)
        let finding = analyzer(again.events).findings
        #expect(finding.map(\.seqs) == [[9, second.seq]], "\(finding)")
    }

    @Test("covered is never gone: a view covered for a minute (pushed over, another tab, a modal, hidden) is not reported")
    func coveredIsNotGone() {
        var b = homeShown()
        b.add(.view(router: 4, appearance: .covered), at: .second)
        for second in 2...60 { b.add(.load(router: 2), at: UInt64(second) * .second) }
        b.add(.view(router: 4, appearance: .shown), at: 61 * .second)
        b.add(.view(router: 4, appearance: .covered), at: 62 * .second)
        b.add(.mark(text: "idle"), at: 70 * .second)
        let report = TraceAnalyzer.analyze(b.events, options: .init(expectTeardown: false))
        #expect(report.isClean, "\(report)")
        #expect(report.undecided == 0)
    }

    @Test("a parent detached while its child's view is removed: the child left with it, clean; the parent back within the grace period: a grace period from its return")
    func childLeavesWithParent() {
        var b = TraceBuilder.homeProfileTree()
        b.add(.view(router: 6, appearance: .shown), at: 100_000_000)
        b.add(.view(router: 6, appearance: .removed), at: 500_000_000)
        b.detach(4, from: 2)
        b.add(.deactivate(interactor: 5))
        b.release(6)
        b.release(4)
        b.add(.mark(text: "idle"), at: 5 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)

        // Home leaves and comes back at 0.8 s with Profile, whose view stays removed:
        // its check (due at 1.5 s) waits from the moment it left the tree (0.7 s).
        var back = TraceBuilder.homeProfileTree()
        back.add(.view(router: 6, appearance: .shown), at: 100_000_000)
        let removal = back.add(.view(router: 6, appearance: .removed), at: 500_000_000)
        back.add(.detach(parent: 2, child: 4), at: 700_000_000)
        back.add(.attach(parent: 2, child: 4), at: 800_000_000)
        back.add(.load(router: 2), at: 1_600_000_000)
        #expect(analyzer(back.events).findings.isEmpty, "\(analyzer(back.events).findings)")
        back.add(.load(router: 2), at: 1_800_000_000)
        let findings = analyzer(back.events).findings
        #expect(findings.map { "\($0.rule.rawValue) \($0.subjectName) \($0.seqs)" } == ["view-gone-still-attached ProfileRouter#6 [14, \(removal.seq)]"],
                "\(findings)")
    }

    @Test("a dismissed flow whose screen went with it is one finding, on the flow (detaching it takes both)")
    func oneCausePerFlow() {
        var b = TraceBuilder.homeProfileTree()
        b.add(.view(router: 4, appearance: .shown), at: 100_000_000)
        b.add(.view(router: 6, appearance: .shown))
        b.add(.view(router: 6, appearance: .removed), at: 500_000_000)
        b.add(.view(router: 4, appearance: .removed))
        b.add(.mark(text: "idle"), at: 3 * .second)
        #expect(TraceAnalyzer.analyze(b.events).ruleAndSubject == ["view-gone-still-attached HomeRouter#4"])
        // The child alone: the child.
        var child = TraceBuilder.homeProfileTree()
        child.add(.view(router: 6, appearance: .shown), at: 100_000_000)
        child.add(.view(router: 6, appearance: .removed), at: 500_000_000)
        child.add(.mark(text: "idle"), at: 3 * .second)
        #expect(TraceAnalyzer.analyze(child.events).ruleAndSubject == ["view-gone-still-attached ProfileRouter#6"])
    }

    @Test("a router attached elsewhere after its view was removed gets a grace period from the move")
    func movedToAnotherParent() {
        var b = homeShown()
        b.child(6, "Menu", of: 2)
        let removal = b.add(.view(router: 4, appearance: .removed), at: 500_000_000)
        // Moved under Menu without a detach (a double-attach warning of its own).
        let move = b.add(.attach(parent: 6, child: 4), at: 900_000_000)
        b.add(.load(router: 2), at: 1_600_000_000)
        #expect(analyzer(b.events).report.findings(.viewGoneStillAttached).isEmpty)
        b.add(.load(router: 2), at: 2_000_000_000)
        let findings = analyzer(b.events).report.findings(.viewGoneStillAttached)
        #expect(findings.map(\.seqs) == [[removal.seq, move.seq]], "\(findings)")
        #expect(findings.first?.message.contains("MenuRouter#6") == true)
    }

    @Test("the grace period is an option: a detach 500 ms after the removal is late with grace 250ms; the view grace period does not apply")
    func graceOption() {
        var b = homeShown()
        b.add(.view(router: 4, appearance: .removed), at: 500_000_000)
        b.add(.load(router: 2), at: 600_000_000)                            // the main actor runs on
        b.add(.load(router: 2), at: 900_000_000)
        b.detach(4, from: 2)
        b.release(4)
        b.add(.mark(text: "idle"), at: 5 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)
        #expect(TraceAnalyzer.analyze(b.events, options: .init(viewGrace: 100_000_000)).isClean)
        expectOnlyFinding(TraceAnalyzer.analyze(b.events, options: .init(grace: 250_000_000)), "view-gone-still-attached HomeRouter#4",
                          words: ["250ms later"])
    }

    @Test("the end of the trace: a removal within the last grace period is undecided only while the router stays attached with its view removed")
    func endOfTrace() {
        var open = homeShown()
        open.add(.view(router: 4, appearance: .removed), at: 500_000_000)
        open.add(.sessionEnd(reason: "exit"), at: 1_000_000_000)
        let report = TraceAnalyzer.analyze(open.events)
        #expect(report.isClean)
        #expect(report.undecided == 1)
        let shownAgain: [TraceEvent.Kind] = [.view(router: 4, appearance: .shown)]
        let detached: [TraceEvent.Kind] = [.detach(parent: 2, child: 4), .deactivate(interactor: 3), .deallocated(id: 4), .deallocated(id: 3)]
        for closing in [shownAgain, detached] {
            var closed = homeShown()
            closed.add(.view(router: 4, appearance: .removed), at: 500_000_000)
            for kind in closing { closed.add(kind) }
            closed.add(.sessionEnd(reason: "exit"), at: 1_000_000_000)
            let report = TraceAnalyzer.analyze(closed.events)
            #expect(report.isClean)
            #expect(report.undecided == 0, "after \(closing)")
        }
    }

    @Test("a root's view removed, or a view removed outside the tree, is not this rule's")
    func notInTheTree() {
        var b = homeShown()
        b.add(.view(router: 2, appearance: .shown))
        b.add(.view(router: 2, appearance: .removed), at: 500_000_000)     // a root has no parent to detach it
        b.detach(4, from: 2)
        b.add(.view(router: 4, appearance: .removed))                      // dismissed after the detach
        b.release(4)
        b.add(.mark(text: "idle"), at: 3 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)
    }

    @Test("a view removed and shown again thousands of times: the checks waiting stay bounded", .dedicatedThread, .singleThreaded)
    func boundedChecks() {
        var b = homeShown()
        b.step = 10_000
        for _ in 0..<20_000 {
            b.add(.view(router: 4, appearance: .removed))
            b.add(.view(router: 4, appearance: .shown))
        }
        let waiting = analyzer(b.events).pendingChecks
        #expect(waiting <= 4_097, "\(waiting) checks wait")
        b.add(.mark(text: "idle"), at: b.time + 3 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)
    }

    @Test("its fixtures yield exactly their findings; the clean twin and the covered-is-not-gone fixtures nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .viewGoneStillAttached))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
