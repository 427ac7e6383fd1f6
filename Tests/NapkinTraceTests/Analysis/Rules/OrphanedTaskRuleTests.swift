import NapkinTrace
import Testing

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

    @Test("its fixtures yield exactly their findings; the clean twins nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .orphanedTask))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
