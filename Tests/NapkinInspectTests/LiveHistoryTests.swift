import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// ``LiveHistory``: the moments it rebuilds are those of folding the trace
/// from its start, within the bounds it documents.
@Suite("live history (time travel)")
struct LiveHistoryTests {
    /// The analysis settings of these tests: a short grace period, so that findings come quickly.
    static let options = TraceAnalyzer.Options(grace: 20_000_000)

    /// A trace of `cycles` children attached to a root, each with a bound
    /// task, detached 3 ms later and deallocated; every 7th task is never
    /// ended and every 50th child leaks (so findings are made along the way).
    static func trace(cycles: Int) -> [TraceEvent] {
        var fixture = RenderFixture(app: "history")
        fixture.launch(2, "RootRouter", at: 0)
        var id: NodeID = 4
        for k in 0..<cycles {
            let ms = Double(k) * 10 + 1
            fixture.attach(id, k % 2 == 0 ? "OrderRouter" : "MenuRouter", to: 2, at: ms)
            fixture.add(ms + 1, .taskStart(task: id + 1, owner: id - 1, label: "poll"))
            if k % 7 != 0 { fixture.add(ms + 2, .taskEnd(task: id + 1, outcome: .completed)) }
            fixture.add(ms + 3, .deactivate(interactor: id - 1))
            fixture.add(ms + 3, .detach(parent: 2, child: id))
            if k % 50 != 0 {
                fixture.add(ms + 4, .deallocated(id: id))
                fixture.add(ms + 4, .deallocated(id: id - 1))
            }
            id += 4
        }
        return fixture.events
    }

    /// What a moment shows, to compare two analyses: the tree, the findings,
    /// the counts, and the checks still waiting.
    static func picture(_ analyzer: TraceAnalyzer) -> [String] {
        let state = analyzer.state
        return TreeRenderer(style: .plain, findings: analyzer.findings).rows(state).map(\.text)
            + analyzer.findings.map(\.description)
            + ["seq \(state.lastSeq) t=\(state.time) nodes \(state.nodeCount) tasks \(state.taskCount) pending \(analyzer.pendingChecks)"]
    }

    /// The analysis after the first `count` events of `events`, folded from scratch.
    static func prefix(_ events: [TraceEvent], _ count: Int) -> TraceAnalyzer {
        var analyzer = TraceAnalyzer(options: options)
        for event in events.prefix(count) { analyzer.consume(event) }
        return analyzer
    }

    /// `events` folded into a fresh analysis and recorded into `history`, as a session does.
    static func record(_ events: [TraceEvent], into history: inout LiveHistory) -> TraceAnalyzer {
        var analyzer = TraceAnalyzer(options: options)
        for event in events {
            analyzer.consume(event)
            history.record(event, analyzer: analyzer)
        }
        return analyzer
    }

    @Test("a moment rebuilt anywhere in reach is the prefix folded from scratch", .dedicatedThread, .singleThreaded)
    func rebuildEqualsPrefix() throws {
        let events = Self.trace(cycles: 3_000)
        let budget = HistoryBudget(total: 1_000_000)
        var history = LiveHistory(budget: budget, maxEvents: 8_192, spacing: 0)
        let live = Self.record(events, into: &history)
        #expect(!live.findings.isEmpty, "the trace makes findings along the way")
        let reachable = try #require(history.reachable)
        #expect(reachable.upperBound == events.count)
        #expect(history.kept == 8_192 && history.recorded == events.count)
        // At least the ring minus one checkpoint interval: max(819, 8 x live nodes).
        let interval = max(819, LiveHistory.eventsPerNode * (live.state.nodeCount + live.state.taskCount))
        #expect(reachable.count - 1 >= 8_192 - interval, "reach \(reachable), interval \(interval)")
        #expect(reachable.lowerBound >= history.oldestKept)
        let middle = (reachable.lowerBound + reachable.upperBound) / 2
        for index in [reachable.lowerBound, reachable.lowerBound + 1, middle, middle + 333, reachable.upperBound - 1, reachable.upperBound] {
            let replay = try #require(history.replay(to: index), "moment \(index)")
            #expect(replay.events.count <= max(interval, 819) + 1, "at most one checkpoint interval replayed")
            #expect(Self.picture(replay.run()) == Self.picture(Self.prefix(events, index)), "moment \(index)")
        }
        #expect(Self.picture(try #require(history.replay(to: events.count)).run()) == Self.picture(live))
        #expect(history.replay(to: reachable.lowerBound - 1) == nil, "older than the oldest checkpoint kept")
        #expect(history.replay(to: events.count + 1) == nil)
        #expect(history.checkpointCount <= 8_192 / 819 + 1)
    }

