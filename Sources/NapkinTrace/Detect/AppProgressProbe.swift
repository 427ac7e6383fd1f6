import Synchronization

/// How the detector learns that the app has run past a moment, without an
/// event to say so: one empty job on the main actor and one on the global
/// executor at each task priority, queued at that moment; when all ran,
/// everything queued on them before ran too (a router's release, an actor's
/// deinit).
///
/// One global job per priority, because the global executor keeps a queue
/// per priority and may serve them apart: on Linux, in a program whose four
/// `.medium` jobs held both threads of a 2-core machine, `.utility`,
/// `.background` and `.high` jobs ran at once while a `.medium` one waited
/// for the blockers. A job of one priority proves nothing about the queue
/// of another.
///
/// The detector starts a round only while a check is due, so an app with
/// nothing pending never sees one; a round is a handful of empty jobs.
package final class AppProgressProbe: Sendable {
    /// The priorities that have a queue of their own on the global executor
    /// (`.low` is `.utility`, `.high` is `.userInitiated`); a job queued
    /// without a priority runs at `.medium`.
    static let priorities: [TaskPriority] = [.background, .utility, .medium, .userInitiated]
    /// The jobs of one round: the main actor's and one per priority.
    static let jobsPerRound = UInt64(priorities.count + 1)
    /// The packing of ``current``: the round times this, plus the jobs left.
    private static let radix: UInt64 = 8

    /// The current round and its jobs not run yet, as `round * radix + left`:
    /// one word, so that a late job of an earlier round (a session ended
    /// while it was queued) never counts for the current one.
    private let current = Atomic<UInt64>(0)
    /// The last round whose jobs all ran.
    private let finished = Atomic<UInt64>(0)
    private let rounds = Atomic<UInt64>(0)

    package init() {}

    /// Starts a round; returns its number (for ``hasFinished(_:)``).
    package func start() -> UInt64 {
        let round = rounds.wrappingAdd(1, ordering: .relaxed).newValue
        current.store(round &* Self.radix &+ Self.jobsPerRound, ordering: .releasing)
        Task { @MainActor in self.ran(round) }
        for priority in Self.priorities {
            Task.detached(priority: priority) { self.ran(round) }
        }
        return round
    }

    /// Whether every job of `round` ran.
    package func hasFinished(_ round: UInt64) -> Bool {
        finished.load(ordering: .acquiring) >= round
    }

    private func ran(_ round: UInt64) {
        var value = current.load(ordering: .acquiring)
        while value / Self.radix == round {
            let (exchanged, now) = current.compareExchange(expected: value, desired: value &- 1, ordering: .acquiringAndReleasing)
            if exchanged {
                if value % Self.radix == 1 { finished.store(round, ordering: .releasing) }
                return
            }
            value = now
        }
    }
}
