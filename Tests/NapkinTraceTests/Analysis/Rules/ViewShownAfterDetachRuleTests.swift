@testable import NapkinTrace
import Testing
import TestSupport

/// `view-shown-after-detach` (`Analysis/Rules/ViewShownAfterDetachRule.swift`):
/// a router that left the tree while its view was shown (or whose view was
/// shown while it was out of the tree), with the view still shown one view
/// grace period (5 s) later, the router alive or gone.
@Suite("Rule view-shown-after-detach")
struct ViewShownAfterDetachRuleTests {
    /// ``TraceBuilder/homeTree()`` with Home's view shown at 0.1 s.
    private func homeShown() -> TraceBuilder {
        var b = TraceBuilder.homeTree()
        b.add(.view(router: 4, appearance: .shown), at: 100_000_000)
        return b
    }

    /// Home, shown, is detached at 1 s and deallocated with its interactor
    /// at once (the parent dropped it); returns the detach.
    private func detachAndDrop(_ b: inout TraceBuilder) -> TraceEvent {
        let detach = b.add(.detach(parent: 2, child: 4), at: .second)
        b.add(.deactivate(interactor: 3))
        b.release(4)
        return detach
    }

    /// The analyzer after folding `events` one by one, without finishing (the trace goes on).
    private func analyzer(_ events: [TraceEvent], options: TraceAnalyzer.Options = .init()) -> TraceAnalyzer {
        var analyzer = TraceAnalyzer(options: options)
        for event in events { analyzer.consume(event) }
        return analyzer
    }

    @Test("detached and dropped, its view never dismissed: reported 5 s after the detach, as the gone router")
    func goneRouterViewLeft() {
        var b = homeShown()
        let detach = detachAndDrop(&b)
        b.add(.mark(text: "idle"), at: 7 * .second)
        let finding = expectOnlyFinding(TraceAnalyzer.analyze(b.events), "view-shown-after-detach HomeRouter#4", seqs: [detach.seq],
                                        words: ["deallocated", "still shown 5s later", "dismiss the view"])
        #expect(finding?.severity == .error)
        #expect(finding?.time == detach.time + 5 * .second)
    }

    @Test("its view reported removed or covered after the router's deinit, within the view grace period: clean; later: reported")
    func viewGoesAfterDeinit() {
        for appearance: ViewAppearance in [.removed, .covered] {
            for (after, reported) in [(UInt64(4_900_000_000), false), (5_100_000_000, true)] {
                var b = homeShown()
                let detach = detachAndDrop(&b)
                b.add(.load(router: 2), at: detach.time + 100_000_000)     // the main actor runs on
                b.add(.view(router: 4, appearance: appearance), at: detach.time + after)
                b.add(.mark(text: "idle"), at: 12 * .second)
                let report = TraceAnalyzer.analyze(b.events)
                #expect(report.ruleAndSubject == (reported ? ["view-shown-after-detach HomeRouter#4"] : []), "\(appearance) \(after) ns after: \(report)")
                #expect(report.undecided == 0)
            }
        }
    }

    @Test("the view grace period is an option: a dismissal 2 s after the detach is late with viewGrace 1.5s, and the grace period does not apply")
    func viewGraceOption() {
        var b = homeShown()
        let detach = detachAndDrop(&b)
        b.add(.load(router: 2), at: detach.time + 100_000_000)
        b.add(.load(router: 2), at: detach.time + 1_800_000_000)
        b.add(.view(router: 4, appearance: .removed), at: detach.time + 2 * .second)
        b.add(.mark(text: "idle"), at: 12 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)
        #expect(TraceAnalyzer.analyze(b.events, options: .init(grace: 100_000_000)).isClean)
        expectOnlyFinding(TraceAnalyzer.analyze(b.events, options: .init(viewGrace: 1_500_000_000)), "view-shown-after-detach HomeRouter#4",
                          seqs: [detach.seq], words: ["1.5s later"])
    }

    @Test("a detached router kept alive with its view shown is reported too (besides not-deallocated); re-attached within the view grace period, it is not")
    func aliveRouter() {
        var b = homeShown()
        let detach = b.add(.detach(parent: 2, child: 4), at: .second)
        b.add(.deactivate(interactor: 3))
        b.add(.mark(text: "idle"), at: 7 * .second)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.ruleAndSubject.sorted() == ["not-deallocated HomeRouter#4", "view-shown-after-detach HomeRouter#4"], "\(report)")
        let finding = report.findings(.viewShownAfterDetach).first
        #expect(finding?.seqs == [detach.seq])
        #expect(finding?.message.contains("it left the tree, but its view is still shown 5s later") == true)

