import NapkinTrace

/// What a live session keeps so that the inspector can travel back in time
/// while paused: the last events, and now and then a copy of the analysis
/// (a checkpoint) to replay them from. Moment `n` is the analysis after the
/// session's first `n` events, rebuilt from the nearest checkpoint at or
/// before it. Its costs and bounds (checkpoint spacing, memory, how far back
/// one can go): docs/internals.md, "Time travel's history".
struct LiveHistory {
    /// Events a session keeps, at most.
    static let maxEvents = 100_000
    /// Events between checkpoints per live node: the copy a checkpoint costs,
    /// O(live nodes), spread over at least this many events per node.
    static let eventsPerNode = 8
    /// Wall-clock time between two checkpoints, at least (ns): 0.1 s.
    static let minSpacing: UInt64 = 100_000_000

    /// A copy of the analysis after `index` events.
    private struct Checkpoint {
        /// The moment: events folded.
        var index: Int
        /// The analysis then.
        var analyzer: TraceAnalyzer
    }

    /// The events to fold into an analysis to rebuild a moment: made under
    /// the session's lock (a copy of a checkpoint and of the events after
    /// it), run after it is released.
    struct Replay {
        /// The analysis to start from.
        var analyzer: TraceAnalyzer
        /// The events to fold into it, in order.
        var events: [TraceEvent]
        /// The moment the replay rebuilds.
        var index: Int

        /// Folds the events: the analysis at ``index``.
        func run() -> TraceAnalyzer {
            var analyzer = self.analyzer
            for event in events { analyzer.consume(event) }
            return analyzer
        }
    }

    /// The events this session may keep.
    let capacityLimit: Int
    /// The least wall-clock time between checkpoints (ns).
    let spacing: UInt64
    /// The last events.
    private var ring = EventRing()
    /// The checkpoints inside the ring, oldest first.
    private var checkpoints: [Checkpoint] = []
    /// The last checkpoint taken: its moment, and when (monotonic ns).
    private var lastCheckpoint: (index: Int, wall: UInt64)?
    /// The first event index at which a checkpoint may be due (no need to look before).
    private var nextLook = 0
    /// The events this history holds of its budget.
    private let lease: HistoryLease

    /// A history keeping at most `maxEvents` events, drawn from `budget`,
    /// with checkpoints at least `spacing` ns apart.
    init(budget: HistoryBudget = .shared, maxEvents: Int = Self.maxEvents, spacing: UInt64 = Self.minSpacing) {
        capacityLimit = maxEvents
        self.spacing = spacing
        lease = HistoryLease(budget: budget)
    }

    /// Called for every event, after `analyzer` folded it (see the costs above).
    mutating func record(_ event: TraceEvent, analyzer: TraceAnalyzer) {
        if keep(event) { considerCheckpoint(analyzer) }
    }

    /// The first half of ``record(_:analyzer:)``, for the reader's hot path:
    /// keeps `event` and says whether a checkpoint may be due, in which case
    /// the caller hands the analysis that folded it to
    /// ``considerCheckpoint(_:)``. Most events stop here, so the analysis is
    /// not even passed along (a copy of a large value).
    mutating func keep(_ event: TraceEvent) -> Bool {
        if ring.isFull && ring.canGrow && ring.capacity < capacityLimit && lease.take(EventRing.chunkSize) { ring.grow() }
        ring.append(event)
        guard ring.capacity > 0 else { return false }
        while !checkpoints.isEmpty && checkpoints[0].index < ring.startIndex { checkpoints.removeFirst() }
        return ring.endIndex >= nextLook
    }

