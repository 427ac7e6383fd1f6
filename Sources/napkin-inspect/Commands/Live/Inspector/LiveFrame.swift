import NapkinTrace
import NapkinTraceReader

/// What one frame of the live inspector shows, gathered by ``LiveScreenLoop``
/// from the session (under its lock) and the moment rebuilt from its
/// history; ``LiveView/frame(_:inspector:)`` draws it.
struct LiveFrame {
    /// How far back the session's history reaches.
    struct Reach: Sendable {
        /// The oldest moment that can be rebuilt: its last event's seq and time.
        var seq: UInt64
        /// Its time (ns).
        var time: UInt64
        /// Trace time from it to the newest event (ns).
        var span: UInt64
    }

    /// The analysis at the moment shown (the live one, or one rebuilt while paused).
    var analyzer: TraceAnalyzer
    /// Events read so far (live).
    var events = 0
    /// Events per second lately.
    var rate = 0
    /// The input ended.
    var finished = false
    /// The command's exit status, once it exited.
    var childStatus: Int32?
    /// The command's output.
    var pane: OutputPane?
    /// The last diagnostic of the reader.
    var diagnostic: TraceDiagnostic?
    /// The screen.
    var size: (rows: Int, columns: Int) = (24, 80)
    /// Every session listed (the bar shows when there are two or more).
    var sessions: [SessionTabBar.Item] = []
    /// The index of the session shown among them.
    var sessionIndex = 0
    /// The newest trace time of the session (the live state's).
    var newestTime: UInt64 = 0
    /// The seq of the newest event (the live state's).
    var newestSeq: UInt64 = 0
    /// How far back its history reaches; nil when it keeps none.
    var reach: Reach?
    /// The filter's matches, when a filter is on.
    var matches: FilterMatches?
    /// The events about the node whose details are open.
    var log: NodeLog?
    /// The live count over time of the open node's type, up to the moment shown.
    var population: PopulationSeries.Points?

    /// A frame of `analyzer`, live, with nothing else known yet.
    init(analyzer: TraceAnalyzer) {
        self.analyzer = analyzer
    }
}
