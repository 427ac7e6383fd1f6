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

    /// Nothing gathered yet; traces will be analysed with `options`, as
    /// `check` does, up to `jobs` at once.
    init(options: TraceAnalyzer.Options, jobs: Int = OrderedParallelWork.defaultJobs) {
        self.options = options
        self.jobs = jobs
    }

    /// The analysis settings `check` used (`--grace`, `--view-grace`, `--expect-teardown`).
    let options: TraceAnalyzer.Options
    /// `--jobs`: how many traces are read again at once.
    let jobs: Int

    /// Takes one run's traces: `files` as read, `checked` their results, in the same order.
    func take(files: [String], checked: [CheckedTrace]) {
        guard !keptRunFailed else { return }
        let options = options
        var gathered: [ReportTrace] = []
        OrderedParallelWork.run(count: checked.count, jobs: jobs, work: { index in
            ReportTrace.traces(checked: checked[index], file: files[index], options: options)
        }) { _, traces in gathered += traces }
        traces = gathered
        keptRunFailed = checked.contains { !$0.findings.isEmpty || !$0.traceProblems.isEmpty }
    }
}
