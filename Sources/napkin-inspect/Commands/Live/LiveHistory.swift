import NapkinTrace

/// What a live session keeps so that the inspector can travel back in time
/// while paused. (Filled in by the interactive inspector; for now it keeps
/// nothing.)
struct LiveHistory {
    /// Called for every event, after `analyzer` folded it.
    mutating func record(_ event: TraceEvent, analyzer: TraceAnalyzer) {}
}
