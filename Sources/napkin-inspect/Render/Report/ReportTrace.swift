import NapkinTrace

/// One trace as an HTML report shows it: every node's life (for the tree at
/// any moment and the timeline), the findings, the stats, and what is wrong
/// with the trace itself.
///
/// A file that holds several sessions (concatenated traces, the parts of a
/// `--record`ed app) gives one report trace per session: ids start over in
/// each, so a finding of one session must never mark a node of another.
struct ReportTrace {
    /// What the report calls it: the file, or the process for a trace of
    /// `check -- COMMAND`; with several sessions in a file, the session too.
    var title: String
    /// Every node's life; nil when the file could not be read as a trace.
    var history: TraceHistory?
    /// The findings to show (for `check --report`: those `check` reports, after the allow-list and baseline).
    var findings: [Finding]
    /// Findings the allow-list allowed or the baseline knew (counted, not shown).
    var setApart: Int = 0
    /// Findings the analysis established beyond the ones it keeps.
    var findingsNotKept: Int = 0
    /// `stats` for the trace (nil for a file of several sessions: `stats` counts a file).
    var stats: TraceStats?
    /// Why the trace cannot be trusted, one line each (empty for an intact trace).
    var problems: [String]
    /// The chart of live instances per type.
    var populations = ReportPopulations()

    /// Reads and analyses the trace at `path` with `options`, one report
    /// trace per session in it. `title` names it (default: the path). With
    /// `quiet`, the reader's diagnostics go unsaid (a second reading, by
    /// `check --report`). Findings whose fingerprint is in `setApart` (the
    /// allow-list's and the baseline's, for `check --report`) are counted,
    /// not shown.
    static func traces(reading path: String, title: String? = nil, options: TraceAnalyzer.Options,
                       quiet: Bool = false, setApart: Set<String> = []) throws(CommandFailure) -> [ReportTrace] {
        var analyzer = TraceAnalyzer(options: options)
        var histories: [TraceHistory] = []
        var current = TraceHistory()
        // Where each session's findings start in `analyzer.findings`: a new
        // session record first decides the checks of the one before.
        var firstFinding: [Int] = [0]
        var sessions = 0
        // The stats share the analysis's model: one state, not two (a deep
        // chain's model is hundreds of megabytes).
        var tally = TraceStats.Tally()
        // The live counts per type of the session being read; a session that ended keeps only its chart.
        var fold = ReportPopulations.Fold(options)
        var charts: [ReportPopulations] = []
        func session(_ k: Int) -> [Finding] {
            let all = analyzer.findings
            return all[min(firstFinding[k], all.count)..<min(firstFinding.count > k + 1 ? firstFinding[k + 1] : all.count, all.count)]
                .filter { !setApart.contains($0.fingerprint) }
        }
        let summary = try TraceInput(path: path, quiet: quiet).read { event in
            let startsSession: Bool
            if case .sessionStart = event.kind { startsSession = true } else { startsSession = false }
            var ended: PopulationCounts?
            if startsSession {
                sessions += 1
                if sessions > 1 {
                    histories.append(current)
                    current = TraceHistory()
                    ended = analyzer.populations
                }
            } else {
                fold.before(event.time, analyzer.populations)
            }
            tally.count(event, before: analyzer.state)
            analyzer.consume(event)
            if startsSession && sessions > 1 {
                // The session before is decided now: its findings flag its chart.
                firstFinding.append(analyzer.findings.count)
                if let ended, let last = histories.last {
                    charts.append(fold.chart(ended, end: last.endTime, findings: session(firstFinding.count - 2)))
                }
                fold = ReportPopulations.Fold(options)
            }
            if case .mark(let text) = event.kind { fold.mark(text, at: event.time) }
            tally.counted(event, after: analyzer.state)
            current.apply(event)
            return true
        }
        let stats = tally.stats(path: title ?? path, reading: summary, state: analyzer.state)
        analyzer.finish()
        histories.append(current)
        charts.append(fold.chart(analyzer.populations, end: current.endTime, findings: session(firstFinding.count - 1)))
        let problems = summary.integrity.including(analyzer.state).problems.map { "\($0.kind.rawValue): \($0)" }
        let all = analyzer.findings
        firstFinding.append(all.count)
        var traces: [ReportTrace] = []
        for (index, history) in histories.enumerated() {
            let mine = all[min(firstFinding[index], all.count)..<min(firstFinding[index + 1], all.count)]
            let shown = mine.filter { !setApart.contains($0.fingerprint) }
            var name = title ?? path
            if histories.count > 1 {
                name += " — session \(index + 1) of \(histories.count)" + (history.session.map { ": \($0.heading)" } ?? "")
            }
            traces.append(ReportTrace(title: name, history: history, findings: shown, setApart: mine.count - shown.count,
                                      findingsNotKept: index == histories.count - 1 ? analyzer.findingsNotKept : 0,
                                      stats: histories.count == 1 ? stats : nil, problems: problems,
                                      populations: index < charts.count ? charts[index] : ReportPopulations()))
        }
        return traces
    }

    /// The trace `check` checked in `file` (which may have a temporary name:
    /// ``CheckedTrace/path`` is the title), read and analysed again with
    /// `options`, quietly: its findings are `check`'s, the allowed and known
    /// ones set apart by fingerprint. A trace `check` could not read is one
    /// entry with its problem and no data.
    static func traces(checked: CheckedTrace, file: String, options: TraceAnalyzer.Options) -> [ReportTrace] {
        let unreadable = ReportTrace(title: checked.path, history: nil, findings: [], problems: checked.traceProblems)
        guard !checked.traceProblems.contains(where: { $0.hasPrefix("unusable:") }) else { return [unreadable] }
        let setApart = Set((checked.allowed + checked.known).map(\.fingerprint))
        return (try? traces(reading: file, title: checked.path, options: options, quiet: true, setApart: setApart)) ?? [unreadable]
    }
}
