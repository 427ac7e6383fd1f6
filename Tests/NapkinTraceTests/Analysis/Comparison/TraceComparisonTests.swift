import NapkinTrace
import NapkinTraceReader
import Testing

/// Findings are matched by rule, type path and task label (ids, seqs and
/// occurrences aside); routers by path; measures against the thresholds.
@Suite("Trace comparison")
struct TraceComparisonTests {
    /// Root → Home → Order (routers 2, 4, 6), then a second Order (8) after the first is gone.
    private func flow() -> TraceBuilder {
        var b = TraceBuilder.homeTree()
        b.child(6, "Order", of: 4)
        b.detach(6, from: 4)
        b.release(6)
        b.child(8, "Order", of: 4)
        return b
    }

    private func history(_ b: TraceBuilder) -> TraceHistory {
        var history = TraceHistory()
        for event in b.events { history.apply(event) }
        return history
    }

    private func finding(_ rule: String, _ type: String, _ id: NodeID, label: String? = nil,
                         subject: Finding.SubjectKind = .router) throws -> Finding {
        Finding(rule: try #require(Finding.Rule(rawValue: rule)), subject: subject, type: type, id: id, label: label,
                seqs: [id], time: 0, message: "m")
    }

    @Test("the same rule about the same type path is the same finding, whatever the id or occurrence")
    func findingsMatchByTypePath() throws {
        let h = history(flow())
        let before = ComparedTrace(history: h, findings: [try finding("not-deallocated", "OrderRouter", 6)])
        let after = ComparedTrace(history: h, findings: [try finding("not-deallocated", "OrderRouter", 8)])
        let comparison = TraceComparison(before: before, after: after)
        #expect(comparison.newFindings.isEmpty && comparison.fixedFindings.isEmpty)
        #expect(comparison.keptFindings.map(\.path?.description) == ["RootRouter/HomeRouter/OrderRouter[2]"])
        #expect(!comparison.isRegression)
    }

    @Test("one more finding of a kind is new; the one at the same path is the old one")
    func extraFindingIsNew() throws {
        let h = history(flow())
        let before = ComparedTrace(history: h, findings: [try finding("not-deallocated", "OrderRouter", 8)])
        let after = ComparedTrace(history: h, findings: [try finding("not-deallocated", "OrderRouter", 6),
                                                         try finding("not-deallocated", "OrderRouter", 8)])
        let comparison = TraceComparison(before: before, after: after)
        #expect(comparison.newFindings.map(\.path?.description) == ["RootRouter/HomeRouter/OrderRouter"])
        #expect(comparison.fixedFindings.isEmpty)
        #expect(comparison.isRegression)
        let reverse = TraceComparison(before: after, after: before)
        #expect(reverse.fixedFindings.map(\.finding.id) == [6])
        #expect(!reverse.isRegression)
    }

    @Test("another rule, another type path or another task label is another finding")
    func differentKeys() throws {
        let h = history(flow())
        let before = ComparedTrace(history: h, findings: [try finding("orphaned-task", "HomeInteractor", 3, label: "poll", subject: .task)])
        for other in [try finding("orphaned-task", "HomeInteractor", 3, label: "sync", subject: .task),
                      try finding("orphaned-task", "OrderInteractor", 7, label: "poll", subject: .task),
                      try finding("not-deallocated", "HomeRouter", 4)] {
            let comparison = TraceComparison(before: before, after: ComparedTrace(history: h, findings: [other]))
            #expect(comparison.newFindings.count == 1 && comparison.fixedFindings.count == 1, "\(other)")
        }
        // A task finding names the owner interactor: its path is the router's.
        let same = TraceComparison(before: before, after: ComparedTrace(history: h, findings: before.findings))
        #expect(same.keptFindings.first?.path?.description == "RootRouter/HomeRouter")
    }

    @Test("routers only one run has, with the counts of their type under their parent")
    func appearedAndDisappeared() {
        var more = flow()
        more.child(10, "Order", of: 4)
        let comparison = TraceComparison(before: ComparedTrace(history: history(flow()), findings: []),
                                         after: ComparedTrace(history: history(more), findings: []))
        #expect(comparison.appeared.map(\.path.description) == ["RootRouter/HomeRouter/OrderRouter[3]"])
        #expect(comparison.appeared.first?.before == 2 && comparison.appeared.first?.after == 3)
        #expect(comparison.disappeared.isEmpty)
        #expect(comparison.atEnd.filter { $0.presence == .after }.map(\.path.description) == ["RootRouter/HomeRouter/OrderRouter[3]"])
        #expect(!comparison.isRegression && comparison.hasChanges)
    }

    @Test("a measure is reported only past both the share and the absolute threshold")
    func thresholds() {
        let t = ComparisonThresholds.default
        #expect(!t.passes(.timeAlive, from: 100_000_000, to: 300_000_000), "+200% but only 200ms")
        #expect(!t.passes(.timeAlive, from: 4_000_000_000, to: 5_000_000_000), "1s but only +25%")
        #expect(t.passes(.timeAlive, from: 400_000_000, to: 1_000_000_000))
        #expect(t.passes(.timeAlive, from: 1_000_000_000, to: 400_000_000))
        #expect(t.passes(.timeAttached, from: 0, to: 300_000_000))
        #expect(t.passes(.tasks, from: 1, to: 2) && !t.passes(.tasks, from: 4, to: 5) && !t.passes(.tasks, from: 3, to: 3))
    }

    @Test("a router kept longer: its lifetimes change; its tree at the end differs")
    func lifetimes() {
        var kept = flow()
        kept.wait(5 * .second)
        kept.add(.mark(text: "later"))
        var gone = flow()
        gone.detach(8, from: 4)
        gone.release(8)
        gone.wait(5 * .second)
        gone.add(.mark(text: "later"))
        let comparison = TraceComparison(before: ComparedTrace(history: history(gone), findings: []),
                                         after: ComparedTrace(history: history(kept), findings: []))
        let changed = comparison.changes.filter { $0.path.description == "RootRouter/HomeRouter/OrderRouter[2]" }.map(\.measure)
        #expect(changed == [.timeAttached, .timeAlive])
        #expect(comparison.atEnd.map { "\($0.path) \($0.presence.rawValue)" }
                == ["RootRouter both", "RootRouter/HomeRouter both", "RootRouter/HomeRouter/OrderRouter[2] after"])
    }
}
