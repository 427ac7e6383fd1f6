import NapkinTrace

/// What a comparison measures about each router present in both runs.
public enum RouterMeasure: String, Sendable, Hashable, CaseIterable {
    /// How long it was attached (a launched router: since its launch), over
    /// all its attachments, up to the end of the trace for one still attached (ns).
    case timeAttached = "time_attached"
    /// From its creation to its deallocation, or to the end of the trace (ns).
    case timeAlive = "time_alive"
    /// How many tasks its interactor started.
    case tasks

    /// Whether it is a length of time (ns) rather than a count.
    public var isTime: Bool { self != .tasks }

    /// `time attached`, `time alive`, `tasks`: for reports.
    public var title: String {
        switch self {
        case .timeAttached: "time attached"
        case .timeAlive: "time alive"
        case .tasks: "tasks"
        }
    }

    /// The value of this measure for `life`, in a trace that ends at `end` (ns).
    func value(of life: TraceHistory.NodeLife, endingAt end: UInt64) -> UInt64 {
        switch self {
        case .timeAttached:
            var total: UInt64 = 0
            for attachment in life.attached {
                let start = attachment.span.start
                let stop = max(attachment.span.end ?? end, start)
                let (sum, overflow) = total.addingReportingOverflow(stop - start)
                total = overflow ? .max : sum
            }
            return total
        case .timeAlive:
            return max(life.deallocated ?? end, life.created) - life.created
        case .tasks:
            return UInt64(life.tasks.count)
        }
    }
}
