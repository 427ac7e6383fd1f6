@testable import NapkinTrace
import Testing
import TestSupport

/// ``LiveTreeRecords``: replayed after a resumed session record, the records
/// it keeps give a reader the tree the whole trace gives, as a clean trace.
@Suite("Live tree records (the replay of a socket sink)")
struct LiveTreeRecordsTests {
    /// The records `events` leave, replayed.
    static func replay(of events: [TraceEvent]) -> [TraceEvent] {
        var records = LiveTreeRecords()
        for event in events { records.apply(event) }
        return records.replay()
    }

    /// `replay` as a reader gets it: a resumed session record first (of
    /// the same format revision as the session of `events`).
    static func resumedPart(_ replay: [TraceEvent], after events: [TraceEvent]) -> [TraceEvent] {
        let next = replay.first
        let revision = events.first.flatMap { if case .sessionStart(let info) = $0.kind { info.revision } else { nil } } ?? 0
        let info = SessionInfo(app: "test", pid: 1, wallClock: 1_700_000_000_000_000_000, revision: revision,
                               part: 2, lost: 0, replayCount: replay.count)
        let seq = next.map { $0.seq - 1 } ?? (events.last?.seq ?? 1)
        let time = next?.time ?? (events.last?.time ?? 0)
        return [TraceEvent(seq: seq, time: time, kind: .sessionStart(info))] + replay
    }

    static func fold(_ events: [TraceEvent]) -> TraceState {
        var state = TraceState()
        for event in events { state.apply(event) }
        return state
    }

    /// Checks, after every event of `events`, that the replay rebuilds the
    /// tree, and every `every` events that it reads as a clean trace.
    static func expectReplayRebuilds(_ events: [TraceEvent], every: Int = 1, sourceLocation: SourceLocation = #_sourceLocation) throws {
        var records = LiveTreeRecords()
        var truth = TraceState()
        for (index, event) in events.enumerated() {
            records.apply(event)
            truth.apply(event)
            let replay = records.replay()
            let part = resumedPart(replay, after: Array(events.prefix(index + 1)))
            let rebuilt = fold(part)
            let expected = treeSummary(truth), actual = treeSummary(rebuilt)
            guard expected == actual else {
                let missing = expected.filter { !actual.contains($0) }, extra = actual.filter { !expected.contains($0) }
                Issue.record("after seq \(event.seq) (\(event.kind)): the replay gives another tree\nexpected \(missing)\nactual   \(extra)",
                             sourceLocation: sourceLocation)
                return
            }
            if index % every == 0 || index == events.count - 1 {
                var bytes: [UInt8] = []
                for record in part { TraceEncoder.append(record, to: &bytes) }
                let (_, reader) = try readAll(bytes: bytes)
                let integrity = reader.integrity.including(rebuilt)
                guard integrity.isUsable else {
                    Issue.record("after seq \(event.seq): the replay reads as damaged: \(integrity.problems)", sourceLocation: sourceLocation)
                    return
                }
                var analyzer = TraceAnalyzer()
                for record in part { analyzer.consume(record) }
                // The replay itself establishes no finding the trace did not have by then.
                var whole = TraceAnalyzer()
                for earlier in events.prefix(index + 1) { whole.consume(earlier) }
                let replayed = Set(analyzer.findings.map { "\($0.rule.rawValue) \($0.id)" })
                let had = Set(whole.findings.map { "\($0.rule.rawValue) \($0.id)" })
                guard replayed.isSubset(of: had) else {
                    Issue.record("after seq \(event.seq): the replay alone finds \(replayed.subtracting(had))", sourceLocation: sourceLocation)
                    return
                }
            }
        }
    }

    @Test("a small app, step by step: the replay always rebuilds its tree", .dedicatedThread, .singleThreaded)
    func smallApp() throws {
        var b = TraceBuilder.homeProfileTree()
        b.add(.taskStart(task: 7, owner: 3, label: "announcements"))
        b.add(.view(router: 6, appearance: .shown))
        b.detach(6, from: 4)
        b.add(.taskCancel(task: 7))
        b.add(.view(router: 6, appearance: .removed))
        b.release(6)
        b.router(9, "Settings")
        b.add(.attach(parent: 4, child: 9))
        b.add(.attach(parent: 2, child: 9))      // moved: the tree keeps the newest link
        b.add(.attach(parent: 9, child: 2))      // under its own descendant: ignored
        b.add(.detach(parent: 4, child: 9))      // not its parent: changes nothing
        b.add(.activate(interactor: 8))
        b.add(.load(router: 9))
        try Self.expectReplayRebuilds(b.events)
    }