        var back = homeShown()
        back.detach(4, from: 2)
        back.wait(.second / 2)
        back.attach(4, to: 2)
        back.add(.mark(text: "idle"), at: 7 * .second)
        #expect(TraceAnalyzer.analyze(back.events).isClean)
    }

    @Test("the view of a detached router shown again (a reused view): reported 5 s after it was shown, unless the router is re-attached")
    func reusedView() {
        var b = homeShown()
        b.detach(4, from: 2)
        b.add(.view(router: 4, appearance: .removed))
        let shown = b.add(.view(router: 4, appearance: .shown), at: 3 * .second)
        b.add(.load(router: 2), at: 7 * .second)
        #expect(analyzer(b.events).report.findings(.viewShownAfterDetach).isEmpty)
        b.add(.load(router: 2), at: 8_100_000_000)
        #expect(analyzer(b.events).report.findings(.viewShownAfterDetach).map(\.seqs) == [[shown.seq]])

        var reattached = homeShown()
        reattached.detach(4, from: 2)
        reattached.add(.view(router: 4, appearance: .removed))
        reattached.add(.view(router: 4, appearance: .shown), at: 3 * .second)
        reattached.attach(4, to: 2)
        reattached.add(.mark(text: "idle"), at: 10 * .second)
        #expect(TraceAnalyzer.analyze(reattached.events).findings(.viewShownAfterDetach).isEmpty)
    }

    @Test("hidden and shown again after the detach: the view grace period starts again from the last show, also once the router is gone")
    func hiddenAndShownAgain() {
        var b = homeShown()
        b.add(.detach(parent: 2, child: 4), at: .second)
        b.add(.deactivate(interactor: 3))
        b.add(.view(router: 4, appearance: .covered), at: 1_300_000_000)
        let shown = b.add(.view(router: 4, appearance: .shown), at: 1_600_000_000)
        b.release(4)                                                        // gone at 1.6 s, its view shown since 1.6 s
        b.add(.load(router: 2), at: 6_300_000_000)                         // 5.3 s after the detach, 4.7 s after the show
        #expect(analyzer(b.events).findings.isEmpty, "\(analyzer(b.events).findings)")
        var dismissed = b
        dismissed.add(.view(router: 4, appearance: .removed), at: 6_500_000_000)
        dismissed.add(.mark(text: "idle"), at: 12 * .second)
        #expect(TraceAnalyzer.analyze(dismissed.events).isClean)
        b.add(.mark(text: "idle"), at: 12 * .second)
        expectOnlyFinding(TraceAnalyzer.analyze(b.events), "view-shown-after-detach HomeRouter#4", seqs: [shown.seq])
    }

    @Test("re-attached and detached again: the view grace period starts from the second detach")
    func leftTheTreeAgain() {
        var b = homeShown()
        b.detach(4, from: 2)
        b.add(.load(router: 2), at: 500_000_000)
        b.attach(4, to: 2)                                                  // back within the grace period
        let second = b.add(.detach(parent: 2, child: 4), at: 4 * .second)
        b.add(.deactivate(interactor: 3))
        b.release(4)
        b.add(.load(router: 2), at: 7 * .second)                           // 7 s after the first detach
        #expect(analyzer(b.events).findings.isEmpty, "\(analyzer(b.events).findings)")
        b.add(.load(router: 2), at: 9_100_000_000)
        expectOnlyFinding(analyzer(b.events).report, "view-shown-after-detach HomeRouter#4", seqs: [second.seq])
    }

    @Test("a parent detached or deallocated in the tree takes its children out: their shown views are checked, seqs the event that took them out")
    func subtree() {
        // A view-less flow detached with its shown child.
        var flow = TraceBuilder.homeProfileTree()
        flow.add(.view(router: 6, appearance: .shown), at: 100_000_000)
        let detach = flow.add(.detach(parent: 2, child: 4), at: .second)
        flow.add(.deactivate(interactor: 3))
        flow.add(.deactivate(interactor: 5))
        flow.release(6)
        flow.release(4)
        flow.add(.mark(text: "idle"), at: 7 * .second)
        expectOnlyFinding(TraceAnalyzer.analyze(flow.events), "view-shown-after-detach ProfileRouter#6", seqs: [detach.seq])

        // The root released while Home's view is shown (no window teardown).
        var root = homeShown()
        let rootDeinit = root.add(.deallocated(id: 2), at: .second)
        root.add(.deactivate(interactor: 1))
        root.add(.deactivate(interactor: 3))
        root.add(.deallocated(id: 1))
        root.release(4)
        root.add(.mark(text: "idle"), at: 7 * .second)
        expectOnlyFinding(TraceAnalyzer.analyze(root.events), "view-shown-after-detach HomeRouter#4", seqs: [rootDeinit.seq])
        // Its view removed first (the window closed): clean.
        var closed = homeShown()
        closed.add(.view(router: 4, appearance: .removed), at: 900_000_000)
        for kind: TraceEvent.Kind in [.deallocated(id: 2), .deactivate(interactor: 1), .deactivate(interactor: 3),
                                      .deallocated(id: 1), .deallocated(id: 4), .deallocated(id: 3)] { closed.add(kind) }
        closed.add(.mark(text: "idle"), at: 7 * .second)
        #expect(TraceAnalyzer.analyze(closed.events, options: .init(expectTeardown: true)).isClean)
    }

    @Test("a router moved by a second attach to a parent outside the tree, its view shown, is checked too")
    func doubleAttachOutOfTheTree() {
        var b = homeShown()
        b.router(6, "Loose")                                                // never attached: outside the tree
        let move = b.add(.attach(parent: 6, child: 4), at: .second)
        b.add(.mark(text: "idle"), at: 7 * .second)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.findings(.viewShownAfterDetach).map(\.seqs) == [[move.seq]], "\(report)")
        #expect(report.findings(.doubleAttach).count == 1)
    }

    @Test("the end of the trace: a gone router's shown view within the last view grace period is one undecided check, none once it went")
    func endOfTrace() {
        var open = homeShown()
        _ = detachAndDrop(&open)
        open.add(.sessionEnd(reason: "exit"), at: 3 * .second)
        let report = TraceAnalyzer.analyze(open.events)
        #expect(report.isClean)
        #expect(report.undecided == 1)

        var went = homeShown()
        _ = detachAndDrop(&went)
        went.add(.view(router: 4, appearance: .removed), at: 1_300_000_000)
        went.add(.sessionEnd(reason: "exit"), at: 3 * .second)
        let clean = TraceAnalyzer.analyze(went.events)
        #expect(clean.isClean)
        #expect(clean.undecided == 0)
    }

    /// Runs this rule alone over `events`, deciding checks by trace time.
    private func solo(_ events: [TraceEvent]) -> (rule: ViewShownAfterDetachRule, context: AnalysisContext) {
        var context = AnalysisContext(options: .init())
        context.currentRule = .viewShownAfterDetach
        var rule = ViewShownAfterDetachRule()
        for event in events {
            while let check = context.nextDue(before: event.time) { rule.decide(check, &context) }
            let effect = context.state.fold(event)
            if ViewShownAfterDetachRule.watches.contains(event.kind.name) { rule.observe(event, effect, &context) }
        }
        return (rule, context)
    }

    @Test("memory: gone routers are remembered only until their check decides or their view goes, and not at all once reported")
    func memoryBounded() {
        var b = TraceBuilder()
        b.root(2)
        b.step = 1_000                                                      // all within one view grace period
        var id: NodeID = 4
        for _ in 0..<1_000 {
            b.child(id, "Screen", of: 2)
            b.add(.view(router: id, appearance: .shown))
            b.detach(id, from: 2)
            b.release(id)
            id += 2
        }
        var run = solo(b.events)
        #expect(run.rule.goneRoutersRemembered == 1_000)
        b.add(.mark(text: "later"), at: b.time + 6 * .second)
        run = solo(b.events)
        #expect(run.rule.goneRoutersRemembered == 0)
        #expect(run.context.findings.count == 1_000)

        // Reported while alive, deallocated afterwards with its view still shown: nothing to remember.
        var late = homeShown()
        late.detach(4, from: 2)
        late.add(.mark(text: "idle"), at: 7 * .second)
        late.release(4)
        let after = solo(late.events)
        #expect(after.context.findings.map(\.rule) == [.viewShownAfterDetach])
        #expect(after.rule.goneRoutersRemembered == 0)
        #expect(after.context.pendingChecks == 0)
    }

    @Test("its fixtures yield exactly their findings; the clean twins nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .viewShownAfterDetach))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
