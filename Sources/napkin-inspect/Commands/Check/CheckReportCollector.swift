import NapkinTrace

/// `check --report FILE`: gathers the traces the HTML report shows while
/// their files still exist (the traces of `check -- COMMAND` are in a
/// temporary directory, removed when the command's run is checked).
///
/// With `--repeat`, a report of every run would repeat the same flow N times:
/// it shows the first run that had a finding or a trace problem, or the last
/// run when none had (docs/report.md).
final class CheckReportCollector {
    /// The traces the report shows.
    private(set) var traces: [ReportTrace] = []
    /// Whether ``traces`` come from a run with a finding or a trace problem.
    private var keptRunFailed = false

    /// Nothing gathered yet; traces will be analysed with `options`, as `check` does.
    init(options: TraceAnalyzer.Options) {
        self.options = options
    }

    /// The analysis settings `check` used (`--grace`, `--view-grace`, `--expect-teardown`).
    let options: TraceAnalyzer.Options

    /// Takes one run's traces: `files` as read, `checked` their results, in the same order.
    func take(files: [String], checked: [CheckedTrace]) {
        guard !keptRunFailed else { return }
        traces = zip(files, checked).flatMap { ReportTrace.traces(checked: $1, file: $0, options: options) }
        keptRunFailed = checked.contains { !$0.findings.isEmpty || !$0.traceProblems.isEmpty }
    }
}
