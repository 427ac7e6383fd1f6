/// How the in-app detector is set up: from ``NapkinDetector/bootstrap(_:grace:viewGrace:maxAlive:retainers:handler:)``
/// or from the value of `NAPKIN_DETECT`.
package struct DetectorSettings: Sendable {
    /// What a finding does.
    package var mode: NapkinDetector.Mode
    /// The analysis settings (grace periods; never `expectTeardown`: a
    /// running app cannot tell what it still means to keep).
    package var options: TraceAnalyzer.Options
    /// The app's own handler.
    package var handler: (@Sendable (Finding) throws -> Void)?
    /// Whether a finding about an object still alive runs a retainer search
    /// (``NapkinDetector/retainersByDefault`` unless the bootstrap or
    /// `NAPKIN_RETAINERS` says).
    package var retainers: Bool

    /// Settings from the bootstrap's arguments.
    package init(mode: NapkinDetector.Mode, grace: Duration = .seconds(1), viewGrace: Duration = .seconds(5),
                 maxAlive: [String: Int] = [:], retainers: Bool = NapkinDetector.retainersByDefault, handler: (@Sendable (Finding) throws -> Void)? = nil) {
        self.mode = mode
        self.retainers = retainers
        self.options = TraceAnalyzer.Options(grace: Self.nanoseconds(grace), expectTeardown: false,
                                             viewGrace: Self.nanoseconds(viewGrace), maxAlive: maxAlive)
        self.handler = handler
    }

    /// The settings `NAPKIN_DETECT=value` asks for: `log`, `assert`,
    /// `quiet` (findings only searched for retainers and recorded in the
    /// trace: what `napkin-inspect check -- CMD` and `live -- CMD` give the
    /// command), or `off` (and empty) for none; `retainers` is
    /// `NAPKIN_RETAINERS`'s value (`on` or `off`; anything else, or none:
    /// ``NapkinDetector/retainersByDefault``). Anything else throws a
    /// ``TraceSinkError`` naming the values (the caller writes it on
    /// standard error, and detection stays off).
    package static func fromEnvironment(_ value: String, retainers: String? = nil) throws -> DetectorSettings? {
        let search = retainers == "on" ? true : retainers == "off" ? false : NapkinDetector.retainersByDefault
        switch value {
        case "", "off": return nil
        case "log": return DetectorSettings(mode: .log, retainers: search)
        case "assert": return DetectorSettings(mode: .assert, retainers: search)
        case "quiet": return DetectorSettings(mode: .quiet, retainers: search)
        default: throw TraceSinkError("'\(value)' is not a detection mode; use log, assert, quiet or off")
        }
    }

    /// A duration in whole nanoseconds, at least 1 ms, at most ~584 years.
    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 1_000_000 }
        let (whole, overflow) = UInt64(seconds).multipliedReportingOverflow(by: 1_000_000_000)
        let total = overflow ? UInt64.max : whole.addingReportingOverflow(UInt64(attoseconds / 1_000_000_000)).partialValue
        return max(total, 1_000_000)
    }
}
