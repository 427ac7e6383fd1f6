import NapkinTrace

/// The live count of every population (``PopulationCounts``) over trace
/// time, as `live`'s node details and `report`'s chart draw it: trace time
/// cut into buckets of ``width``, and for each population its live count at
/// the end of each bucket.
///
/// Memory is bounded whatever the trace: at most ``capacity`` buckets per
/// population (when they fill up, every two neighbours become one, keeping
/// the count at the end of the later one, and ``width`` doubles), for at
/// most ``PopulationCounts/maxPopulations`` populations. Counts are taken
/// only when trace time crosses the end of a bucket (``isDue(at:)`` is one
/// comparison per event), one per population and bucket ended; as each merge
/// halves the buckets and the width can double at most 64 times, a session
/// appends at most about `capacity × 33` counts per population, however long.
struct PopulationSeries: Sendable {
    /// One population's counts: `(time, live)` points, oldest first.
    struct Points: Sendable, Equatable {
        /// Trace times (ns): the end of each bucket, then the moment of the last count.
        var times: [UInt64] = []
        /// The live count at each of those times.
        var counts: [Int] = []
        /// The trace time each bucket covered (ns).
        var width: UInt64 = 0

        /// Whether there is nothing to draw.
        var isEmpty: Bool { times.isEmpty }
    }

    /// The most buckets kept per population.
    let capacity: Int
    /// The trace time (ns) each bucket covers; doubles as the buckets fill up.
    private(set) var width: UInt64
    /// Buckets filled so far (every population's counts are this long).
    private(set) var filled = 0
    /// The live count of each population at the end of each bucket, by its
    /// index in ``PopulationCounts/populations``.
    private var counts: [[Int32]] = []
    /// The end of the bucket being filled: an event at or after it ends the bucket.
    private var due: UInt64

    /// No samples yet; buckets of `width` ns to begin with, at most `capacity` (at least 2).
    init(capacity: Int, width: UInt64) {
        self.capacity = max(2, capacity)
        self.width = max(1, width)
        due = self.width
    }

    /// Whether trace time `time` ends the bucket being filled (then call
    /// ``advance(to:_:)`` before folding the event at `time`).
    func isDue(at time: UInt64) -> Bool { time >= due }

    /// Trace time reached `time` with `populations` as they are: each bucket
    /// that ends at or before it and has no count yet gets theirs (nothing
    /// changed since the last event).
    mutating func advance(to time: UInt64, _ populations: PopulationCounts) {
        guard time >= due else { return }
        var complete = time / width
        while complete > UInt64(capacity) {
            merge()
            complete = time / width
        }
        let target = Int(complete)
        let live = populations.populations
        if counts.count < live.count {
            counts += Array(repeating: Array(repeating: 0, count: filled), count: live.count - counts.count)
        }
        for index in counts.indices {
            let count = Int32(clamping: index < live.count ? live[index].live : 0)
            counts[index] += repeatElement(count, count: max(0, target - filled))
        }
        filled = max(filled, target)
        if filled == capacity { merge() }
        updateDue()
    }

    /// Every two neighbouring buckets become one (the count at the end of the
    /// later one); an odd last bucket, which ends inside the new one, is dropped.
    private mutating func merge() {
        let (doubled, overflow) = width.multipliedReportingOverflow(by: 2)
        width = overflow ? .max : doubled
        let pairs = filled / 2
        for index in counts.indices {
            var merged = [Int32]()
            merged.reserveCapacity(capacity)
            for k in 0..<pairs { merged.append(counts[index][2 * k + 1]) }
            counts[index] = merged
        }
        filled = pairs
        updateDue()
    }

    private mutating func updateDue() {
        let (end, overflow) = width.multipliedReportingOverflow(by: UInt64(filled + 1))
        due = overflow ? .max : end
    }

    /// The points of the population at `index` (in ``PopulationCounts/populations``):
    /// `0` at time 0, the count at the end of each bucket up to `until`, then
    /// `last` at `until`.
    func points(of index: Int, until: UInt64, last: Int) -> Points {
        var points = Points(times: [0], counts: [0], width: width)
        if index < counts.count {
            for (k, count) in counts[index].enumerated() {
                let (end, overflow) = width.multipliedReportingOverflow(by: UInt64(k + 1))
                guard !overflow, end < until else { break }
                points.times.append(end)
                points.counts.append(Int(count))
            }
        }
        if until > 0 {
            points.times.append(until)
            points.counts.append(last)
        } else {
            points.counts[0] = last
        }
        return points
    }
}
