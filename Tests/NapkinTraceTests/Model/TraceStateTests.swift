import NapkinTrace
import Testing
import TestSupport

/// The tree model folded from events: the tree, its changes, time travel,
/// misuse, and memory that follows the live nodes rather than the trace.
@Suite("Trace state")
struct TraceStateTests {
    /// root (#2) ─ home (#4) ─ profile (#6)
    ///           └ menu (#8)
    private func tree() -> TraceBuilder {
        var b = TraceBuilder.homeProfileTree()
        b.child(8, "Menu", of: 2)
        return b
    }

    /// `kind node other` of a misuse, for comparisons.
    private func describe(_ misuse: TraceState.Misuse?) -> String? {
        misuse.map { "\($0.kind) \($0.node) \($0.other.map(String.init) ?? "-")" }
    }

    private func names(_ tree: [TraceState.PlacedNode]) -> [String] {
        tree.map { String(repeating: "  ", count: $0.depth) + $0.node.name }
    }

    @Test("running hooks: started by activate and deactivate, ended by hook_end, followed only when the session records hook ends")
    func runningHooks() {
        var b = TraceBuilder.homeTree(revision: 1)
        let deactivate = b.add(.deactivate(interactor: 3))
        var state = b.state()
        #expect(state.recordsHookEnds)
        #expect(state[3]?.runningHook == RunningHook(.willResignActive, since: TraceMoment(seq: deactivate.seq, time: deactivate.time)))
        #expect(state[1]?.runningHook == nil, "the root's didBecomeActive returned")
        b.add(.hookEnd(interactor: 3))
        let activate = b.add(.activate(interactor: 3))
        state = b.state()
        #expect(state[3]?.runningHook?.hook == .didBecomeActive && state[3]?.runningHook?.since.seq == activate.seq)
        #expect(state.eventCount(.hookEnd) == 3)
        // An end without a running hook changes nothing; an end for an unknown id is a misuse.
        b.add(.hookEnd(interactor: 3))
        b.add(.hookEnd(interactor: 3))
        state = b.state()
        #expect(state[3]?.runningHook == nil)
        #expect(state.apply(TraceEvent(seq: 99, time: b.time, kind: .hookEnd(interactor: 1_000)))?.kind == .unknownNode)
        // A session written before hook_end existed: no hook is followed, whatever the events.
        var old = TraceBuilder.homeTree()
        old.add(.deactivate(interactor: 3))
        let oldState = old.state()
        #expect(!oldState.recordsHookEnds && oldState[3]?.runningHook == nil && oldState[1]?.runningHook == nil)
    }

    @Test("routers, interactors and links are built from the events")
    func treeBuilding() {
        let state = tree().state()
        #expect(names(state.liveTree()) == ["RootRouter#2", "  HomeRouter#4", "    ProfileRouter#6", "  MenuRouter#8"])
        #expect(state.roots == [2])
        #expect(state.nodeCount == 8)
        #expect(state.createdCount == 8)
        #expect(state.maxNodeID == 8)
        #expect(state.session?.app == "test")
        guard let home = state[4], let interactor = state[3], let root = state[2] else {
            Issue.record("missing nodes")
            return
        }
        #expect(home.kind == .router)
        #expect(home.type == "HomeRouter")
        #expect(home.interactor == 3)
        #expect(home.parent == 2)
        #expect(home.children == [6])
        #expect(home.isLoaded)
        #expect(home.isInLiveTree)
        #expect(!home.isLaunched)
        #expect(root.isLaunched)
        #expect(root.children == [4, 8])
        #expect(interactor.kind == .interactor)
        #expect(interactor.type == "HomeInteractor")
        #expect(interactor.router == 4)
        #expect(interactor.isActive)
        #expect(state.isActive(router: 4))
        #expect(!state.isActive(router: 99))
        #expect(state.detachedRouters().isEmpty)
        #expect(names(state.subtree(4)) == ["HomeRouter#4", "  ProfileRouter#6"])
        #expect(state.eventCount(.attach) == 3)
        #expect(state.eventCount(.router) == 4)
    }

