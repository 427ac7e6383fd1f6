import Synchronization

/// The events the histories of all live sessions may keep together (see
/// ``LiveHistory``): a pool that each session's ring draws from, a chunk at
/// a time as it fills, and gives back when the session is forgotten.
///
/// So whatever connects to `live --listen`, time travel never holds more than
/// ``total`` events in memory: the first sessions get a full history, later
/// ones what is left (or none), and a history grows again only while it has
/// never wrapped.
final class HistoryBudget: Sendable {
    /// Events all sessions' histories keep at most, by default.
    static let defaultTotal = 500_000
    /// The pool `live` uses.
    static let shared = HistoryBudget(total: defaultTotal)

    /// The size of the pool, in events.
    let total: Int
    /// Events not taken.
    private let available: Atomic<Int>

    /// A pool of `total` events.
    init(total: Int) {
        self.total = total
        available = Atomic(total)
    }

    /// Events still free in the pool.
    var free: Int { available.load(ordering: .relaxed) }

    /// Takes `count` events from the pool if it has them; returns whether it did.
    func take(_ count: Int) -> Bool {
        var current = available.load(ordering: .relaxed)
        while current >= count {
            let (exchanged, original) = available.compareExchange(expected: current, desired: current - count, ordering: .relaxed)
            if exchanged { return true }
            current = original
        }
        return false
    }

    /// Gives `count` events back to the pool.
    func give(_ count: Int) {
        if count > 0 { available.add(count, ordering: .relaxed) }
    }
}

/// The share of a ``HistoryBudget`` one history holds; given back when the
/// history (its session) is freed.
final class HistoryLease {
    /// The pool the share comes from.
    let budget: HistoryBudget
    /// Events held.
    private(set) var held = 0

    /// A lease holding nothing yet.
    init(budget: HistoryBudget) { self.budget = budget }

    /// Takes `count` more events from the pool; returns whether it could.
    func take(_ count: Int) -> Bool {
        guard budget.take(count) else { return false }
        held += count
        return true
    }

    deinit { budget.give(held) }
}
