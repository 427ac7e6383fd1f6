import NapkinTrace

/// A trace analysed up to a moment (`--at SEQ|TIME`) or to its end: what
/// `tree` and `mermaid --view tree` show.
struct TraceFold {
    /// What to fold: the file, the moment (`--at`), the analysis settings
    /// (`--grace`, `--view-grace`, `--rounds`, `--max-alive`).
    struct Request: Sendable {
        /// The trace file.
        var path: String
        /// The moment to stop at; the end when nil.
        var moment: Moment?
        /// The analysis settings: the grace periods, the rounds, the budgets.
        var analysis: TraceAnalyzer.Options

        /// The trace argument, `--at` and the analysis options (`--grace`, ...).
        init(_ arguments: ParsedArguments) throws(UsageError) {
            path = arguments.tracePath
            moment = try arguments.value(CommonOptions.at)
            analysis = try arguments.analysisOptions()
        }
    }

    /// The analysis at that moment (finished, when the whole trace was asked for).
    var analyzer: TraceAnalyzer
    /// The moment asked for, if any.
    let moment: Moment?
    /// Whether the end of the trace was reached (before the moment, if one was asked for).
    let reachedEnd: Bool

    /// Folds the trace `request` names up to its moment (or to its end, finishing the analysis).
    init(_ request: Request) throws(CommandFailure) {
        let moment = request.moment
        var analyzer = TraceAnalyzer(options: request.analysis)
        var stoppedEarly = false
        _ = try TraceInput(path: request.path).read { event in
            switch moment {
            case .seq(let seq) where event.seq > seq:
                stoppedEarly = true
                return false
            case .time(let time) where event.time > time:
                analyzer.advance(to: time)
                stoppedEarly = true
                return false
            default:
                analyzer.consume(event)
                return true
            }
        }
        if !stoppedEarly && moment == nil { analyzer.finish() }
        self.analyzer = analyzer
        self.moment = moment
        self.reachedEnd = !stoppedEarly
    }

    /// When the trace ends before the moment asked for, says so on standard
    /// error: the end is shown instead.
    func notePastEnd() {
        if let moment, reachedEnd { Output.error("note: the trace ends before \(moment); showing its end") }
    }
}
