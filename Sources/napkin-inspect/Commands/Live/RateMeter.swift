/// Events per second over the last couple of seconds, for the live header,
/// from the running total of events sampled at each frame.
struct RateMeter {
    /// Samples: when (monotonic ns) and the total then, oldest first.
    private var samples: [(time: UInt64, total: Int)] = []

    /// Notes that `total` events had arrived by `time`.
    mutating func note(total: Int, at time: UInt64) {
        samples.append((time, total))
        samples.removeAll { time &- $0.time > 2_000_000_000 }
    }

    /// The rate at `time`, over the last 2 s (at least over 1 s).
    func perSecond(at time: UInt64) -> Int {
        guard let first = samples.first, let last = samples.last else { return 0 }
        let span = max(1_000_000_000, time &- first.time)
        return Int(Double(last.total - first.total) / (Double(span) / 1e9))
    }
}