    @Test("a running task keeps what its start needs: its owner's activation, and the owner itself once gone", .dedicatedThread, .singleThreaded)
    func tasksAcrossActivations() throws {
        var b = TraceBuilder.homeTree()
        b.add(.taskStart(task: 5, owner: 3, label: "first"))       // under the first activation
        b.add(.deactivate(interactor: 3))
        b.add(.taskCancel(task: 5))
        b.add(.taskStart(task: 6, owner: 3, label: "inactive"))    // started while inactive
        b.add(.activate(interactor: 3))
        b.add(.taskStart(task: 7, owner: 3, label: "second"))
        b.add(.deactivate(interactor: 3))
        b.add(.activate(interactor: 3))
        b.add(.detach(parent: 2, child: 4))
        b.add(.deactivate(interactor: 3))
        b.add(.deallocated(id: 4))
        b.add(.deallocated(id: 3))                                 // tasks 5, 6 and 7 outlive their owner
        b.add(.taskEnd(task: 7, outcome: .cancelled))
        b.add(.taskEnd(task: 6, outcome: .cancelled))
        let events = b.events
        try Self.expectReplayRebuilds(events)
        // Once the last task ended, nothing of the owner is left.
        b.add(.taskEnd(task: 5, outcome: .cancelled))
        let replay = Self.replay(of: b.events)
        #expect(!replay.contains { if case .interactorCreated(3, _) = $0.kind { true } else { false } })
        #expect(!replay.contains { if case .routerCreated(4, _, _, _) = $0.kind { true } else { false } })
    }

    @Test("a router deallocated with its view shown is kept until its view goes", .dedicatedThread, .singleThreaded)
    func viewOutlivesRouter() throws {
        var b = TraceBuilder.homeProfileTree()
        b.add(.view(router: 6, appearance: .shown))
        b.detach(6, from: 4)
        b.release(6)
        let whileShown = Self.replay(of: b.events)
        #expect(whileShown.contains { $0.kind == .deallocated(id: 6) })
        b.add(.view(router: 6, appearance: .removed))
        try Self.expectReplayRebuilds(b.events)
        #expect(!Self.replay(of: b.events).contains { $0.kind == .deallocated(id: 6) })
    }

    @Test("open test marks are replayed, ended ones are not")
    func testMarks() {
        var b = TraceBuilder.homeTree()
        b.add(.mark(text: NapkinTrace.testStartedPrefix + "a"))
        b.add(.mark(text: NapkinTrace.testStartedPrefix + "b"))
        b.add(.mark(text: "something"))
        b.add(.mark(text: NapkinTrace.testEndedPrefix + "a"))
        let marks = Self.replay(of: b.events).compactMap { if case .mark(let text) = $0.kind { text } else { nil } }
        #expect(marks == [NapkinTrace.testStartedPrefix + "b"])
    }

    @Test("a live node's latest retained record is replayed, with the tree it names; a gone node's is not")
    func retainedRecords() throws {
        let older = Retainers(paths: [], found: 0, total: 1, note: "nothing found")
        let latest = Retainers(paths: ["RootInteractor#1.store (suspect) → HomeRouter#4"], found: 1, total: 1, note: nil)
        var b = TraceBuilder.homeProfileTree()
        b.detach(4, from: 2)
        b.add(.retained(id: 4, retainers: older))
        b.add(.retained(id: 4, retainers: latest))
        b.add(.retained(id: 6, retainers: older))
        b.release(6)
        let replay = Self.replay(of: b.events)
        let retained = replay.compactMap { if case .retained(let id, let retainers) = $0.kind { (id, retainers) } else { nil } }
        #expect(retained.map(\.0) == [4])
        #expect(retained.first?.1 == latest)
        #expect(Self.fold(Self.resumedPart(replay, after: b.events)).retainers(of: 4) == latest)
        try Self.expectReplayRebuilds(b.events)
    }

    @Test("random apps, step by step: the replay always rebuilds the tree, as a clean trace", .dedicatedThread, .singleThreaded, arguments: 1...12)
    func randomApps(seed: UInt64) throws {
        var app = RandomApp(seed: seed)
        let events = app.run(steps: 250)
        #expect(events.count > 200)
        try Self.expectReplayRebuilds(events, every: 25)
    }

    @Test("random apps that record hook ends: the replay rebuilds which hooks still run, and finds no stuck hook the trace did not", .dedicatedThread, .singleThreaded,
          arguments: 1...12)
    func randomAppsWithHookEnds(seed: UInt64) throws {
        var app = RandomApp(seed: seed, revision: TraceFormat.revision)
        let events = app.run(steps: 250)
        #expect(events.contains { if case .hookEnd = $0.kind { true } else { false } })
        try Self.expectReplayRebuilds(events, every: 25)
    }

