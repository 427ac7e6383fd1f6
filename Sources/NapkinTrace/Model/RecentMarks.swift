/// The last marks of a trace (at most ``capacity``), in a ring: keeping a
/// new one costs the same however many came before (dropping the oldest
/// from the front of an array moved the other 99 on every mark).
struct RecentMarks: Sendable {
    /// How many marks are kept.
    static let capacity = 100
    private var ring: [TraceMark] = []
    /// Where the oldest mark is, once the ring is full.
    private var oldest = 0

    /// Keeps `mark`, dropping the oldest when full.
    mutating func append(_ mark: TraceMark) {
        if ring.count < Self.capacity {
            ring.append(mark)
        } else {
            ring[oldest] = mark
            oldest = oldest == Self.capacity - 1 ? 0 : oldest + 1
        }
    }

    /// The marks kept, oldest first.
    var marks: [TraceMark] {
        oldest == 0 ? ring : Array(ring[oldest...] + ring[..<oldest])
    }
}
