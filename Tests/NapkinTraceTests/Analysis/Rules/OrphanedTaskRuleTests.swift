import NapkinTrace
import Testing
import TestSupport

/// `orphaned-task` (`Analysis/Rules/OrphanedTaskRule.swift`): a bound task
/// still running a grace period after its owner deactivated or went away,
/// or at the end of the trace while its owner is inactive or gone.
@Suite("Rule orphaned-task")
struct OrphanedTaskRuleTests {
    /// ``TraceBuilder/homeTree()`` where `HomeInteractor#3` starts task #9
    /// `poll`, is detached and deactivated, and the task is asked to cancel.
    private func homeWithCancelledTask() -> TraceBuilder {
        var b = TraceBuilder.homeTree()
        b.add(.taskStart(task: 9, owner: 3, label: "poll"))
        b.detach(4, from: 2)
        b.add(.taskCancel(task: 9))
        return b
    }

    @Test("a task that ignores cancellation is not reported while its owner is active again")
    func reactivatedOwner() {
        var b = homeWithCancelledTask()
        b.wait(.second / 4)
        b.attach(4, to: 2)   // back within the grace period: the owner is active again
        b.add(.mark(text: "idle"), at: b.time + 3 * .second)
        #expect(TraceAnalyzer.analyze(b.events).isClean)
        // The next deactivation checks it again.
        b.detach(4, from: 2)
        b.add(.deallocated(id: 4))
        b.add(.mark(text: "idle"), at: b.time + 3 * .second)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.ruleAndSubject == ["orphaned-task HomeInteractor#3 'poll'"], "\(report)")
    }

    @Test("a task still running when the trace ends within the grace period of its cancellation is undecided, not orphaned")
    func endedWithinGrace() {
        var b = homeWithCancelledTask()
        b.add(.sessionEnd(reason: "exit"), at: b.time + .second / 10)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.isClean, "\(report)")
        // The task, and its router (detached, not deallocated yet).
        #expect(report.undecided == 2)
    }

    /// Checks are decided when the app's main actor runs past their
    /// deadline: lets trace time pass up to `time` with the main actor busy
    /// (a router event, a load of the root, every 100 ms).
    private func tick(_ b: inout TraceBuilder, at time: UInt64) {
        while b.time + .second / 10 < time { b.add(.load(router: 2), at: b.time + .second / 10) }
        b.add(.load(router: 2), at: time)
    }

    @Test("deactivations that come while one waits: the owner active at its deadline, the last of them is checked one grace period after it")
    func deactivationsWhileOneWaits() {
        var b = TraceBuilder.homeTree()
        b.add(.taskStart(task: 9, owner: 3, label: "poll"))
        let first = b.add(.deactivate(interactor: 3))
        tick(&b, at: first.time + .second / 10)
        b.add(.activate(interactor: 3))
        tick(&b, at: first.time + .second * 6 / 10)
        let second = b.add(.deactivate(interactor: 3))
        tick(&b, at: first.time + .second * 7 / 10)
        b.add(.activate(interactor: 3))
        tick(&b, at: first.time + .second * 105 / 100)   // the first check: the owner is active
        tick(&b, at: first.time + .second * 17 / 10)     // the second one's too
        #expect(TraceAnalyzer.analyze(b.events).isClean)
        tick(&b, at: first.time + 2 * .second)
        let third = b.add(.deactivate(interactor: 3))
        tick(&b, at: third.time + .second * 11 / 10)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.ruleAndSubject == ["orphaned-task HomeInteractor#3 'poll'"], "\(report)")
        #expect(report.findings.first?.seqs.contains(third.seq) == true, "\(report.findings)")
        #expect(report.findings.first?.seqs.contains(second.seq) == false, "\(report.findings)")
    }

    @Test("after a report, tasks started later are checked at the next deactivation; each task once")
    func laterTasksAfterAReport() {
        var b = TraceBuilder.homeTree()
        b.add(.taskStart(task: 9, owner: 3, label: "first"))
        b.add(.deactivate(interactor: 3))
        tick(&b, at: b.time + 2 * .second)   // 'first' is reported here
        b.add(.activate(interactor: 3))
        b.add(.taskStart(task: 11, owner: 3, label: "second"))
        b.add(.deactivate(interactor: 3))
        tick(&b, at: b.time + 2 * .second)
        b.add(.activate(interactor: 3))
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.ruleAndSubject == ["orphaned-task HomeInteractor#3 'first'", "orphaned-task HomeInteractor#3 'second'"], "\(report)")
    }

    @Test("the owner's tasks all end while a check waits; a new task and a new deactivation are still checked")
    func tasksEndWhileACheckWaits() {
        var b = TraceBuilder.homeTree()
        b.add(.taskStart(task: 9, owner: 3, label: "quick"))
        b.add(.deactivate(interactor: 3))
        b.add(.taskEnd(task: 9, outcome: .cancelled))
        b.add(.activate(interactor: 3))
        b.add(.taskStart(task: 11, owner: 3, label: "stubborn"))
        tick(&b, at: b.time + .second / 10)
        b.add(.deactivate(interactor: 3))
        tick(&b, at: b.time + 2 * .second)
        b.add(.activate(interactor: 3))
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.ruleAndSubject == ["orphaned-task HomeInteractor#3 'stubborn'"], "\(report)")
    }

    @Test("the owner goes away while its deactivation's check waits: reported from the deactivation, as an owner gone since")
    func ownerGoneWhileACheckWaits() {
        var b = TraceBuilder.homeTree()
        b.add(.taskStart(task: 9, owner: 3, label: "poll"))
        b.detach(4, from: 2)
        let deactivation = b.events.last!
        tick(&b, at: b.time + .second / 2)
        b.release(4)
        // 1.1 s after the deactivation, 0.6 s after the release.
        tick(&b, at: deactivation.time + .second + .second / 10)
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.ruleAndSubject == ["orphaned-task HomeInteractor#3 'poll'"], "\(report)")
        #expect(report.findings.first?.message.contains("deactivated and cancelled it (the owner is gone since)") == true, "\(report.findings)")
    }

    @Test("its fixtures yield exactly their findings; the clean twins nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .orphanedTask))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
