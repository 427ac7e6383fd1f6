/// Events per second over the last couple of seconds, for the live header.
struct RateMeter {
    /// Batches counted: when they arrived (monotonic ns), and how many events.
    private var buckets: [(time: UInt64, count: Int)] = []

    /// Counts `count` events that arrived at `time`.
    mutating func add(_ count: Int, at time: UInt64) {
        buckets.append((time, count))
        buckets.removeAll { time &- $0.time > 2_000_000_000 }
    }

    /// The rate at `time`, over the last 2 s (at least over 1 s).
    func perSecond(at time: UInt64) -> Int {
        let recent = buckets.filter { time &- $0.time <= 2_000_000_000 }
        guard let first = recent.first else { return 0 }
        let span = max(1_000_000_000, time &- first.time)
        return Int(Double(recent.reduce(0) { $0 + $1.count }) / (Double(span) / 1e9))
    }
}
