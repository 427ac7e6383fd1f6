import NapkinTrace
import Testing
import TestSupport

/// The whole life of every node, as intervals: attached, active, loaded,
/// deallocated, and each task's start, cancellation and end.
@Suite("Trace history")
struct TraceHistoryTests {
    private func history(_ events: [TraceEvent]) -> TraceHistory {
        var history = TraceHistory()
        for event in events { history.apply(event) }
        return history
    }

    /// `start-end (startSeq-endSeq)`, `…` for an open end.
    private func spans(_ intervals: [TraceHistory.Interval]) -> [String] {
        intervals.map { "\($0.start)-\($0.end.map(String.init) ?? "…") (\($0.startSeq)-\($0.endSeq.map(String.init) ?? "…"))" }
    }

    /// `id label start cancel end outcome` of each task.
    private func lives(_ tasks: [TraceHistory.TaskLife]) -> [String] {
        tasks.map { task in
            [String(task.id), task.label ?? "-", String(task.start), task.cancel.map(String.init) ?? "-",
             task.end.map(String.init) ?? "-", task.outcome?.rawValue ?? "-"].joined(separator: " ")
        }
    }

    /// A root (seq 2-6, t 10-50) and router `<name>Router#4` with interactor #3
    /// (seq 7-8), attached to the root at t 100; time steps by 10 ns.
    private func rootAndChild(_ name: String) -> TraceBuilder {
        var b = TraceBuilder()
        b.step = 10
        b.root(2)
        b.router(4, name)
        b.add(.attach(parent: 2, child: 4), at: 100)
        return b
    }

    @Test("attached spans: launch, attach, detach, re-attach; the parents of each span")
    func attachedIntervals() throws {
        var b = rootAndChild("Home")
        let attach1 = try #require(b.events.last)
        b.add(.activate(interactor: 3), at: 110)
        b.add(.load(router: 4), at: 120)
        let detach1 = b.add(.detach(parent: 2, child: 4), at: 200)
        let deactivate1 = b.add(.deactivate(interactor: 3), at: 210)
        let attach2 = b.add(.attach(parent: 2, child: 4), at: 300)
        let activate2 = b.add(.activate(interactor: 3), at: 310)
        let h = history(b.events)

        let root = try #require(h.life(of: 2))
        #expect(spans(root.attached.map(\.span)) == ["30-… (4-…)"])
        #expect(root.attached.map(\.parent) == [nil])

        let home = try #require(h.life(of: 4))
        #expect(home.name == "HomeRouter#4")
        #expect(home.kind == .router)
        #expect(home.interactor == 3)
        #expect(spans(home.attached.map(\.span)) == ["100-200 (\(attach1.seq)-\(detach1.seq))", "300-… (\(attach2.seq)-…)"])
        #expect(home.attached.map(\.parent) == [2, 2])
        #expect(spans(home.active) == ["110-210 (10-\(deactivate1.seq))", "310-… (\(activate2.seq)-…)"])
        #expect(home.loaded == 120)
        #expect(home.deallocated == nil)
        #expect(h.endTime == 310)
        #expect(h.links.map(\.isAttach) == [true, false, true])
        #expect(h.links.map(\.child) == [4, 4, 4])
    }

    @Test("a repeated attach or activate does not open a second span; a second load keeps the first time")
    func idempotentOpens() throws {
        var b = rootAndChild("Home")
        b.add(.attach(parent: 2, child: 4), at: 110)
        b.add(.activate(interactor: 3), at: 120)
        b.add(.activate(interactor: 3), at: 130)
        b.add(.load(router: 4), at: 140)
        b.add(.load(router: 4), at: 150)
        let home = try #require(history(b.events).life(of: 4))
        #expect(spans(home.attached.map(\.span)) == ["100-… (9-…)"])
        #expect(spans(home.active) == ["120-… (11-…)"])
        #expect(home.loaded == 140)
    }

    @Test("deallocation: the time is kept, the attached span closes, and so do the spans of children attached to it")
    func deallocation() throws {
        var b = rootAndChild("Home")
        b.router(6, "Profile")
        let attach6 = b.add(.attach(parent: 4, child: 6), at: 130)
        b.add(.detach(parent: 2, child: 4), at: 200)
        let deinit4 = b.add(.deallocated(id: 4), at: 300)
        b.add(.deallocated(id: 3), at: 310)
        let h = history(b.events)

        let home = try #require(h.life(of: 4))
        #expect(home.deallocated == 300)
        #expect(home.attached.map(\.span.end) == [200])
        let profile = try #require(h.life(of: 6))
        #expect(profile.deallocated == nil)
        #expect(spans(profile.attached.map(\.span)) == ["130-300 (\(attach6.seq)-\(deinit4.seq))"])
        #expect(h.deinits.map(\.id) == [4])   // routers only
        #expect(h.deinits.first?.at.time == 300)

        // A router deallocated while attached (a root going away) closes its own span.
        b.add(.deallocated(id: 2), at: 400)
        let root = try #require(history(b.events).life(of: 2))
        #expect(root.attached.last?.span.end == 400)
        #expect(root.deallocated == 400)
    }

