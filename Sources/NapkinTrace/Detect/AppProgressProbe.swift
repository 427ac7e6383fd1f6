import Synchronization

/// How the detector learns that the app has run past a moment, without an
/// event to say so: one empty job on the main actor and one on the global
/// executor, queued at that moment; when both ran, everything queued on them
/// before ran too (a router's release, an actor's deinit).
///
/// The detector starts a round only while a check is due, so an app with
/// nothing pending never sees one; a round is two small jobs.
package final class AppProgressProbe: Sendable {
    /// The current round and its jobs not run yet, as `round * 4 + left`:
    /// one word, so that a late job of an earlier round (a session ended
    /// while it was queued) never counts for the current one.
    private let current = Atomic<UInt64>(0)
    /// The last round whose two jobs both ran.
    private let finished = Atomic<UInt64>(0)
    private let rounds = Atomic<UInt64>(0)

    package init() {}

    /// Starts a round; returns its number (for ``hasFinished(_:)``).
    package func start() -> UInt64 {
        let round = rounds.wrappingAdd(1, ordering: .relaxed).newValue
        current.store(round &* 4 &+ 2, ordering: .releasing)
        Task { @MainActor in self.ran(round) }
        Task.detached(priority: .utility) { self.ran(round) }
        return round
    }

    /// Whether both jobs of `round` ran.
    package func hasFinished(_ round: UInt64) -> Bool {
        finished.load(ordering: .acquiring) >= round
    }

    private func ran(_ round: UInt64) {
        var value = current.load(ordering: .acquiring)
        while value / 4 == round {
            let (exchanged, now) = current.compareExchange(expected: value, desired: value &- 1, ordering: .acquiringAndReleasing)
            if exchanged {
                if value % 4 == 1 { finished.store(round, ordering: .releasing) }
                return
            }
            value = now
        }
    }
}
