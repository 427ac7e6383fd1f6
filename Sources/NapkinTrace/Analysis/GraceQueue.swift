/// The grace-period checks waiting for their deadline, in deadline order.
///
/// Deadlines are the time of the event that asks plus the grace period, and
/// events come in time order, so a first-in-first-out queue is already in
/// deadline order; a check that would go before the last one (time went
/// backwards, or a rule re-arming a check for a later moment) is queued as if
/// due with it: a little late, never early (its own deadline is kept for
/// the finding).
///
/// Memory stays bounded by the live subjects, however often a subject is
/// re-checked (a task running across a thousand deactivations): when the
/// queue outgrows its limit, the analyzer compacts it (``compact(keeping:)``)
/// to the checks still open (their subject alive, their rule still waiting),
/// one per rule and subject (the newest request). Rules are written so that
/// this changes no verdict: each decides from the model's state, and re-arms
/// a check whose subject has moved since (``AnalysisContext/schedule(_:at:)``).
struct GraceQueue: Sendable {
    private var entries: [GraceCheck] = []
    private var head = 0
    /// Entries beyond which the queue is compacted (grows with what survives a compaction).
    private var limit = 4_096

    /// How many checks wait.
    var count: Int { entries.count - head }

    /// When the first check is due, if any waits.
    var firstDue: UInt64? { head < entries.count ? entries[head].due : nil }

    /// Whether the queue has outgrown its limit (then call ``compact(keeping:)``).
    var needsCompaction: Bool { count > limit }

    mutating func schedule(_ check: GraceCheck) {
        var queued = check
        queued.due = max(check.deadline, entries.last?.due ?? 0)
        entries.append(queued)
    }

    /// The check with the earliest deadline, if it is due before `time` (`.max` takes any).
    mutating func popFirst(dueBefore time: UInt64) -> GraceCheck? {
        guard head < entries.count, entries[head].due < time || time == .max else { return nil }
        head += 1
        let check = entries[head - 1]
        if head > 1_024 && head * 2 > entries.count {
            entries.removeFirst(head)
            head = 0
        }
        return check
    }

    /// Keeps the newest check of each rule and subject among those `isOpen` accepts.
    mutating func compact(keeping isOpen: (GraceCheck) -> Bool) {
        var seen = Set<Key>()
        var kept: [GraceCheck] = []
        for check in entries[head...].reversed() where isOpen(check) && seen.insert(Key(rule: check.rule, subject: check.subject)).inserted {
            kept.append(check)
        }
        kept.reverse()
        // Re-establish the order of `due` after dropping entries.
        var due: UInt64 = 0
        for k in kept.indices {
            due = max(due, kept[k].deadline)
            kept[k].due = due
        }
        entries = kept
        head = 0
        limit = max(4_096, 2 * kept.count)
    }

    private struct Key: Hashable {
        var rule: RuleID
        var subject: NodeID
    }
}