    @Test("before the ring wraps, every moment from the first event back is in reach; from a rebuilt moment, only the events after it are replayed", .dedicatedThread, .singleThreaded)
    func shortSession() throws {
        let events = Self.trace(cycles: 100)
        var history = LiveHistory(budget: HistoryBudget(total: 1_000_000), maxEvents: 100_000, spacing: 0)
        _ = Self.record(events, into: &history)
        #expect(history.reachable == 1...events.count)
        for index in [1, 2, 57, events.count / 2, events.count] {
            #expect(Self.picture(try #require(history.replay(to: index)).run()) == Self.picture(Self.prefix(events, index)))
        }
        let at500 = try #require(history.replay(to: 500)).run()
        let onward = try #require(history.replay(to: 503, from: (500, at500)))
        #expect(onward.events.count == 3)
        #expect(Self.picture(onward.run()) == Self.picture(Self.prefix(events, 503)))
        let backward = try #require(history.replay(to: 400, from: (500, at500)))
        #expect(backward.events.count < 400, "a moment in hand after the target is not a start")
    }

    @Test("checkpoints are rare: one per max(capacity / 10, 8 x live nodes) events, at most one per spacing of wall time", .dedicatedThread, .singleThreaded)
    func checkpointSpacing() {
        let events = Self.trace(cycles: 3_000)
        var history = LiveHistory(budget: HistoryBudget(total: 1_000_000), maxEvents: 100_000, spacing: 0)
        _ = Self.record(events, into: &history)
        // ~28,000 events, 10,000 apart: the first event's and two more.
        #expect(history.checkpointCount == 1 + (events.count - 1) / 10_000, "\(history.checkpointCount) for \(events.count) events")
        var slow = LiveHistory(budget: HistoryBudget(total: 1_000_000), maxEvents: 100_000, spacing: 60_000_000_000)
        _ = Self.record(events, into: &slow)
        #expect(slow.checkpointCount == 1, "a minute between checkpoints: only the first")
    }

    @Test("the budget bounds all histories together, and comes back when a history is freed", .dedicatedThread, .singleThreaded)
    func budget() throws {
        let events = Self.trace(cycles: 300)
        let budget = HistoryBudget(total: 3 * EventRing.chunkSize)
        var first: LiveHistory? = LiveHistory(budget: budget, maxEvents: 2 * EventRing.chunkSize, spacing: 0)
        _ = Self.record(events, into: &first!)
        #expect(first!.kept == 2 * EventRing.chunkSize)
        #expect(budget.free == EventRing.chunkSize)
        var second = LiveHistory(budget: budget, maxEvents: 100_000, spacing: 0)
        _ = Self.record(events, into: &second)
        #expect(second.kept == EventRing.chunkSize, "the rest of the budget")
        #expect(budget.free == 0)
        var third = LiveHistory(budget: budget, maxEvents: 100_000, spacing: 0)
        let live = Self.record(events, into: &third)
        #expect(third.kept == 0 && third.reachable == nil && third.recorded == events.count, "no budget left: no history, events still counted")
        #expect(third.replay(to: events.count) == nil)
        #expect(Self.picture(live) == Self.picture(Self.prefix(events, events.count)))
        first = nil
        #expect(budget.free == 2 * EventRing.chunkSize, "freed with its session")
    }

