import NapkinTrace

/// One trace as an HTML report shows it: every node's life (for the tree at
/// any moment and the timeline), the findings, the stats, and what is wrong
/// with the trace itself.
struct ReportTrace {
    /// What the report calls it: the file, or the process for a trace of `check -- COMMAND`.
    var title: String
    /// Every node's life; nil when the file could not be read as a trace.
    var history: TraceHistory?
    /// The findings to show (for `check --report`: those `check` reports, after the allow-list and baseline).
    var findings: [Finding]
    /// Findings the allow-list allowed or the baseline knew (counted, not shown).
    var setApart: Int = 0
    /// Findings the analysis established beyond the ones it keeps.
    var findingsNotKept: Int = 0
    /// `stats` for the trace, as its text rows.
    var stats: TraceStats?
    /// Why the trace cannot be trusted, one line each (empty for an intact trace).
    var problems: [String]

    /// Reads and analyses the trace at `path` with `options` (what `report FILE` does).
    init(reading path: String, options: TraceAnalyzer.Options) throws(CommandFailure) {
        var analyzer = TraceAnalyzer(options: options)
        var history = TraceHistory()
        // The stats share the analysis's model: one state, not two (a deep
        // chain's model is hundreds of megabytes).
        var tally = TraceStats.Tally()
        let summary = try TraceInput(path: path).read { event in
            tally.count(event, before: analyzer.state)
            analyzer.consume(event)
            tally.counted(event, after: analyzer.state)
            history.apply(event)
            return true
        }
        stats = tally.stats(path: path, reading: summary, state: analyzer.state)
        analyzer.finish()
        title = path
        self.history = history
        findings = analyzer.findings
        findingsNotKept = analyzer.findingsNotKept
        problems = summary.integrity.including(analyzer.state).problems.map { "\($0.kind.rawValue): \($0)" }
    }

    /// The trace `check` checked, read again from `file` for its history
    /// (the file may have a temporary name: ``CheckedTrace/path`` is the title).
    init(checked: CheckedTrace, file: String) {
        title = checked.path
        findings = checked.findings
        setApart = checked.allowed.count + checked.known.count
        findingsNotKept = checked.findingsNotKept
        problems = checked.traceProblems
        guard !checked.traceProblems.contains(where: { $0.hasPrefix("unusable:") }) else { return }
        var history = TraceHistory()
        var state = TraceState()
        var tally = TraceStats.Tally()
        // Errors were reported when `check` read it; reading it again must not repeat them.
        if let summary = try? TraceInput(path: file, quiet: true).read({ event in
            tally.count(event, before: state)
            state.apply(event)
            tally.counted(event, after: state)
            history.apply(event)
            return true
        }) {
            self.history = history
            stats = tally.stats(path: checked.path, reading: summary, state: state)
        }
    }
}
