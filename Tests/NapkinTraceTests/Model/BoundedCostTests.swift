@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing
import TestSupport

/// The model and the analysis stay near-linear in time and bounded in memory
/// on hostile shapes, and say so when a trace asks for more.
@Suite("Bounded cost on hostile shapes")
struct BoundedCostTests {
    /// Builds `events` with increasing seqs and times.
    struct Events {
        var events: [TraceEvent] = [TraceEvent(seq: 1, time: 0, kind: .sessionStart(SessionInfo(app: "hostile", pid: 1, wallClock: 0)))]
        var seq: UInt64 = 1

        mutating func add(_ kind: TraceEvent.Kind, at time: UInt64? = nil) {
            seq += 1
            events.append(TraceEvent(seq: seq, time: time ?? seq * 1_000, kind: kind))
        }

        mutating func router(_ id: NodeID) {
            add(.interactorCreated(id: id - 1, type: "I"))
            add(.routerCreated(id: id, type: "R", interactor: id - 1, interactorType: "I"))
        }
    }

    @Test("a huge subtree moved again and again by single events: the analysis stops and the integrity says so", .dedicatedThread, .singleThreaded)
    func hugeSubtreeMoves() {
        var e = Events()
        e.router(2)
        e.add(.launch(router: 2))
        // A chain of 5,000 routers under #4, which is not in the tree yet.
        e.router(4)
        var parent: NodeID = 4
        for k in 0..<5_000 {
            let id = NodeID(6 + 2 * k)
            e.router(id)
            e.add(.attach(parent: parent, child: id))
            parent = id
        }
        // Attach and detach #4 (and so the whole chain) 2,000 times, with no (de)activations.
        for _ in 0..<2_000 {
            e.add(.attach(parent: 2, child: 4))
            e.add(.detach(parent: 2, child: 4))
        }
        var state = TraceState()
        for event in e.events { state.apply(event) }
        // The analysis stops with the model: its rules do no walking either.
        var analyzer = TraceAnalyzer()
        for event in e.events { analyzer.consume(event) }
        #expect(analyzer.state.stoppedAt != nil)
        #expect(state.stoppedAt != nil, "10 million walk steps for 24,000 events were not noticed")
        let integrity = TraceIntegrity().including(state)
        #expect(integrity.problems.map(\.kind) == [.tooMuchWork])
        #expect(!integrity.isUsable)
    }

    @Test("the same moves written as the framework writes them (each move (de)activates every interactor) are followed to the end", .dedicatedThread, .singleThreaded)
    func movesPaidForByEvents() {
        var e = Events()
        e.router(2)
        e.add(.launch(router: 2))
        e.router(4)
        var ids: [NodeID] = [4]
        for k in 0..<300 {
            let id = NodeID(6 + 2 * k)
            e.router(id)
            e.add(.attach(parent: ids.last!, child: id))
            ids.append(id)
        }
        for _ in 0..<200 {
            e.add(.attach(parent: 2, child: 4))
            for id in ids { e.add(.activate(interactor: id - 1)) }
            e.add(.detach(parent: 2, child: 4))
            for id in ids { e.add(.deactivate(interactor: id - 1)) }
        }
        var state = TraceState()
        for event in e.events { state.apply(event) }
        #expect(state.stoppedAt == nil)
        #expect(TraceIntegrity().including(state).isUsable)
    }

    @Test("100,000 children of one parent attached and detached: constant time each, every count right", .dedicatedThread, .singleThreaded)
    func hundredThousandSiblings() {
        var e = Events()
        e.router(2)
        e.add(.launch(router: 2))
        let children = (0..<100_000).map { NodeID(4 + 2 * $0) }
        for id in children {
            e.router(id)
            e.add(.attach(parent: 2, child: id))
        }
        for id in children.reversed() where id % 4 == 0 { e.add(.detach(parent: 2, child: id)) }
        for id in children where id % 4 != 0 { e.add(.detach(parent: 2, child: id)) }
        var analyzer = TraceAnalyzer()
        for event in e.events { analyzer.consume(event) }
        #expect(analyzer.state[2]?.childCount == 0)
        #expect(analyzer.state.stoppedAt == nil)
        // A group attached in one go: no duplicate-child; detached, not deallocated: at most one finding each.
        #expect(analyzer.findings.allSatisfy { $0.rule != .duplicateChild })
    }

    @Test("tasks running across many deactivations: pending checks stay bounded by the live tasks, not one per deactivation")
    func checksDoNotMultiply() {
        var e = Events()
        e.router(2)
        e.add(.launch(router: 2))
        e.add(.activate(interactor: 1))
        for task in 0..<200 { e.add(.taskStart(task: NodeID(1_000 + task), owner: 1, label: "t")) }
        for _ in 0..<500 {
            e.add(.deactivate(interactor: 1))
            e.add(.activate(interactor: 1))
        }
        var analyzer = TraceAnalyzer(options: .init(grace: .max / 2))
        for event in e.events { analyzer.consume(event) }
        // 100,000 requests (200 tasks × 500 deactivations): the queue is compacted to
        // one check per task whenever it outgrows its limit (at least 4,096).
        #expect(analyzer.pendingChecks <= 4_096 + 2 * 200, "\(analyzer.pendingChecks) checks for 200 tasks")
    }

    @Test("ids created again while alive are counted, not applied")
    func idsReused() {
        var e = Events()
        e.router(2)
        e.add(.launch(router: 2))
        e.add(.activate(interactor: 1))
        e.add(.interactorCreated(id: 1, type: "Other"))          // an interactor id alive
        e.add(.taskStart(task: 50, owner: 1, label: "a"))
        e.add(.taskStart(task: 50, owner: 1, label: "b"))         // a task id still running
        e.add(.taskStart(task: 2, owner: 1, label: "c"))          // a task id that names a router
        var state = TraceState()
        for event in e.events { state.apply(event) }
        #expect(state.idConflictCount == 3)
        #expect(state.firstIDConflict?.id == 1)
        #expect(state[1]?.type == "I")
        #expect(state.task(50)?.label == "a")
        let integrity = TraceIntegrity().including(state)
        #expect(integrity.problems.map(\.kind) == [.idReused])
        #expect(integrity.problems.first?.count == 3)
    }

    @Test("extreme numbers never trap: dropped counts saturate, deadlines near 2^64 saturate")
    func extremeNumbers() {
        var e = Events()
        e.router(2)
        e.add(.launch(router: 2))
        e.router(4)
        e.add(.attach(parent: 2, child: 4))
        e.add(.dropped(count: .max, firstSeq: 1, lastSeq: .max), at: 10_000)
        e.add(.dropped(count: .max, firstSeq: 1, lastSeq: .max), at: 20_000)
        e.add(.detach(parent: 2, child: 4), at: .max - 5)
        e.add(.mark(text: "end"), at: .max)
        var analyzer = TraceAnalyzer()
        for event in e.events { analyzer.consume(event) }
        analyzer.advance(to: .max)
        analyzer.finish()
        #expect(analyzer.state.droppedEvents == .max)
        #expect(analyzer.findings.contains { $0.rule == .eventsDropped && $0.message.contains("\(UInt64.max)") })
    }
}
