/// A moment of a trace, as `--at` gives it: just after the event with a
/// sequence number, or a time since the start of the session.
enum Moment: Equatable, Sendable, CustomStringConvertible {
    /// Just after event `seq` (`--at 120`).
    case seq(UInt64)
    /// A time since the start, in nanoseconds (`--at 1.5s`).
    case time(UInt64)

    /// `seq 120` or `1.500s`, as notes name the moment.
    var description: String {
        switch self {
        case .seq(let seq): "seq \(seq)"
        case .time(let time): TimeFormat.point(time)
        }
    }
}
