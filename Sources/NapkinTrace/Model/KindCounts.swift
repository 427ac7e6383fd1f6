/// How many events of each kind were applied: one counter per
/// ``TraceEvent/Name``, at its ``TraceEvent/Name/index``, in storage made
/// with `allCases.count` counters, so that a new kind has its counter
/// without a change here.
struct KindCounts: Sendable {
    private var counts = [Int](repeating: 0, count: TraceEvent.Name.allCases.count)

    /// The count of events of kind `name`.
    subscript(name: TraceEvent.Name) -> Int {
        get { counts[name.index] }
        set { counts[name.index] = newValue }
    }

    /// Counts one event of kind `name`, in place.
    @inline(__always)
    mutating func count(_ name: TraceEvent.Name) {
        counts[name.index] &+= 1
    }
}