    @Test("a router's creation record creates its interactor when it was not announced")
    func routerWithoutInteractorRecord() {
        var state = TraceState()
        state.apply(TraceEvent(seq: 1, time: 0, kind: .routerCreated(id: 2, type: "R", interactor: 1, interactorType: "I")))
        #expect(state[1]?.type == "I")
        #expect(state[1]?.router == 2)
        #expect(state[2]?.interactor == 1)
        // A router without an interactor has none.
        state.apply(TraceEvent(seq: 2, time: 0, kind: .routerCreated(id: 3, type: "Bare", interactor: 0, interactorType: "")))
        #expect(state[3]?.interactor == nil)
        #expect(!state.isActive(router: 3))
    }

    @Test("time travel: folding up to a sequence number shows the tree at that moment")
    func timeTravel() {
        var b = tree()
        let built = b.seq
        b.detach(4, from: 2)
        let detached = b.seq
        b.release(4)        // Home goes; Profile, still attached to it, is orphaned
        let released = b.seq
        b.add(.deallocated(id: 6))
        b.add(.deallocated(id: 5))

        // Before anything was attached.
        let early = b.state(upTo: 6)
        #expect(names(early.liveTree()) == ["RootRouter#2"])
        #expect(early.lastSeq == 6)

        // Halfway through building: Home attached and active, Profile created but not attached.
        let halfway = b.state(upTo: 13)
        #expect(names(halfway.liveTree()) == ["RootRouter#2", "  HomeRouter#4"])
        #expect(halfway[6] != nil && halfway[6]?.parent == nil)
        #expect(halfway.detachedRouters().map(\.id) == [6])

        #expect(names(b.state(upTo: built).liveTree()).count == 4)

        let afterDetach = b.state(upTo: detached)
        #expect(names(afterDetach.liveTree()) == ["RootRouter#2", "  MenuRouter#8"])
        #expect(afterDetach.detachedRouters().map(\.id) == [4])
        #expect(afterDetach[6]?.isInLiveTree == false)
        #expect(afterDetach[6]?.parent == 4)     // still attached to its (detached) parent
        #expect(afterDetach[3]?.isActive == false)
        #expect(afterDetach.time == b.events[Int(detached) - 1].time)

        let afterRelease = b.state(upTo: released)
        #expect(afterRelease[4] == nil && afterRelease[3] == nil)
        #expect(afterRelease[6]?.orphanedFrom?.parent == 4)
        #expect(afterRelease.detachedRouters().map(\.id) == [6])

        let end = b.state()
        #expect(end.nodeCount == 4)
        #expect(end.deallocatedCount == 4)
        #expect(names(end.liveTree()) == ["RootRouter#2", "  MenuRouter#8"])
    }

    @Test("detach and re-attach: the subtree leaves and rejoins the live tree")
    func detachAndReattach() {
        var b = tree()
        b.detach(4, from: 2)
        let detachSeq = b.seq - 1
        var state = b.state()
        #expect(state[4]?.parent == nil)
        #expect(state[4]?.isInLiveTree == false)
        #expect(state[6]?.isInLiveTree == false)
        #expect(state[4]?.leftTreeAt?.seq == detachSeq)
        #expect(state[6]?.leftTreeAt?.seq == detachSeq)
        #expect(state[2]?.children == [8])

        let reattach = b.add(.attach(parent: 2, child: 4))
        b.add(.activate(interactor: 3))
        state = b.state()
        #expect(names(state.liveTree()) == ["RootRouter#2", "  MenuRouter#8", "  HomeRouter#4", "    ProfileRouter#6"])
        #expect(state[4]?.attachedAt?.seq == reattach.seq)
        #expect(state[6]?.isInLiveTree == true)
        #expect(state.isActive(router: 4))
        #expect(state.detachedRouters().isEmpty)

        // Moving a detached subtree under another parent.
        b.detach(4, from: 2)
        b.add(.attach(parent: 8, child: 4))
        state = b.state()
        #expect(names(state.liveTree()) == ["RootRouter#2", "  MenuRouter#8", "    HomeRouter#4", "      ProfileRouter#6"])
    }

