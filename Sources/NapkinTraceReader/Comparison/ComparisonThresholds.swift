import NapkinTrace

/// How much a router's measures must change between two runs to be reported:
/// by at least ``relative`` of the smaller of the two values **and** by at least an
/// absolute amount (``time`` for lengths of time, ``tasks`` for task
/// counts). Both must hold, so that the timing noise between two recordings
/// of the same flow (a busy machine stretches every step a little) reports
/// nothing, while a screen that now stays for seconds, or starts more tasks, does.
public struct ComparisonThresholds: Sendable, Hashable {
    /// The smallest relative change reported, as a fraction of the smaller
    /// of the two values (0.5: 50%), so that a change and its reverse (a leak
    /// and its fix) are both reported or both not; a change from or to 0
    /// always passes it.
    public var relative: Double
    /// The smallest change of a length of time reported (ns).
    public var time: UInt64
    /// The smallest change of a task count reported.
    public var tasks: UInt64

    /// The defaults: 50%, 250 ms and 1 task. Two clean recordings of one
    /// flow differ by a few milliseconds a step, and by tens of percent
    /// under load; a leaked or forgotten screen changes by whole seconds.
    public static let `default` = ComparisonThresholds(relative: 0.5, time: 250_000_000, tasks: 1)

    /// Thresholds of `relative` (a fraction), `time` (ns) and `tasks`.
    public init(relative: Double, time: UInt64, tasks: UInt64) {
        self.relative = relative
        self.time = time
        self.tasks = tasks
    }

    /// Whether a change of `measure` from `before` to `after` is large enough to report.
    public func passes(_ measure: RouterMeasure, from before: UInt64, to after: UInt64) -> Bool {
        let change = after > before ? after - before : before - after
        guard change > 0, change >= (measure.isTime ? time : tasks) else { return false }
        let smaller = min(before, after)
        guard smaller > 0 else { return true }
        return Double(change) >= relative * Double(smaller)
    }
}