    @Test("hook ends: the end of a returned hook is replayed with its start, a running hook's start alone", .dedicatedThread, .singleThreaded)
    func hookEnds() throws {
        var b = TraceBuilder.homeProfileTree(revision: 1)          // every hook so far returned
        let task = b.add(.taskStart(task: 7, owner: 5, label: "watch"))
        let deactivate = b.add(.deactivate(interactor: 5))          // willResignActive still runs
        b.add(.deactivate(interactor: 3))                           // Home resigns and returns,
        b.hookEnd(3)
        b.add(.activate(interactor: 3))                             // then activates again, still running
        try Self.expectReplayRebuilds(b.events)
        let replay = Self.replay(of: b.events)
        let ends = replay.compactMap { if case .hookEnd(let id) = $0.kind { id } else { nil } }
        // The root's and Profile's activations ended; Home's first activation ended but a later one runs.
        #expect(ends == [1, 5], "\(replay.map(\.kind))")
        #expect(replay.contains(deactivate) && replay.contains(task))
        var state = TraceState()
        for event in Self.resumedPart(replay, after: b.events) { state.apply(event) }
        #expect(state[5]?.runningHook == RunningHook(.willResignActive, since: TraceMoment(seq: deactivate.seq, time: deactivate.time)))
        #expect(state[3]?.runningHook?.hook == .didBecomeActive && state[1]?.runningHook == nil)
    }

    @Test("memory follows the live nodes, not the length of the trace", .dedicatedThread, .singleThreaded)
    func boundedMemory() {
        var records = LiveTreeRecords()
        var b = TraceBuilder.homeTree()
        for event in b.events { records.apply(event) }
        var next: NodeID = 10
        for cycle in 0..<5_000 {
            let start = b.events.count
            b.router(next + 1, "Profile")
            b.attach(next + 1, to: 4)
            b.add(.taskStart(task: next + 2, owner: next, label: nil))
            b.detach(next + 1, from: 4)
            b.add(.taskEnd(task: next + 2, outcome: .cancelled))
            b.release(next + 1)
            b.add(.mark(text: "cycle \(cycle)"))
            for event in b.events[start...] { records.apply(event) }
            next += 3
        }
        #expect(records.nodeCount == 4)
        #expect(records.taskCount == 0)
        #expect(Self.replay(of: b.events).count == records.replay().count)
        #expect(records.replay().count == 10)   // 2 routers, 2 interactors: creation, launch, 2 activations, 2 loads, attach
    }
}

/// A random app's trace, as napkin could write it: routers created,
/// launched, attached (now and then under a second parent, under their own
/// descendant, or to the parent they have), detached (now and then from a
/// router that is not their parent), loaded, shown, covered and removed,
/// deallocated with or without their children (whose views may outlive
/// them); interactors activated and deactivated, and deallocated after
/// their routers; tasks started while active or not, cancelled and ended,
/// some outliving their owners; marks, test marks among them.
struct RandomApp {
    private var random: SplitMix
    private var builder: TraceBuilder
    private var nextID: NodeID = 1
    /// Interactors whose latest hook has not ended (revision 1 and later).
    private var inHook: Set<NodeID> = []
    private var routers: [NodeID: (interactor: NodeID, parent: NodeID?, launched: Bool, loaded: Bool)] = [:]
    private var interactors: [NodeID: (active: Bool, router: NodeID?)] = [:]
    private var tasks: [NodeID: Bool] = [:]   // task → cancelled
    /// Gone routers whose view is still shown.
    private var shownAfterDeinit: Set<NodeID> = []
    private var views: [NodeID: ViewAppearance] = [:]

    /// A random app; from format revision 1, its hooks end (most at once, some later, some never).
    init(seed: UInt64, revision: Int = 0) {
        random = SplitMix(seed: seed)
        builder = TraceBuilder(revision: revision)
    }

