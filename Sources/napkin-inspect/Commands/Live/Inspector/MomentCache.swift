import NapkinTrace

/// The moments the paused inspector has in hand, so that a frame does not
/// rebuild what it showed last: the snapshot taken when the view paused
/// (the live analysis at that instant, exactly as it was on screen), and the
/// last moment rebuilt from the history (the start of the next replay when
/// the user steps forward).
struct MomentCache {
    /// An analysis at moment `index` of session `session`.
    struct Entry {
        /// The session.
        var session: ObjectIdentifier
        /// The moment: events folded.
        var index: Int
        /// The analysis then.
        var analyzer: TraceAnalyzer
    }

    /// The live analysis when the view paused.
    private(set) var snapshot: Entry?
    /// The last moment rebuilt.
    private(set) var rebuilt: Entry?

    /// An empty cache.
    init() {}

    /// Keeps `analyzer`, the live analysis of `session` after `index` events, as the pause snapshot.
    mutating func keepSnapshot(_ analyzer: TraceAnalyzer, index: Int, session: ObjectIdentifier) {
        snapshot = Entry(session: session, index: index, analyzer: analyzer)
    }

    /// Keeps `analyzer`, rebuilt at moment `index` of `session`.
    mutating func keepRebuilt(_ analyzer: TraceAnalyzer, index: Int, session: ObjectIdentifier) {
        rebuilt = Entry(session: session, index: index, analyzer: analyzer)
    }

    /// The analysis at moment `index` of `session`, if in hand.
    func analyzer(at index: Int, session: ObjectIdentifier) -> TraceAnalyzer? {
        if let snapshot, snapshot.session == session, snapshot.index == index { return snapshot.analyzer }
        if let rebuilt, rebuilt.session == session, rebuilt.index == index { return rebuilt.analyzer }
        return nil
    }

    /// The moment in hand for `session` that is latest at or before `index`,
    /// to replay from (see ``LiveHistory/replay(to:from:)``).
    func start(before index: Int, session: ObjectIdentifier) -> (index: Int, analyzer: TraceAnalyzer)? {
        [snapshot, rebuilt].compactMap { $0 }.filter { $0.session == session && $0.index <= index }
            .max { $0.index < $1.index }.map { ($0.index, $0.analyzer) }
    }

    /// Forgets everything (the view went live).
    mutating func clear() {
        snapshot = nil
        rebuilt = nil
    }
}