    @Test("jumping by trace time: forward to the first moment at least that late, back to the last at most that early, within reach", .dedicatedThread, .singleThreaded)
    func jumps() throws {
        let events = Self.trace(cycles: 300)  // a cycle every 10 ms
        var history = LiveHistory(budget: HistoryBudget(total: 1_000_000), maxEvents: 100_000, spacing: 0)
        _ = Self.record(events, into: &history)
        let reachable = try #require(history.reachable)
        let start = events.count / 2
        let base = events[start - 1].time
        let forward = history.moment(start, movedBy: 1_000_000_000)
        #expect(events[forward - 1].time >= base + 1_000_000_000)
        #expect(events[forward - 2].time < base + 1_000_000_000)
        let back = history.moment(start, movedBy: -1_000_000_000)
        #expect(events[back - 1].time <= base - 1_000_000_000)
        #expect(events[back].time > base - 1_000_000_000)
        // Before the start of the trace: the last moment at t=0 (the session record and the root's launch).
        #expect(history.moment(start, movedBy: -100_000_000_000) == events.lastIndex { $0.time == 0 }! + 1)
        #expect(history.moment(reachable.lowerBound, movedBy: -1_000_000_000) == reachable.lowerBound)
        #expect(history.moment(start, movedBy: 100_000_000_000) == reachable.upperBound)
        #expect(history.moment(start, movedBy: Int64.max) == reachable.upperBound)
    }

    @Test("a live session records every event it folds")
    func session() {
        let events = Self.trace(cycles: 50)
        let session = LiveSession(number: 1, sourceName: "test", isLive: false, analysis: Self.options)
        for event in events { session.consume(.event(event), at: 1) }
        session.withState { s in
            #expect(s.history.recorded == s.events && s.events == events.count)
            #expect(s.history.reachable == 1...events.count)
            #expect(Self.picture(s.history.replay(to: events.count)!.run()) == Self.picture(s.analyzer))
        }
    }
}

extension LiveHistory.Replay: Equatable {
    /// Two replays are alike when they start at the same moment with the same events (for `== nil`).
    public static func == (a: LiveHistory.Replay, b: LiveHistory.Replay) -> Bool {
        a.index == b.index && a.events == b.events
    }
}

/// ``EventRing``: growing a chunk at a time, then wrapping.
@Suite("event ring")
struct EventRingTests {
    static func event(_ n: Int) -> TraceEvent {
        TraceEvent(seq: UInt64(n + 1), time: UInt64(n), kind: .mark(text: "\(n)"))
    }

    @Test("grows while it has not wrapped, then keeps the newest events, each at its index")
    func growAndWrap() {
        var ring = EventRing()
        #expect(ring.capacity == 0 && ring.isFull && ring.canGrow)
        ring.append(Self.event(0))
        #expect(ring.count == 0 && ring.endIndex == 1, "no storage: counted, not kept")
        #expect(!ring.canGrow, "an event was dropped: the ring never grows after it")
        var ring2 = EventRing()
        var n = 0
        for _ in 0..<2 {
            ring2.grow()
            while !ring2.isFull { ring2.append(Self.event(n)); n += 1 }
        }
        #expect(ring2.count == 2 * EventRing.chunkSize && ring2.startIndex == 0)
        for k in [0, 1, EventRing.chunkSize - 1, EventRing.chunkSize, n - 1] { #expect(ring2[k] == Self.event(k)) }
        for _ in 0..<(3 * EventRing.chunkSize + 17) { ring2.append(Self.event(n)); n += 1 }
        #expect(!ring2.canGrow && ring2.count == ring2.capacity && ring2.endIndex == n)
        #expect(ring2.startIndex == n - ring2.capacity)
        for k in [ring2.startIndex, ring2.startIndex + 1, n - EventRing.chunkSize, n - 1] { #expect(ring2[k] == Self.event(k), "\(k)") }
        #expect(ring2.events((n - 3)..<n) == [Self.event(n - 3), Self.event(n - 2), Self.event(n - 1)])
        #expect(!ring2.contains(ring2.startIndex - 1) && !ring2.contains(n))
    }
}
