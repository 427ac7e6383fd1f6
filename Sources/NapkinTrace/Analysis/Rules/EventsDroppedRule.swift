/// `events-dropped`: the app's trace writer fell behind and dropped events
/// (its `dropped` records say how many and which sequence numbers), or, over
/// a socket, events were lost while no inspector was connected (a resumed
/// session record's `lost`). Reported once per session, at its end.
struct EventsDroppedRule: FindingRule {
    static let rule = Finding.Rule("events-dropped", .warning, title: "events dropped", summary: "the app dropped trace events; the trace is incomplete", help: help)
    static let watches: Set<TraceEvent.Name> = [.dropped, .session]

    private var total: UInt64 = 0
    /// Events lost in the gap before this part of a socket trace.
    private var lostInGap: UInt64 = 0
    private var part = 1
    /// The first few ranges of missing sequence numbers, for the message.
    private var ranges: [ClosedRange<UInt64>] = []
    private var rangeCount = 0

    init() {}

    mutating func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        if case .sessionStart(let info) = event.kind {
            if info.isResumed {
                lostInGap = info.lost
                part = info.part
            }
            return
        }
        guard case .dropped(let count, let first, let last) = event.kind else { return }
        total = total.addingReportingOverflow(count).overflow ? .max : total + count
        rangeCount += 1
        if ranges.count < 3 { ranges.append(min(first, last)...max(first, last)) }
    }

    func finish(_ context: inout AnalysisContext) {
        if lostInGap > 0 {
            context.report(Finding(rule: Self.rule, subject: .trace, type: "trace", id: 0, seqs: [], time: context.state.time,
                                   message: "\(lostInGap) events never reached an inspector before part \(part) of this trace "
                                          + "(the app had no inspector connected for a while); findings about that time may be missing"),
                           key: 1)
        }
        guard total > 0 else { return }
        let shown = ranges.map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
        context.report(Finding(rule: Self.rule, subject: .trace, type: "trace", id: 0, seqs: [], time: context.state.time,
                               message: "the app dropped \(total) events (seq \(shown)\(rangeCount > 3 ? ", ..." : "")) because the trace could not be written fast enough; findings may be missing"),
                       key: 0)
    }
}

extension Finding.Rule {
    /// The app dropped events: the trace is incomplete and may hide findings.
    public static let eventsDropped = EventsDroppedRule.rule
}

// MARK: - Help

extension EventsDroppedRule {
    /// What `events-dropped` means, its typical cause and its fix (`docs/findings.md`, word for word).
    static let help = Finding.Rule.Help(
        meaning: #"""
            The trace contains `dropped` records: the app produced
            events faster than the trace could be written, and napkin dropped some rather
            than block the app. Reported once per session, at the end, with the total and
            the first missing sequence ranges. The trace is incomplete, so other findings
            may be missing, or (rarely) wrong. Over a socket (`NAPKIN_TRACE=tcp:…` or
            `unix:…`), a part of the trace that starts after a gap (no inspector was
            connected for a while; its session record has `part` and `lost`) is reported
            the same way when events were lost in that gap.
            """#,
        cause: #"""
            A slow destination (a pipe whose reader is busy, a slow
            disk) combined with a burst of lifecycle events (thousands of napkins created
            at once, a stress test); over a socket, an inspector started after the app,
            or restarted.
            """#,
        fix: #"""
            Write to a file rather than a slow pipe, or bootstrap a larger
            buffer (`NapkinTrace.bootstrap(_:bufferCapacity:)`).
            """#)
}
