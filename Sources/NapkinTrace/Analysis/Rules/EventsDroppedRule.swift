/// `events-dropped`: the app's trace writer fell behind and dropped events
/// (its `dropped` records say how many and which sequence numbers). Reported
/// once per session, at its end.
struct EventsDroppedRule: FindingRule {
    static let rule = Finding.Rule("events-dropped", .warning, title: "events dropped", summary: "the app dropped trace events; the trace is incomplete")
    static let watches: Set<TraceEvent.Name> = [.dropped]

    private var total: UInt64 = 0
    /// The first few ranges of missing sequence numbers, for the message.
    private var ranges: [ClosedRange<UInt64>] = []
    private var rangeCount = 0

    init() {}

    mutating func observe(_ event: TraceEvent, _ effect: TraceState.Effect, _ context: inout AnalysisContext) {
        guard case .dropped(let count, let first, let last) = event.kind else { return }
        total = total.addingReportingOverflow(count).overflow ? .max : total + count
        rangeCount += 1
        if ranges.count < 3 { ranges.append(min(first, last)...max(first, last)) }
    }

    func finish(_ context: inout AnalysisContext) {
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