    @Test("a parent deallocated while holding children orphans them")
    func orphaning() {
        var b = tree()
        b.detach(4, from: 2)
        let deinitEvent = b.add(.deallocated(id: 4))
        var state = b.state()
        let profile = state[6]
        #expect(profile?.parent == nil)
        #expect(profile?.orphanedFrom?.parent == 4)
        #expect(profile?.orphanedFrom?.parentType == "HomeRouter")
        #expect(profile?.orphanedFrom?.seq == deinitEvent.seq)
        #expect(state.detachedRouters().map(\.id) == [6])
        // The interactor of the deallocated router loses its router.
        #expect(state[3] != nil && state[3]?.router == nil)

        // A root deallocated while launched: its children leave the live tree.
        b.add(.deallocated(id: 2))
        state = b.state()
        #expect(state.roots.isEmpty)
        #expect(state.liveTree().isEmpty)
        #expect(state[8]?.isInLiveTree == false)
        #expect(state[8]?.orphanedFrom?.parent == 2)
        #expect(state[8]?.leftTreeAt?.seq == b.seq)

        // Re-attaching an orphan clears its orphaned mark.
        b.root(10, "NewRoot")
        b.add(.attach(parent: 10, child: 8))
        state = b.state()
        #expect(state[8]?.orphanedFrom == nil)
        #expect(state[8]?.isInLiveTree == true)
    }

    @Test("tasks: started, cancelled, ended; owners keep their running tasks")
    func tasks() {
        var b = tree()
        b.add(.taskStart(task: 20, owner: 3, label: "poll"))
        b.add(.taskStart(task: 21, owner: 3, label: nil))
        var state = b.state()
        #expect(state.taskCount == 2)
        #expect(state[3]?.runningTasks == [20, 21])
        #expect(state.runningTaskCount(router: 4) == 2)
        #expect(state.task(20)?.label == "poll")
        #expect(state.task(20)?.displayName == "'poll'")
        #expect(state.task(21)?.displayName == "task")
        #expect(state.task(20)?.startedWhileInactive == false)

        b.detach(4, from: 2)
        let cancel = b.add(.taskCancel(task: 20))
        b.add(.taskCancel(task: 20))     // a second request keeps the first one's seq
        b.add(.taskEnd(task: 21, outcome: .completed))
        state = b.state()
        #expect(state.task(20)?.cancelRequested == cancel.seq)
        #expect(state[3]?.runningTasks == [20])
        #expect(state.tasksEnded == 1)

        // The owner goes away while its task runs.
        b.release(4)
        state = b.state()
        #expect(state.task(20)?.ownerGone == true)
        b.add(.taskEnd(task: 20, outcome: .cancelled))
        b.add(.taskEnd(task: 99, outcome: .cancelled))   // unknown task: ignored
        state = b.state()
        #expect(state.taskCount == 0)
        #expect(state.tasksStarted == 2 && state.tasksEnded == 2)

        // A task started while its owner is inactive says so.
        b.add(.taskStart(task: 30, owner: 7, label: nil))   // Menu's interactor is active
        b.add(.deactivate(interactor: 7))
        b.add(.taskStart(task: 31, owner: 7, label: nil))
        state = b.state()
        #expect(state.task(30)?.startedWhileInactive == false)
        #expect(state.task(31)?.startedWhileInactive == true)
    }

    @Test("misuse: double attach, detach of a non-child, events after deinit, unknown nodes")
    func misuse() {
        var b = tree()
        var state = b.state()
        #expect(describe(state.apply(b.add(.attach(parent: 2, child: 4)))) == "doubleAttach 4 2")
        #expect(state[2]?.children == [4, 8])   // unchanged

        // Attached to a second parent without a detach: reported, and the tree keeps the newest link.
        #expect(describe(state.apply(b.add(.attach(parent: 8, child: 6)))) == "doubleAttach 6 4")
        #expect(state[6]?.parent == 8)
        #expect(state[4]?.children == [])
        #expect(state[8]?.children == [6])

        #expect(describe(state.apply(b.add(.detach(parent: 2, child: 6)))) == "detachNonChild 6 2")
        #expect(state[6]?.parent == 8)

        // Never attached at all.
        b.router(12, "Lonely")
        state.apply(b.events[b.events.count - 2])
        state.apply(b.events[b.events.count - 1])
        #expect(describe(state.apply(b.add(.detach(parent: 2, child: 12)))) == "detachNonChild 12 2")

        state.apply(b.add(.deallocated(id: 12)))
        state.apply(b.add(.deallocated(id: 11)))
        for kind: TraceEvent.Kind in [.activate(interactor: 11), .deactivate(interactor: 11), .load(router: 12),
                                      .launch(router: 12), .deallocated(id: 12), .attach(parent: 2, child: 12),
                                      .attach(parent: 12, child: 4), .detach(parent: 12, child: 4),
                                      .taskStart(task: 40, owner: 11, label: nil)] {
            let misuse = state.apply(b.add(kind))
            #expect(misuse?.kind == .eventAfterDeinit, "\(kind)")
            #expect(misuse?.node == 12 || misuse?.node == 11, "\(kind)")
        }
        // A task started for a deallocated owner is known, and its owner gone.
        #expect(state.task(40)?.ownerGone == true)

        // Ids the trace never created (a partial trace).
        #expect(state.apply(b.add(.activate(interactor: 500)))?.kind == .unknownNode)
        #expect(state.apply(b.add(.deallocated(id: 501)))?.kind == .unknownNode)
        // Nothing above created a node.
        #expect(state[500] == nil && state[501] == nil)
    }

