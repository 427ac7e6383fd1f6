import NapkinTrace

/// One recording as ``TraceComparison`` reads it: the life of every node
/// (``TraceHistory``) and the analysis's findings.
public struct ComparedTrace: Sendable {
    /// Every router's life: attachments, deallocation, tasks.
    public var history: TraceHistory
    /// The findings of the analysis of the same events.
    public var findings: [Finding]

    /// A recording from its history and its findings.
    public init(history: TraceHistory, findings: [Finding]) {
        self.history = history
        self.findings = findings
    }

    /// Folds `events` into a history and, with `options`, an analysis that is finished at the end.
    public init(events: some Sequence<TraceEvent>, options: TraceAnalyzer.Options = TraceAnalyzer.Options()) {
        var history = TraceHistory()
        var analyzer = TraceAnalyzer(options: options)
        for event in events {
            history.apply(event)
            analyzer.consume(event)
        }
        self.init(history: history, findings: analyzer.finish())
    }
}