    @Test("tasks: start, cancellation request, end and outcome, on the owner's row")
    func tasks() throws {
        var b = rootAndChild("Feed")
        b.add(.activate(interactor: 3), at: 110)
        b.add(.taskStart(task: 5, owner: 3, label: "poll"), at: 120)
        b.add(.taskStart(task: 6, owner: 3, label: nil), at: 130)
        b.add(.taskEnd(task: 6, outcome: .completed), at: 140)
        b.add(.deactivate(interactor: 3), at: 200)
        b.add(.taskCancel(task: 5), at: 210)
        b.add(.taskCancel(task: 5), at: 220)
        b.add(.taskEnd(task: 5, outcome: .cancelled), at: 230)
        b.add(.taskStart(task: 7, owner: 3, label: "late"), at: 240)
        let feed = try #require(history(b.events).life(of: 4))
        #expect(lives(feed.tasks) == [
            "5 poll 120 210 230 cancelled",
            "6 - 130 - 140 completed",
            "7 late 240 - - -",
        ])
    }

    @Test("an interactor announced just before its router shares the router's row, with the tasks it started first")
    func interactorRowMerges() throws {
        let (result, _) = try readAll(path: Fixtures.path("task-started-inactive"))
        let h = history(result.events)
        #expect(h.nodes.map(\.name) == ["RootRouter#2", "MenuRouter#5"])
        let menu = try #require(h.life(of: 5))
        #expect(menu.interactor == 3)
        #expect(menu.created == 30_000_000)      // the interactor's creation
        #expect(menu.tasks.map(\.id) == [4])
        #expect(menu.tasks.first?.outcome == .cancelled)
        #expect(menu.tasks.first?.cancel == 900_020_000)
        #expect(menu.active.count == 1)
    }

    @Test("a lone interactor (its router never created) keeps a row of its own")
    func loneInteractor() throws {
        var b = TraceBuilder()
        b.add(.interactorCreated(id: 9, type: "Orphan"), at: 10)
        b.add(.activate(interactor: 9), at: 20)
        b.add(.deactivate(interactor: 9), at: 30)
        b.add(.deallocated(id: 9), at: 40)
        let h = history(b.events)
        let lone = try #require(h.life(of: 9))
        #expect(lone.kind == .interactor)
        #expect(spans(lone.active) == ["20-30 (3-4)"])
        #expect(lone.deallocated == 40)
        #expect(h.deinits.isEmpty)
    }

    @Test("marks and the session; only the first session of a stream is kept")
    func marksAndSessions() {
        var b = TraceBuilder(app: "first")
        b.add(.mark(text: "hello"), at: 5)
        b.add(.sessionStart(SessionInfo(app: "second", pid: 2, wallClock: 0)), at: 6)
        let h = history(b.events)
        #expect(h.session?.app == "first")
        #expect(h.marks.map(\.text) == ["hello"])
        #expect(h.marks.first?.seq == 2)
    }

    @Test("every fixture folds into a history whose spans are well formed", .dedicatedThread, .singleThreaded)
    func fixturesAreWellFormed() throws {
        for name in try Fixtures.allNames() {
            let (result, _) = try readAll(path: Fixtures.path(name))
            let h = history(result.events)
            #expect(!h.nodes.isEmpty, "\(name)")
            for life in h.nodes {
                for interval in life.attached.map(\.span) + life.active {
                    if let end = interval.end, let endSeq = interval.endSeq {
                        #expect(interval.start <= end, "\(name) \(life.name)")
                        #expect(interval.startSeq < endSeq, "\(name) \(life.name)")
                    }
                }
                if let deallocated = life.deallocated {
                    #expect(life.attached.allSatisfy { $0.span.end != nil && $0.span.end! <= deallocated }, "\(name) \(life.name)")
                }
                for task in life.tasks {
                    #expect(task.end.map { $0 >= task.start } ?? true, "\(name) \(life.name)")
                }
            }
        }
    }
}