    @Test("views: TraceNode.view and shownViewCount follow the view events, a deinit with a shown view included; a view record after its router's deinit is no misuse, one for an unknown id is")
    func views() {
        var b = tree()
        var state = b.state()
        #expect(state.shownViewCount == 0)
        #expect(state[4]?.view == nil && state[4]?.viewChangedAt == nil)

        let shown = b.add(.view(router: 4, appearance: .shown))
        #expect(state.apply(shown) == nil)
        #expect(state[4]?.view == .shown)
        #expect(state[4]?.viewChangedAt == TraceMoment(seq: shown.seq, time: shown.time))
        #expect(state.shownViewCount == 1)
        // The same appearance again counts once.
        state.apply(b.add(.view(router: 4, appearance: .shown)))
        #expect(state.shownViewCount == 1)
        state.apply(b.add(.view(router: 6, appearance: .shown)))
        state.apply(b.add(.view(router: 8, appearance: .shown)))
        #expect(state.shownViewCount == 3)

        // Covered and removed are not shown; shown again counts again.
        let covered = b.add(.view(router: 4, appearance: .covered))
        state.apply(covered)
        #expect(state[4]?.view == .covered)
        #expect(state[4]?.viewChangedAt?.seq == covered.seq)
        #expect(state.shownViewCount == 2)
        state.apply(b.add(.view(router: 4, appearance: .removed)))
        #expect(state[4]?.view == .removed)
        #expect(state.shownViewCount == 2)
        state.apply(b.add(.view(router: 4, appearance: .shown)))
        #expect(state.shownViewCount == 3)

        // A view is about where it is, not about the tree: detaching changes neither.
        state.apply(b.add(.detach(parent: 2, child: 8)))
        #expect(state[8]?.view == .shown)
        #expect(state.shownViewCount == 3)

        // A router deallocated with its view shown no longer counts; one with a removed view changes nothing.
        #expect(state.apply(b.add(.deallocated(id: 8))) == nil)
        #expect(state.shownViewCount == 2)
        state.apply(b.add(.view(router: 6, appearance: .removed)))
        #expect(state.shownViewCount == 1)
        state.apply(b.add(.deallocated(id: 6)))
        #expect(state.shownViewCount == 1)

        // The view of a gone router may still report (it outlived its router): not a misuse.
        for appearance: ViewAppearance in [.shown, .covered, .removed] {
            #expect(state.apply(b.add(.view(router: 8, appearance: appearance))) == nil, "\(appearance)")
        }
        #expect(state[8] == nil)
        #expect(state.shownViewCount == 1)
        #expect(state.unknownIDCount == 0)

        // An id the trace never created: a partial or corrupt trace.
        let unknown = b.add(.view(router: 99, appearance: .shown))
        #expect(describe(state.apply(unknown)) == "unknownNode 99 -")
        #expect(state.unknownIDCount == 1)
        #expect(state.firstUnknownID?.id == 99 && state.firstUnknownID?.seq == unknown.seq)
        #expect(state[99] == nil)
        #expect(state.shownViewCount == 1)
        #expect(state.eventCount(.view) == 12)
    }

    @Test("counters: marks (the last 100), dropped events, the end record, a second session resets")
    func counters() {
        var b = TraceBuilder()
        for i in 0..<150 { b.add(.mark(text: "m\(i)")) }
        b.add(.dropped(count: 5, firstSeq: 1000, lastSeq: 1004))
        b.add(.dropped(count: 2, firstSeq: 2000, lastSeq: 2001))
        var state = b.state()
        #expect(state.recentMarks.count == 100)
        #expect(state.recentMarks.first?.text == "m50")
        #expect(state.recentMarks.last?.text == "m149")
        #expect(state.droppedEvents == 7)
        #expect(!state.ended)
        #expect(state.eventCount(.mark) == 150)
        b.add(.sessionEnd(reason: "exit"))
        state = b.state()
        #expect(state.ended)

        b.add(.sessionStart(SessionInfo(app: "second", pid: 2, wallClock: 0)))
        b.root(2)
        state = b.state()
        #expect(state.session?.app == "second")
        #expect(state.recentMarks.isEmpty)
        #expect(state.droppedEvents == 0)
        #expect(!state.ended)
        #expect(state.nodeCount == 2)
        #expect(state.eventCount(.session) == 1)
        #expect(state.eventCount(.mark) == 0)
    }

