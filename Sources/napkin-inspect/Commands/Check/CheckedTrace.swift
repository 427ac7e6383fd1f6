import NapkinTrace

/// The result of checking one trace, as the report formats see it.
struct CheckedTrace {
    /// The file as given (or the process, for a trace of `check -- COMMAND`).
    var path: String
    /// The session record, if the trace has one.
    var session: SessionInfo?
    /// Valid events read.
    var events: Int
    /// Whether the session-end record is present.
    var endedCleanly: Bool
    /// Events the app dropped (the trace is incomplete).
    var droppedEvents: UInt64
    /// Checks the end of the trace left undecided.
    var undecided: Int
    /// Trace time of the last event.
    var endTime: UInt64
    /// The findings the allow-list does not allow.
    var findings: [Finding]
    /// The findings the allow-list allows.
    var allowed: [Finding]
}

extension CheckedTrace {
    /// Reads and analyses the trace at `path`; the findings `allowList` allows
    /// are set apart (and its entries that matched are marked as used).
    init(checking path: String, options: TraceAnalyzer.Options, allowList: inout AllowList) throws(CommandFailure) {
        var analyzer = TraceAnalyzer(options: options)
        var session: SessionInfo?
        let summary = try TraceInput(path: path).read { event in
            if session == nil, case .sessionStart(let info) = event.kind { session = info }
            analyzer.consume(event)
            return true
        }
        analyzer.finish()
        var findings: [Finding] = []
        var allowed: [Finding] = []
        for finding in analyzer.findings {
            if allowList.allows(finding) { allowed.append(finding) } else { findings.append(finding) }
        }
        self.init(path: path, session: session, events: summary.events, endedCleanly: analyzer.state.ended,
                  droppedEvents: analyzer.state.droppedEvents, undecided: analyzer.undecided,
                  endTime: analyzer.state.time, findings: findings, allowed: allowed)
    }
}
