import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// `stuck-hook` (`Analysis/Rules/StuckHookRule.swift`): a `didBecomeActive`
/// or `willResignActive` that has not returned a grace period after it
/// started, in traces that record hook ends (format revision 1).
@Suite("Rule stuck-hook")
struct StuckHookRuleTests {
    /// `ListenerRouter#6` (interactor #5) attached under the home tree; its
    /// `didBecomeActive` returns `returnsAfter` later (never, if nil). The
    /// main actor goes on meanwhile (it is not blocked): it creates
    /// `BusyRouter#8` 0.2 s after the hook started and `OtherRouter#10`
    /// `otherAfter` after it. The trace ends 4 s after the hook started.
    private func activation(returnsAfter: UInt64?, otherAfter: UInt64 = .second * 3 / 2,
                            revision: Int = 1) -> (TraceBuilder, start: TraceEvent) {
        var b = TraceBuilder.homeTree(revision: revision)
        b.router(6, "Listener")
        b.add(.attach(parent: 4, child: 6))
        let start = b.add(.activate(interactor: 5))
        b.add(.interactorCreated(id: 7, type: "BusyInteractor"), at: start.time + .second / 5)
        b.add(.routerCreated(id: 8, type: "BusyRouter", interactor: 7, interactorType: "BusyInteractor"))
        func other() {
            b.add(.interactorCreated(id: 9, type: "OtherInteractor"), at: start.time + otherAfter)
            b.add(.routerCreated(id: 10, type: "OtherRouter", interactor: 9, interactorType: "OtherInteractor"))
        }
        if let returnsAfter, returnsAfter < otherAfter {
            b.add(.hookEnd(interactor: 5), at: start.time + returnsAfter)
            b.add(.load(router: 6))
            other()
        } else {
            other()
            if let returnsAfter {
                b.add(.hookEnd(interactor: 5), at: start.time + returnsAfter)
                b.add(.load(router: 6))
            }
        }
        b.add(.sessionEnd(reason: "exit"), at: start.time + 4 * .second)
        return (b, start)
    }

    @Test("a hook that returns within the grace period is fine; one that does not is reported once, naming the hook")
    func bound() {
        #expect(TraceAnalyzer.analyze(activation(returnsAfter: .second / 2).0.events).isClean)
        let (late, start) = activation(returnsAfter: 2 * .second + .second / 2)
        let finding = expectOnlyFinding(TraceAnalyzer.analyze(late.events), "stuck-hook ListenerInteractor#5", seqs: [start.seq],
                                        words: ["didBecomeActive has not returned 1s after it started", "a detach cannot deactivate",
                                                "ListenerRouter#6 has not loaded", "task {}"])
        #expect(finding?.severity == .error)
        #expect(finding?.subject == .interactor)
        // The bound is the analysis's grace period.
        let longer = TraceAnalyzer.analyze(late.events, options: .init(grace: 3 * .second))
        #expect(longer.isClean, "\(longer)")
        let slow = activation(returnsAfter: .second / 2, otherAfter: .second * 3 / 10).0
        #expect(TraceAnalyzer.analyze(slow.events).isClean)
        let shorter = TraceAnalyzer.analyze(slow.events, options: .init(grace: .second / 4))
        #expect(shorter.ruleAndSubject == ["stuck-hook ListenerInteractor#5"], "\(shorter)")
        #expect(shorter.findings.first?.message.contains("250ms after it started") == true)
    }

    @Test("at the end of the trace: still running for at least the grace period is reported, for less is undecided")
    func endOfTrace() {
        var b = TraceBuilder.homeTree(revision: 1)
        b.router(6, "Listener")
        b.add(.attach(parent: 4, child: 6))
        let start = b.add(.activate(interactor: 5))
        var ended = b
        ended.add(.sessionEnd(reason: "exit"), at: start.time + .second + .second / 10)
        let report = TraceAnalyzer.analyze(ended.events)
        expectOnlyFinding(report, "stuck-hook ListenerInteractor#5", seqs: [start.seq], words: ["didBecomeActive"])
        #expect(report.undecided == 0)
        b.add(.sessionEnd(reason: "exit"), at: start.time + .second / 2)
        let early = TraceAnalyzer.analyze(b.events)
        #expect(early.isClean, "\(early)")
        #expect(early.undecided == 1)
    }