    private mutating func pick<T>(_ items: [T]) -> T? {
        items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))]
    }

    private mutating func chance(_ percent: UInt64) -> Bool { random.next() % 100 < percent }

    private mutating func newID() -> NodeID {
        defer { nextID += 1 }
        return nextID
    }

    private func isAncestor(_ ancestor: NodeID, of id: NodeID) -> Bool {
        var cursor: NodeID? = id
        while let current = cursor {
            if current == ancestor { return true }
            cursor = routers[current]?.parent
        }
        return false
    }

    mutating func run(steps: Int) -> [TraceEvent] {
        for _ in 0..<steps { step() }
        return builder.events
    }

    private mutating func step() {
        let routerIDs = routers.keys.sorted()
        switch random.next() % 14 {
        case 0, 1:
            guard routers.count < 24 else { return }
            let interactor = newID(), router = newID()
            builder.add(.interactorCreated(id: interactor, type: "I\(interactor)"))
            builder.add(.routerCreated(id: router, type: "R\(router)", interactor: interactor, interactorType: "I\(interactor)"))
            routers[router] = (interactor, nil, false, false)
            interactors[interactor] = (false, router)
        case 2:
            if chance(30) {
                // An interactor without a router.
                let id = newID()
                builder.add(.interactorCreated(id: id, type: "Lone\(id)"))
                interactors[id] = (false, nil)
            } else if let id = pick(routerIDs.filter { routers[$0]!.parent == nil }), routers.values.filter(\.launched).count < 2 {
                builder.add(.launch(router: id))
                routers[id]!.launched = true
            }
        case 3, 4:
            // (A launched root is never attached: see LiveTreeRecords on what a replay does not carry.)
            guard let child = pick(routerIDs.filter { !routers[$0]!.launched }), let parent = pick(routerIDs) else { return }
            builder.add(.attach(parent: parent, child: child))
            // The model ignores an attach under the router itself or its descendant, and one to the parent it has.
            if parent != child && !isAncestor(child, of: parent) && routers[child]!.parent != parent {
                routers[child]!.parent = parent
            }
        case 5:
            if let child = pick(routerIDs.filter { routers[$0]!.parent != nil }) {
                let parent = chance(85) ? routers[child]!.parent! : (pick(routerIDs) ?? child)
                builder.add(.detach(parent: parent, child: child))
                if routers[child]!.parent == parent { routers[child]!.parent = nil }
            }
        case 6, 7:
            guard let id = pick(interactors.keys.sorted()) else { return }
            let active = interactors[id]!.active
            builder.add(active ? .deactivate(interactor: id) : .activate(interactor: id))
            interactors[id]!.active = !active
            if builder.recordsHookEnds {
                if chance(70) {
                    builder.add(.hookEnd(interactor: id))
                    inHook.remove(id)
                } else {
                    inHook.insert(id)
                }
            }
        case 8:
            if let id = pick(routerIDs.filter { !routers[$0]!.loaded }) {
                builder.add(.load(router: id))
                routers[id]!.loaded = true
            }
        case 9:
            let appearances: [ViewAppearance] = [.shown, .covered, .removed]
            if chance(25), let gone = pick(shownAfterDeinit.sorted()) {
                let appearance = pick(appearances)!
                builder.add(.view(router: gone, appearance: appearance))
                if appearance != .shown { shownAfterDeinit.remove(gone) }
            } else if let id = pick(routerIDs) {
                let appearance = pick(appearances.filter { $0 != views[id] })!
                builder.add(.view(router: id, appearance: appearance))
                views[id] = appearance
            }
        case 10:
            guard let owner = pick(interactors.keys.sorted()) else { return }
            let task = newID()
            builder.add(.taskStart(task: task, owner: owner, label: chance(50) ? "t\(task)" : nil))
            tasks[task] = false
        case 11:
            guard let task = pick(tasks.keys.sorted()) else { return }
            if !tasks[task]! && chance(50) {
                builder.add(.taskCancel(task: task))
                tasks[task] = true
            } else {
                builder.add(.taskEnd(task: task, outcome: tasks[task]! ? .cancelled : .completed))
                tasks[task] = nil
            }
        case 12:
            if chance(60), let id = pick(routerIDs) {
                builder.add(.deallocated(id: id))
                for (child, entry) in routers where entry.parent == id { routers[child]!.parent = nil }
                if let interactor = routers[id]?.interactor { interactors[interactor]?.router = nil }
                if views[id] == .shown { shownAfterDeinit.insert(id) }
                views[id] = nil
                routers[id] = nil
            } else if let id = pick(interactors.keys.sorted().filter { interactors[$0]!.router == nil }) {
                builder.add(.deallocated(id: id))
                interactors[id] = nil
                inHook.remove(id)
            }
        case 13 where !inHook.isEmpty && chance(50):
            // A hook that took a while returns.
            let id = pick(inHook.sorted())!
            builder.add(.hookEnd(interactor: id))
            inHook.remove(id)
        default:
            let texts = [NapkinTrace.testStartedPrefix + "a", NapkinTrace.testEndedPrefix + "a",
                         NapkinTrace.testStartedPrefix + "b", NapkinTrace.testEndedPrefix + "b", "note"]
            builder.add(.mark(text: pick(texts)!))
        }
    }
}
