import NapkinTrace
import NapkinTraceReader

/// One of the two traces `diff` compares, read and analysed: its overview
/// (file, app, events), its history and findings, and what is wrong with the
/// trace itself.
struct DiffSide {
    /// The file, the app, the events, whether it is complete.
    var overview: TraceOverview
    /// The history and findings the comparison reads.
    var trace: ComparedTrace
    /// Why the trace cannot be trusted (`kind: message`), one line each; empty for an intact trace.
    var traceProblems: [String]

    /// Reads and analyses the trace at `path` with `options`; a file that is
    /// not a trace throws (one line naming it, exit status 2).
    init(reading path: String, options: TraceAnalyzer.Options) throws(CommandFailure) {
        var history = TraceHistory()
        var analyzer = TraceAnalyzer(options: options)
        let summary = try TraceInput(path: path).read { event in
            history.apply(event)
            analyzer.consume(event)
            return true
        }
        analyzer.finish()
        overview = TraceOverview(path: path, reading: summary, state: analyzer.state)
        trace = ComparedTrace(history: history, findings: analyzer.findings)
        traceProblems = summary.integrity.including(analyzer.state).problems.map { "\($0.kind.rawValue): \($0)" }
    }
}