    /// The second half of ``record(_:analyzer:)``: takes a checkpoint of
    /// `analyzer` (which folded the last event kept) when one is due.
    mutating func considerCheckpoint(_ analyzer: TraceAnalyzer) {
        let index = ring.endIndex
        guard ring.capacity > 0, index >= nextLook else { return }
        let now = Platform.monotonicNanoseconds()
        if let last = lastCheckpoint {
            let state = analyzer.state
            let due = last.index + max(baseInterval, Self.eventsPerNode * (state.nodeCount + state.taskCount))
            guard index >= due else {
                nextLook = due
                return
            }
            guard now &- last.wall >= spacing else {
                // Too soon after the last one: look again a little later.
                nextLook = index + max(1, baseInterval / 16)
                return
            }
        }
        lastCheckpoint = (index, now)
        nextLook = index + baseInterval
        checkpoints.append(Checkpoint(index: index, analyzer: analyzer))
    }

    /// Events between two checkpoints at least, whatever the tree: a tenth of the ring.
    private var baseInterval: Int {
        max(ring.canGrow ? capacityLimit : ring.capacity, EventRing.chunkSize) / 10
    }

    /// Events recorded in all.
    var recorded: Int { ring.endIndex }

    /// Events kept.
    var kept: Int { ring.count }

    /// Checkpoints kept.
    var checkpointCount: Int { checkpoints.count }

    /// The moments that can be rebuilt, from the oldest checkpoint still
    /// inside the ring to the newest event; nil when there is none.
    var reachable: ClosedRange<Int>? {
        checkpoints.first.map { $0.index...ring.endIndex }
    }

    /// The event with index `index` (the `index + 1`th event), if it is kept.
    func event(at index: Int) -> TraceEvent? {
        ring.contains(index) ? ring[index] : nil
    }

    /// The last event folded at moment `index` (seq and time of that moment), if it is kept.
    func lastEvent(atMoment index: Int) -> TraceEvent? {
        event(at: index - 1)
    }

    /// What rebuilds moment `index`: from the nearest checkpoint at or before
    /// it, or from `cached` (an analysis already rebuilt at an earlier moment)
    /// when that is nearer; nil when the moment is not ``reachable``.
    func replay(to index: Int, from cached: (index: Int, analyzer: TraceAnalyzer)? = nil) -> Replay? {
        guard let reachable, reachable.contains(index),
              let checkpoint = checkpoints.last(where: { $0.index <= index }) else { return nil }
        if let cached, cached.index <= index, cached.index > checkpoint.index, cached.index >= ring.startIndex {
            return Replay(analyzer: cached.analyzer, events: ring.events(cached.index..<index), index: index)
        }
        return Replay(analyzer: checkpoint.analyzer, events: ring.events(checkpoint.index..<index), index: index)
    }

    /// The moment `seconds` of trace time after (or, negative, before) moment
    /// `index`, within ``reachable``: forward, the first moment whose last
    /// event is at least that late; back, the last one at most that early.
    /// Looks at no more events than the ring keeps.
    func moment(_ index: Int, movedBy nanoseconds: Int64) -> Int {
        guard let reachable else { return index }
        let from = min(max(index, reachable.lowerBound), reachable.upperBound)
        guard let base = lastEvent(atMoment: from)?.time else { return from }
        if nanoseconds >= 0 {
            let (target, overflow) = base.addingReportingOverflow(UInt64(nanoseconds))
            if overflow { return reachable.upperBound }
            var moment = from + 1
            while moment < reachable.upperBound, ring[moment - 1].time < target { moment += 1 }
            return min(moment, reachable.upperBound)
        }
        let target = base &- min(base, UInt64(-nanoseconds))
        var moment = from - 1
        while moment > reachable.lowerBound, ring[moment - 1].time > target { moment -= 1 }
        return max(moment, reachable.lowerBound)
    }

    /// Calls `body` with each kept event whose index is in `range`, in order.
    func forEachEvent(in range: Range<Int>, _ body: (Int, TraceEvent) -> Void) {
        let from = max(range.lowerBound, ring.startIndex), to = min(range.upperBound, ring.endIndex)
        guard from < to else { return }
        for index in from..<to { body(index, ring[index]) }
    }

    /// The index of the oldest event kept.
    var oldestKept: Int { ring.startIndex }
}
