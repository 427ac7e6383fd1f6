import NapkinTrace

/// What a live session keeps for the page of `live --web`: the lives of its
/// nodes (the report's ``TraceHistory``) and the chart of its populations,
/// folded on the reader thread with the analysis, so that a snapshot for the
/// page is a copy, not a replay.
///
/// Bounded over hours: once the history holds more than ``maxNodes`` rows,
/// or ``maxEvents`` events were folded since the last time, it forgets what
/// ended before the middle of the time it covers
/// (``TraceHistory/forget(endedBefore:)``): the page can step back over that
/// window, no further. Nodes still alive are never forgotten (all sessions'
/// live nodes are bounded by ``LiveSessionList/nodeBudget``), so a tree that
/// is large and alive raises the bound to twice what it holds.
struct LivePageHistory: Sendable {
    /// Rows kept before the history forgets its older half.
    static let maxNodes = 20_000
    /// Events folded before the history forgets its older half.
    static let maxEvents = 200_000

    /// The lives of the nodes, over the window kept.
    private(set) var history = TraceHistory()
    /// The chart of live instances per type.
    private(set) var fold: ReportPopulations.Fold
    /// Bumped by every event: a snapshot is due when it differs from the one sent.
    private(set) var version = 0
    /// Events folded since the history last forgot.
    private var eventsSinceForgetting = 0
    /// The row count that makes the history forget.
    private var nodeBound = LivePageHistory.maxNodes
    /// When the window starts (the first event's time, then each forgetting's).
    private var windowStart: UInt64?

    /// An empty history for a session analysed with `options`.
    init(_ options: TraceAnalyzer.Options) {
        fold = ReportPopulations.Fold(options)
    }

    /// Before `event` is folded into the analysis, whose counts until then are `populations`.
    mutating func before(_ event: TraceEvent, _ populations: @autoclosure () -> PopulationCounts) {
        if case .sessionStart = event.kind { return }
        fold.before(event.time, populations())
    }

    /// After `event` was folded into the analysis.
    mutating func after(_ event: TraceEvent) {
        if case .mark(let text) = event.kind { fold.mark(text, at: event.time) }
        history.apply(event)
        version &+= 1
        if windowStart == nil, event.time > 0 { windowStart = event.time }
        eventsSinceForgetting += 1
        if eventsSinceForgetting > Self.maxEvents || history.nodes.count > nodeBound { forgetOlderHalf() }
    }

    /// A time passed with no event (the analysis's time advanced): the page redraws.
    mutating func touch() { version &+= 1 }

    /// Forgets what ended before the middle of the window.
    private mutating func forgetOlderHalf() {
        let start = windowStart ?? 0
        let middle = start + (history.endTime &- start) / 2
        history.forget(endedBefore: middle)
        windowStart = middle
        eventsSinceForgetting = 0
        nodeBound = max(Self.maxNodes, 2 * history.nodes.count)
    }

    /// The chart as it stands, for a snapshot: `populations` are the counts now.
    func chart(_ populations: PopulationCounts, findings: [Finding]) -> ReportPopulations {
        fold.chart(populations, end: history.endTime, findings: findings)
    }
}
