import NapkinTrace
import Testing
import TestSupport

/// `task-started-inactive` (`Analysis/Rules/TaskStartedInactiveRule.swift`):
/// a bound task started while its interactor was inactive.
@Suite("Rule task-started-inactive")
struct TaskStartedInactiveRuleTests {
    @Test("a task started after deactivation is reported too; one started while active is not")
    func startedAfterDeactivation() {
        var b = TraceBuilder.homeTree()
        b.add(.taskStart(task: 9, owner: 3, label: "early"))
        b.detach(4, from: 2)
        let late = b.add(.taskStart(task: 10, owner: 3, label: "late"))
        b.add(.taskEnd(task: 9, outcome: .cancelled))
        b.add(.taskEnd(task: 10, outcome: .completed))
        b.release(4)
        b.add(.sessionEnd(reason: "exit"), at: b.time + 3 * .second)
        let finding = expectOnlyFinding(TraceAnalyzer.analyze(b.events), "task-started-inactive HomeInteractor#3 'late'",
                                        seqs: [late.seq], words: ["HomeInteractor#3 was inactive"])
        #expect(finding?.severity == .warning)
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .taskStartedInactive))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
