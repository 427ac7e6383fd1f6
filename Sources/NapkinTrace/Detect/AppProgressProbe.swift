import Synchronization

/// How the detector learns that the app has run past a moment, without an
/// event to say so: one empty job on the main actor and one on the global
/// executor, queued at that moment; when both ran, everything queued on them
/// before ran too (a router's release, an actor's deinit).
///
/// The detector starts a round only while a check is due, so an app with
/// nothing pending never sees one; a round is two small jobs.
package final class AppProgressProbe: Sendable {
    /// Jobs of the current round that have not run yet.
    private let pending = Atomic<Int>(0)
    /// Rounds started, and rounds whose two jobs both ran.
    private let started = Atomic<UInt64>(0)
    private let finished = Atomic<UInt64>(0)

    package init() {}

    /// Starts a round; returns its number (for ``hasFinished(_:)``).
    package func start() -> UInt64 {
        pending.store(2, ordering: .sequentiallyConsistent)
        let round = started.wrappingAdd(1, ordering: .sequentiallyConsistent).newValue
        Task { @MainActor in self.ran(round) }
        Task.detached(priority: .utility) { self.ran(round) }
        return round
    }

    /// Whether both jobs of `round` ran.
    package func hasFinished(_ round: UInt64) -> Bool {
        finished.load(ordering: .acquiring) >= round
    }

    private func ran(_ round: UInt64) {
        guard pending.wrappingSubtract(1, ordering: .acquiringAndReleasing).newValue == 0 else { return }
        finished.store(round, ordering: .releasing)
    }
}