    @Test("while the main actor writes nothing (blocked), a hook that returns late is not held against it")
    func blockedMainActor() {
        // The same hook as in `bound`, returning 2.5 s late, but no main-actor event before it returns.
        var b = TraceBuilder.homeTree(revision: 1)
        b.router(6, "Listener")
        b.add(.attach(parent: 4, child: 6))
        let start = b.add(.activate(interactor: 5))
        b.add(.mark(text: "other threads go on"), at: start.time + 2 * .second)
        b.add(.hookEnd(interactor: 5), at: start.time + 2 * .second + .second / 2)
        b.add(.load(router: 6))
        b.add(.sessionEnd(reason: "exit"), at: 5 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)
    }

    @Test("a trace written before hook_end existed (no rev): no stuck-hook, however long a hook seems to run", .dedicatedThread, .singleThreaded)
    func oldTracesAreNotChecked() throws {
        let (old, _) = activation(returnsAfter: nil, revision: 0)
        let report = TraceAnalyzer.analyze(old.events)
        #expect(report.isClean, "\(report)")
        var state = TraceState()
        for event in old.events { state.apply(event) }
        #expect(!state.recordsHookEnds && state[5]?.runningHook == nil)
        // The stuck-hook fixture without its "rev": active-after-detach, the old verdict, and no stuck-hook.
        let text = try String(contentsOf: URL(fileURLWithPath: Fixtures.path("stuck-hook")), encoding: .utf8)
        try #require(text.contains(#","rev":1}"#))
        let events = parseEvents(text.replacingOccurrences(of: #","rev":1}"#, with: "}"))
        // (Two findings for one cause, where revision 1 gives one.)
        #expect(TraceAnalyzer.analyze(events).ruleAndSubject == ["not-deallocated ScoresRouter#4", "active-after-detach ScoresInteractor#3"])
        // Every other fixture is revision 0 and free of stuck-hook findings.
        for name in try PackagePaths.files(in: "Tests/Fixtures/traces", endingIn: ".ndjson") where !name.hasPrefix("stuck-hook") {
            let report = try Fixtures.analyze(String(name.dropLast(7)), options: .init(expectTeardown: true))
            #expect(report.findings(.stuckHook).isEmpty, "\(name): \(report)")
        }
    }

    @Test("a willResignActive that never returns: named, with the tasks it kept from being cancelled; not orphaned-task")
    func stuckResignation() {
        var b = TraceBuilder.homeTree(revision: 1)
        b.add(.taskStart(task: 5, owner: 3, label: "sync"))
        let detach = b.add(.detach(parent: 2, child: 4))
        let start = b.add(.deactivate(interactor: 3))
        b.add(.interactorCreated(id: 9, type: "OtherInteractor"), at: 3 * .second)
        b.add(.routerCreated(id: 10, type: "OtherRouter", interactor: 9, interactorType: "OtherInteractor"))
        b.add(.sessionEnd(reason: "exit"), at: 4 * .second)
        // The detach waits for the hook and keeps Home's router: not not-deallocated either.
        expectOnlyFinding(TraceAnalyzer.analyze(b.events), "stuck-hook HomeInteractor#3", seqs: [detach.seq, start.seq],
                          words: ["willResignActive has not returned 1s after it started", "its bound task was not cancelled"])
    }

    @Test("once willResignActive returns late, a task that ignores the cancellation is orphaned from then on")
    func orphanedAfterLateResignation() {
        var b = TraceBuilder.homeTree(revision: 1)
        let task = b.add(.taskStart(task: 5, owner: 3, label: "sync"))
        b.add(.detach(parent: 2, child: 4))
        let deactivate = b.add(.deactivate(interactor: 3))
        // Returns after 0.8 s (not stuck); napkin cancels the task then, which ignores it.
        b.add(.hookEnd(interactor: 3), at: deactivate.time + .second * 8 / 10)
        let cancel = b.add(.taskCancel(task: 5))
        b.add(.deallocated(id: 4))
        // 1.5 s after the deactivation, 0.7 s after the cancellation: not orphaned yet.
        b.add(.interactorCreated(id: 9, type: "OtherInteractor"), at: deactivate.time + .second * 15 / 10)
        b.add(.routerCreated(id: 10, type: "OtherRouter", interactor: 9, interactorType: "OtherInteractor"))
        var early = b
        early.add(.taskEnd(task: 5, outcome: .cancelled), at: deactivate.time + .second * 17 / 10)
        early.add(.deallocated(id: 3))
        early.add(.sessionEnd(reason: "exit"), at: 4 * .second)
        let clean = TraceAnalyzer.analyze(early.events)
        #expect(clean.isClean, "\(clean)")
        b.add(.interactorCreated(id: 11, type: "LaterInteractor"), at: 3 * .second)
        b.add(.routerCreated(id: 12, type: "LaterRouter", interactor: 11, interactorType: "LaterInteractor"))
        b.add(.sessionEnd(reason: "exit"), at: 4 * .second)
        expectOnlyFinding(TraceAnalyzer.analyze(b.events), "orphaned-task HomeInteractor#3 'sync'",
                          seqs: [task.seq, deactivate.seq, cancel.seq])
    }

    @Test("a stuck didBecomeActive under a detach: one finding, not also active-after-detach or a leaked router")
    func oneCause() {
        var b = TraceBuilder.homeTree(revision: 1)
        b.router(6, "Listener")
        b.add(.attach(parent: 4, child: 6))
        let start = b.add(.activate(interactor: 5))
        let detach = b.add(.detach(parent: 4, child: 6), at: start.time + .second / 2)
        b.add(.interactorCreated(id: 9, type: "OtherInteractor"), at: 3 * .second)
        b.add(.routerCreated(id: 10, type: "OtherRouter", interactor: 9, interactorType: "OtherInteractor"))
        b.add(.sessionEnd(reason: "exit"), at: 4 * .second)
        expectOnlyFinding(TraceAnalyzer.analyze(b.events), "stuck-hook ListenerInteractor#5", seqs: [start.seq, detach.seq],
                          words: ["its router's detach (seq \(detach.seq)) could not deactivate it", "willResignActive never ran"])
    }

    @Test("below a stuck willResignActive the detach cannot deactivate the subtree: the subtree is not active-after-detach")
    func subtreeBelowStuckResignation() {
        var b = TraceBuilder.homeProfileTree(revision: 1)
        b.add(.detach(parent: 2, child: 4))
        b.add(.deactivate(interactor: 3))   // never returns: Profile's interactor (#5) is never deactivated
        b.add(.interactorCreated(id: 9, type: "OtherInteractor"), at: 3 * .second)
        b.add(.routerCreated(id: 10, type: "OtherRouter", interactor: 9, interactorType: "OtherInteractor"))
        b.add(.sessionEnd(reason: "exit"), at: 4 * .second)
        expectOnlyFinding(TraceAnalyzer.analyze(b.events), "stuck-hook HomeInteractor#3", words: ["willResignActive"])
        // The same trace without hook ends: the old verdict.
        var old = TraceBuilder.homeProfileTree()
        old.add(.detach(parent: 2, child: 4))
        old.add(.deactivate(interactor: 3))
        old.add(.interactorCreated(id: 9, type: "OtherInteractor"), at: 3 * .second)
        old.add(.routerCreated(id: 10, type: "OtherRouter", interactor: 9, interactorType: "OtherInteractor"))
        old.add(.sessionEnd(reason: "exit"), at: 4 * .second)
        let verdict = TraceAnalyzer.analyze(old.events).ruleAndSubject
        #expect(verdict.contains("active-after-detach ProfileInteractor#5") && !verdict.contains { $0.hasPrefix("stuck-hook") }, "\(verdict)")
    }

    @Test("the lines a finding names: didBecomeActive its router's attach first, willResignActive its detach first")
    func codeLocations() throws {
        let attachedAt = CodeLocation(fileID: "App/HomeRouter.swift", line: 12)
        let detachedAt = CodeLocation(fileID: "App/HomeRouter.swift", line: 20)
        /// Home's attach and detach located; Home's hook (`deactivates`: willResignActive) never returns.
        func trace(deactivates: Bool) -> [TraceEvent] {
            var b = TraceBuilder(revision: 1)
            b.root(2)
            b.router(4, "Home")
            b.add(.attach(parent: 2, child: 4))
            b.add(.activate(interactor: 3))
            if deactivates { b.hookEnd(3) }
            b.add(.detach(parent: 2, child: 4), at: b.time + .second / 2)
            if deactivates { b.add(.deactivate(interactor: 3)) }
            b.add(.mark(text: "idle"), at: 3 * .second)
            b.add(.sessionEnd(reason: "exit"))
            return b.events.map { event in
                var event = event
                if case .attach = event.kind { event.location = attachedAt }
                if case .detach = event.kind { event.location = detachedAt }
                return event
            }
        }
        let activation = try #require(TraceAnalyzer.analyze(trace(deactivates: false)).findings(.stuckHook).first)
        #expect(activation.locations == [Finding.CodeReference(.attached, attachedAt), Finding.CodeReference(.detached, detachedAt)])
        let resignation = try #require(TraceAnalyzer.analyze(trace(deactivates: true)).findings(.stuckHook).first)
        #expect(resignation.locations == [Finding.CodeReference(.detached, detachedAt), Finding.CodeReference(.attached, attachedAt)])
        // The two bugs differ in their fingerprint (the lines' roles come in another order).
        #expect(activation.fingerprint != resignation.fingerprint)
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .stuckHook))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