    @Test("memory follows the live nodes: 20,000 create/attach/task/detach/deinit cycles leave a small state", .dedicatedThread, .singleThreaded)
    func memoryIsBounded() {
        var state = TraceState()
        var seq: UInt64 = 0
        var time: UInt64 = 0
        var misuses = 0
        func apply(_ kind: TraceEvent.Kind) {
            seq += 1
            time += 1_000
            if state.apply(TraceEvent(seq: seq, time: time, kind: kind)) != nil { misuses += 1 }
        }
        apply(.sessionStart(SessionInfo(app: "long", pid: 1, wallClock: 0)))
        apply(.interactorCreated(id: 1, type: "RootInteractor"))
        apply(.routerCreated(id: 2, type: "RootRouter", interactor: 1, interactorType: "RootInteractor"))
        apply(.launch(router: 2))
        apply(.activate(interactor: 1))
        var next: NodeID = 3
        var peak = 0
        for cycle in 0..<20_000 {
            let (interactor, router, task) = (next, next + 1, next + 2)
            next += 3
            apply(.interactorCreated(id: interactor, type: "ScreenInteractor"))
            apply(.routerCreated(id: router, type: "ScreenRouter", interactor: interactor, interactorType: "ScreenInteractor"))
            apply(.attach(parent: 2, child: router))
            apply(.activate(interactor: interactor))
            apply(.taskStart(task: task, owner: interactor, label: "poll"))
            apply(.load(router: router))
            if cycle % 5000 == 0 { peak = max(peak, state.nodeCount) }
            if cycle % 1000 == 0 { apply(.mark(text: "cycle \(cycle)")) }
            apply(.detach(parent: 2, child: router))
            apply(.deactivate(interactor: interactor))
            apply(.taskCancel(task: task))
            apply(.taskEnd(task: task, outcome: .cancelled))
            apply(.deallocated(id: router))
            apply(.deallocated(id: interactor))
        }
        #expect(misuses == 0)
        #expect(state.nodeCount == 2)
        #expect(state.taskCount == 0)
        #expect(state.roots == [2])
        #expect(state[2]?.children == [])
        #expect(state.recentMarks.count == 20)
        #expect(peak == 4)
        #expect(state.createdCount == 40_002)
        #expect(state.deallocatedCount == 40_000)
        #expect(state.tasksStarted == 20_000 && state.tasksEnded == 20_000)
    }

    @Test("detached routers and lone interactors: the limit with the smallest ids, by id, whatever the creation order; no limit gives all")
    func outsideTheTreeWithALimit() {
        var b = TraceBuilder()
        b.root(2)
        // 300 routers (ids 10, 12, ... 608) created in a scrambled order, attached and detached: alive outside the tree.
        let ids: [NodeID] = (0..<300).map { 10 + 2 * NodeID(($0 * 7) % 300) }
        for id in ids {
            b.router(id, "Row")
            b.attach(id, to: 2)
            b.detach(id, from: 2)
        }
        // 100 interactors whose routers went away (ids 1001, 1003, ...), in reverse order.
        for k in (0..<100).reversed() {
            let router = NodeID(1002 + 2 * k)
            b.router(router, "Gone")
            b.add(.deallocated(id: router))
        }
        let state = b.state()
        let sorted = ids.sorted()
        #expect(state.detachedRouters(limit: 10).map(\.id) == Array(sorted.prefix(10)))
        #expect(state.detachedRouters(limit: 64).map(\.id) == Array(sorted.prefix(64)))
        #expect(state.detachedRouters().map(\.id) == sorted)
        #expect(state.detachedRouters(limit: 0).isEmpty)
        #expect(state.loneInteractors(limit: 5).map(\.id) == [1001, 1003, 1005, 1007, 1009])
        #expect(state.loneInteractors().count == 100)
    }
}
