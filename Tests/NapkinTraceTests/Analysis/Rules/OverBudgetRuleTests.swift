@testable import NapkinTrace
import Testing
import TestSupport

/// `over-budget` (`Analysis/Rules/OverBudgetRule.swift`): more live
/// instances of a type at once than its budget (`maxAlive`).
@Suite("Rule over-budget")
struct OverBudgetRuleTests {
    /// `count` LoggedIn routers made one after the other, each released
    /// `releaseLag` events after the next one is made (nil: never).
    static func logins(_ count: Int, overlap: Bool) -> [TraceEvent] {
        var b = TraceBuilder()
        b.root(2)
        var previous: NodeID?
        for k in 0..<count {
            let id = NodeID(10 + 2 * k)
            if !overlap, let previous { b.release(previous) }
            b.add(.interactorCreated(id: id - 1, type: "LoggedInInteractor"))
            b.add(.routerCreated(id: id, type: "LoggedInRouter", interactor: id - 1, interactorType: "LoggedInInteractor"),
                  location: CodeLocation(fileID: "App/LoggedInBuilder.swift", line: 22))
            if overlap, let previous { b.release(previous) }
            previous = id
        }
        b.add(.sessionEnd(reason: "exit"))
        return b.events
    }

    @Test("a replacement made before the old one went: over a budget of 1 at that moment, once; within 2: clean")
    func overlap() throws {
        let events = Self.logins(3, overlap: true)
        let report = TraceAnalyzer.analyze(events, options: .init(maxAlive: ["LoggedInRouter": 1]))
        #expect(report.ruleAndSubject == ["over-budget LoggedInRouter#12"], "\(report)")
        let finding = try #require(report.findings.first)
        #expect(finding.message == "2 alive at once (#10, #12), over the budget of 1; created at App/LoggedInBuilder.swift:22 (2)")
        #expect(finding.locations.map(\.description) == ["App/LoggedInBuilder.swift:22 (created)"])
        #expect(TraceAnalyzer.analyze(events, options: .init(maxAlive: ["LoggedInRouter": 2])).isClean)
        // No budget, or a budget for another type: nothing.
        #expect(TraceAnalyzer.analyze(events).isClean)
        #expect(TraceAnalyzer.analyze(events, options: .init(maxAlive: ["LoggedOutRouter": 0])).isClean)
        // The old one released first: within the budget of 1.
        #expect(TraceAnalyzer.analyze(Self.logins(3, overlap: false), options: .init(maxAlive: ["LoggedInRouter": 1])).isClean)
    }

    @Test("interactors and bound tasks have budgets too; a budget of 0 is any instance")
    func kinds() {
        let events = Self.logins(2, overlap: true)
        let interactors = TraceAnalyzer.analyze(events, options: .init(maxAlive: ["LoggedInInteractor": 1]))
        #expect(interactors.ruleAndSubject == ["over-budget LoggedInInteractor#11"], "\(interactors)")
        let none = TraceAnalyzer.analyze(events, options: .init(maxAlive: ["LoggedInRouter": 0]))
        #expect(none.ruleAndSubject == ["over-budget LoggedInRouter#10"], "\(none)")
        var b = TraceBuilder()
        b.root(2)
        for k: NodeID in 1...3 { b.add(.taskStart(task: 100 + k, owner: 1, label: "poll")) }
        b.add(.sessionEnd(reason: "exit"))
        let tasks = TraceAnalyzer.analyze(b.events, options: .init(maxAlive: ["RootInteractor 'poll'": 2]))
        #expect(tasks.findings.map(\.subjectName) == ["RootInteractor#1 'poll'"], "a task finding names its owner: \(tasks)")
    }

    @Test("a hundred thousand instances over a budget of 1: one finding, its ids listed up to ten", .dedicatedThread, .singleThreaded)
    func many() throws {
        var b = TraceBuilder()
        b.root(2)
        for k in 0..<100_000 { b.add(.routerCreated(id: NodeID(10 + k), type: "RowRouter", interactor: 0, interactorType: "")) }
        b.add(.sessionEnd(reason: "exit"))
        let report = TraceAnalyzer.analyze(b.events, options: .init(maxAlive: ["RowRouter": 1]))
        #expect(report.findings.count == 1, "\(report)")
        #expect(try #require(report.findings.first).message.hasPrefix("2 alive at once (#10, #11), over the budget of 1"))
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .overBudget))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
