import Foundation
import NapkinTrace

/// `napkin-inspect check FILE|DIR...` and `check -- COMMAND`: findings, as a CI gate.
struct CheckCommand: Command {
    // MARK: - Options

    /// The options only `check` has.
    enum Options {
        /// `--allow FILE`.
        static let allow = ValueOption.text(
            "allow", valueName: "FILE", help: "Allow-list of known findings to ignore (see docs/findings.md).")
        /// `--fail-on LEVEL`.
        static let failOn = ValueOption<FailureLevel>.choice(
            "fail-on", valueName: "LEVEL", help: "Exit 1 on any finding (warning, the default) or only on errors (error).")
        /// `--trace-dir DIR`.
        static let traceDir = ValueOption.text(
            "trace-dir", valueName: "DIR", help: "With COMMAND: write its traces into DIR (kept) instead of a temporary directory.")
        /// `--baseline FILE`.
        static let baseline = ValueOption.text(
            "baseline", valueName: "FILE",
            help: "Findings already known (a file --write-baseline wrote): they do not fail the check; only new ones do.")
        /// `--write-baseline FILE`.
        static let writeBaseline = ValueOption.text(
            "write-baseline", valueName: "FILE",
            help: "Write today's findings (after --allow) to FILE as a baseline, exiting 0; never overwrites any other kind of file.")
        /// `--repeat N`.
        static let repeatRuns = ValueOption.count(
            "repeat", range: 1...RepeatedRuns.maxRuns, noun: "runs",
            help: "With COMMAND: run it N times (up to 1000) and report each finding once, with how many runs had it.")
            .needingCommand()
        /// `--report FILE`.
        static let report = ValueOption.text(
            "report", valueName: "FILE",
            help: "Also write an HTML report of the traces checked (see 'napkin-inspect report'); replaces only an earlier report.")
        /// `--jobs N`.
        static let jobs = ValueOption.count(
            "jobs", range: 1...OrderedParallelWork.maxJobs, noun: "jobs",
            help: "Check up to N traces at once, each on a thread of its own (default: one per core; 1: one after the other, on one thread). A trace is read ahead on a second thread only within N.")
    }

    static let configuration = CommandConfiguration(
        options: CommonOptions.analysisOptions + [CommonOptions.expectTeardown, Options.allow, Options.baseline, Options.writeBaseline,
                                                  Options.failOn, Options.repeatRuns, Options.traceDir, Options.jobs, Options.report,
                                                  CommonOptions.sourceRoot]
            + Presentation<Format>.options, help: """
        check FILE|DIR... [options]
        check [options] -- COMMAND [ARGS...]
        Find lifecycle bugs; exit 1 when there are any (a CI gate).
        Analyses each trace (a DIR means every .ndjson file in it) and prints the findings;
        several traces are analysed at once, one per core (--jobs N), with the same output;
        a large trace with a core to spare is read ahead on a second thread.
        With COMMAND (e.g. -- swift test), runs it with NAPKIN_TRACE pointing at a directory, so that
        every process it starts writes its own trace, then checks them all; TEST_RUNNER_NAPKIN_TRACE and
        SIMCTL_CHILD_NAPKIN_TRACE carry the same directory to what xcodebuild test and simctl launch start.
        With --baseline FILE, findings recorded in FILE by --write-baseline are known: only new ones fail.
        With --repeat N, runs COMMAND N times and reports each finding once, with the runs that had it.
        With --rounds PREFIX, a type with more instances alive after every round (a round starts at each mark
        starting with PREFIX) is a finding; with --max-alive NAME=N, more than N of NAME alive at once is one.
        Exit status: 0 no findings, 1 findings, 2 usage error or unusable input;
        with COMMAND, a command that fails (in any run) passes its own exit status on.
        $ napkin-inspect check Examples/traces/bug-retain-cycle.ndjson
        $ napkin-inspect check --expect-teardown -- swift test
        $ napkin-inspect check run.ndjson --format junit > napkin-report.xml
        $ napkin-inspect check --write-baseline napkin-baseline.json -- swift test
        $ napkin-inspect check --baseline napkin-baseline.json -- swift test
        $ napkin-inspect check --repeat 10 -- swift test --filter CheckoutTests
        $ napkin-inspect check run.ndjson --rounds 'round ' --max-alive LoggedInRouter=1
        $ napkin-inspect check --report napkin-report.html -- swift test
        """)

    // MARK: - Parsed options

    /// The trace files and directories given.
    var paths: [String]
    /// `-- COMMAND`: the program to run and check.
    var command: [String]?
    /// `--grace`, `--view-grace`, `--rounds`, `--max-alive` and `--expect-teardown`, as the analysis takes them.
    var analysis: TraceAnalyzer.Options
    /// `--allow`: the allow-list file.
    var allowPath: String?
    /// `--baseline`: the baseline file of known findings.
    var baselinePath: String?
    /// `--write-baseline`: where to write today's findings as a baseline.
    var writeBaselinePath: String?
    /// `--repeat`: how many times to run COMMAND (nil: once, reported as usual).
    var repeatCount: Int?
    /// `--fail-on`.
    var failOn: FailureLevel
    /// `--trace-dir`: where the traces of COMMAND are kept.
    var traceDirectory: String?
    /// `--format`, `--color`.
    var output: Presentation<Format>
    /// `--source-root`: where the code locations of findings are looked up.
    var sourceRoot: String
    /// `--report`: where the HTML report goes.
    var reportPath: String?
    /// `--jobs`: how many traces are read and analysed at once (the output is the same for any number).
    var jobs: Int

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.positionals
        command = arguments.command
        analysis = try arguments.analysisOptions(expectTeardown: arguments.isSet(CommonOptions.expectTeardown))
        allowPath = try arguments.value(Options.allow)
        baselinePath = try arguments.value(Options.baseline)
        writeBaselinePath = try arguments.value(Options.writeBaseline)
        repeatCount = try arguments.value(Options.repeatRuns)
        failOn = try arguments.choice(Options.failOn)
        traceDirectory = try arguments.value(Options.traceDir)
        output = try Presentation(arguments)
        sourceRoot = try arguments.value(CommonOptions.sourceRoot) ?? "."
        reportPath = try arguments.value(Options.report)
        jobs = try arguments.value(Options.jobs) ?? OrderedParallelWork.defaultJobs
        if reportPath == "-" { throw UsageError("'--report -': standard output carries the check's own report; give the HTML report a file") }
    }

    // MARK: - Running

    func run() throws -> Int32 {
        var checker = TraceChecker(analysis: analysis, allowList: try AllowList.load(allowPath),
                                   baseline: try baselinePath.map(BaselineFile.read), jobs: jobs)
        // Refuse a path it must not write to before any work (a test run may take minutes).
        if let writeBaselinePath { try BaselineFile.ensureWritable(writeBaselinePath) }
        if let reportPath { try ReportFile.ensureWritable(reportPath) }
        let report = reportPath.map { _ in CheckReportCollector(options: analysis, jobs: jobs) }

        let checks: Checks
        switch try check(checker: &checker, report: report) {
        case .checked(let checked): checks = checked
        case .noTrace(let status): return status
        }
        // A trace that cannot be read or trusted is unusable input, whatever its findings.
        let unusable = checks.missing > 0 || checks.traces.contains { !$0.traceProblems.isEmpty }
        let status = exitStatus(checks.traces, commandStatus: checks.commandStatus, unusable: unusable)
        try present(checks, checker: checker, report: report, exitStatus: status)
        if let writeBaselinePath { try writeBaseline(checks, to: writeBaselinePath, unusable: unusable) }
        return status
    }

    // MARK: - Steps of a check

    /// The traces checked, and how they came about.
    private struct Checks {
        /// The traces checked (with `--repeat`, one: the report of all runs).
        var traces: [CheckedTrace]
        /// COMMAND's exit status (0 without COMMAND).
        var commandStatus: Int32 = 0
        /// With `--repeat`: the runs.
        var repeated: RepeatedRuns?
        /// Files given that do not exist (each told on standard error, and left out of the report).
        var missing = 0
    }

    /// What checking gave: the traces checked, or the exit status when COMMAND wrote no trace.
    private enum CheckOutcome {
        case checked(Checks)
        case noTrace(status: Int32)
    }

    /// Checks the traces given, or those of COMMAND (run once, or `--repeat` times).
    private func check(checker: inout TraceChecker, report: CheckReportCollector?) throws -> CheckOutcome {
        guard let command else {
            let (files, missing) = TraceFiles.existing(try TraceFiles.expand(paths))
            // A file that does not exist is that, and nothing else (no trace to report on): one line, as `tree` writes.
            for path in missing { Output.error("\(path): cannot open: no such file (check the path)") }
            if files.isEmpty && !missing.isEmpty { return .noTrace(status: ExitStatus.unusable) }
            let checked = checker.check(files, namingProcesses: false)
            report?.take(files: files, checked: checked)
            return .checked(Checks(traces: checked, missing: missing.count))
        }
        guard paths.isEmpty else { throw UsageError("give either trace files or '-- COMMAND', not both") }
        if let repeatCount {
            let runs = try RepeatedRuns(command, count: repeatCount, traceDirectory: traceDirectory,
                                        stdoutToStderr: output.format.isMachineReadable, checker: &checker, report: report)
            return .checked(Checks(traces: [runs.report], commandStatus: runs.firstFailure?.status ?? 0, repeated: runs))
        }
        let run = try runOnce(command, checker: &checker, report: report)
        if run.traces.isEmpty {
            Output.error(CommandRun.noTraceMessage(command))
            return .noTrace(status: run.status != 0 ? run.status : ExitStatus.unusable)
        }
        return .checked(Checks(traces: run.traces, commandStatus: run.status))
    }

    /// Prints the check's own report of `checks` (`status` the exit status),
    /// writes `--report`, then the notes on the sources, allow-list, baseline and runs.
    private func present(_ checks: Checks, checker: TraceChecker, report: CheckReportCollector?, exitStatus status: Int32) throws {
        let sources = SourceRoot(directory: sourceRoot)
        let baselineJSON = baselinePath.flatMap { path in checker.baseline.map { CheckJSONReport.BaselineJSON($0, path: path, traces: checks.traces) } }
        output.format.write(checks.traces, style: output.style, sources: sources, exitStatus: status,
                            baseline: baselineJSON, repetition: checks.repeated?.json)
        if let reportPath, let report { try writeReport(report, to: reportPath, sources: sources) }
        if let note = sources.unresolvedNote { Output.error(note) }
        for entry in checker.allowList.unused {
            Output.error("note: allow-list line \(entry.line) (\(entry.rule) \(entry.type)) matched nothing; remove it if the issue is fixed")
        }
        if let baselinePath, let note = checker.baseline?.noLongerOccurringNote(path: baselinePath) { Output.error(note) }
        if let note = checks.repeated?.note { Output.error(note) }
    }

    /// `--write-baseline`: writes the findings of `checks` to `path` as a
    /// baseline, unless a trace was `unusable` (then says why not).
    private func writeBaseline(_ checks: Checks, to path: String, unusable: Bool) throws {
        guard !unusable else {
            Output.error("the baseline \(path) was not written: a trace has problems (see above), so its findings are not all known")
            return
        }
        let traces = checks.repeated?.traces ?? checks.traces
        let baseline = Baseline(findings: traces.flatMap { $0.findings + $0.known })
        try BaselineFile.write(baseline, to: path)
        Output.error("wrote the baseline \(path): \(NumberFormat.count(baseline.entries.count, "entry", plural: "entries")) "
                     + "for \(NumberFormat.count(baseline.findingCount, "finding"))")
    }

    /// The exit status for `checked`: a failing COMMAND's own, else 2 for a
    /// trace problem (`unusable`), else, when writing a baseline, 0 (today's
    /// findings are what it records), else 1 for a finding `--fail-on` counts, 0.
    private func exitStatus(_ checked: [CheckedTrace], commandStatus: Int32, unusable: Bool) -> Int32 {
        if commandStatus != 0 { return commandStatus }
        if unusable { return ExitStatus.unusable }
        if writeBaselinePath != nil { return ExitStatus.success }
        let failing = checked.flatMap(\.findings).contains(where: failOn.fails)
        return failing ? ExitStatus.findings : ExitStatus.success
    }

    /// Runs COMMAND once, its traces written to `--trace-dir` or to a temporary directory (removed).
    private func runOnce(_ command: [String], checker: inout TraceChecker, report: CheckReportCollector?) throws(CommandFailure) -> CommandRun {
        if let traceDirectory {
            return try CommandRun(command, tracingInto: try TraceFiles.prepareKeptDirectory(traceDirectory), temporary: false,
                                  stdoutToStderr: output.format.isMachineReadable, checker: &checker, report: report)
        }
        let directory = try TraceFiles.makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        return try CommandRun(command, tracingInto: directory, temporary: true, stdoutToStderr: output.format.isMachineReadable,
                              checker: &checker, report: report)
    }

    /// `--report`: writes the report of the traces `report` gathered (none: a note, no file).
    private func writeReport(_ report: CheckReportCollector, to path: String, sources: SourceRoot) throws(CommandFailure) {
        guard !report.traces.isEmpty else {
            Output.error("note: no report written to \(path): no trace was read")
            return
        }
        try ReportFile.write(ReportPage.html(report.traces, sources: sources), to: path)
        Output.error("wrote the report \(path) (\(report.traces.count == 1 ? "1 trace" : "\(report.traces.count) traces"))")
    }
}
