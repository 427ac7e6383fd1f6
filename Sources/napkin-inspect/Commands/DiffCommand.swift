import NapkinTrace
import NapkinTraceReader

/// `napkin-inspect diff BEFORE AFTER`: what changed between two recordings
/// of the same flow (a good run and a new one), matched by the paths of types
/// in the tree (``TracePath``), never by id; exit 1 when AFTER has findings
/// BEFORE did not.
struct DiffCommand: Command {
    /// `--format`: text, JSON, or Markdown for a pull-request comment.
    enum Format: String, ListedChoice {
        case text, json, markdown
        var note: String? {
            switch self {
            case .markdown: "for a pull-request comment"
            case .text, .json: nil
            }
        }
    }

    /// The options only `diff` has.
    enum Options {
        /// `--threshold PERCENT`.
        static let threshold = ValueOption.percent(
            "threshold", help: "Smallest change of a lifetime or task count reported, as a share of the smaller value (default 50%).")
        /// `--threshold-time DURATION`.
        static let thresholdTime = ValueOption.duration(
            "threshold-time", help: "Smallest change of a lifetime reported, besides the share (default 250ms).")
        /// `--threshold-tasks N`.
        static let thresholdTasks = ValueOption.count(
            "threshold-tasks", range: 1...1_000_000, noun: "tasks", help: "Smallest change of a task count reported, besides the share (default 1).")
    }

    static let configuration = CommandConfiguration(
        options: [Options.threshold, Options.thresholdTime, Options.thresholdTasks] + CommonOptions.analysisOptions
            + [CommonOptions.sourceRoot] + Presentation<Format>.options, help: """
        diff BEFORE AFTER [options]
        Compare two traces: new and fixed findings, routers, lifetimes.
        Routers are matched by their path of types in the tree (RootRouter/HomeRouter/OrderRouter[2]:
        the second OrderRouter attached under HomeRouter), never by id; findings by rule, path and task label.
        Reports the findings AFTER has that BEFORE had not (new) and the reverse (fixed), routers only one
        run has, lifetimes and task counts that changed beyond the thresholds, and the routers alive at the end.
        Exit status: 0 no new findings, 1 new findings in AFTER (a regression), 2 usage error or unusable input.
        $ napkin-inspect diff Examples/traces/clean.ndjson Examples/traces/bug-retain-cycle.ndjson
        $ napkin-inspect diff good.ndjson run.ndjson --format markdown > diff.md
        $ napkin-inspect diff good.ndjson run.ndjson --threshold 100% --threshold-time 1s
        """)

    /// The good run.
    var beforePath: String
    /// The run to judge.
    var afterPath: String
    /// `--threshold`, `--threshold-time`, `--threshold-tasks`.
    var thresholds: ComparisonThresholds
    /// `--grace`, `--view-grace`, `--rounds`, `--max-alive`.
    var analysis: TraceAnalyzer.Options
    /// `--source-root`: where the code locations of findings are looked up.
    var sourceRoot: String
    /// `--format`, `--color`.
    var output: Presentation<Format>

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        beforePath = arguments.positionals.first ?? "-"
        afterPath = arguments.positionals.dropFirst().first ?? "-"
        if beforePath == "-" && afterPath == "-" {
            throw UsageError("BEFORE and AFTER cannot both be standard input ('-'); give at least one trace file")
        }
        let defaults = ComparisonThresholds.default
        thresholds = ComparisonThresholds(
            relative: try arguments.value(Options.threshold) ?? defaults.relative,
            time: try arguments.value(Options.thresholdTime) ?? defaults.time,
            tasks: try arguments.value(Options.thresholdTasks).map { UInt64($0) } ?? defaults.tasks)
        analysis = try arguments.analysisOptions()
        sourceRoot = try arguments.value(CommonOptions.sourceRoot) ?? "."
        output = try Presentation(arguments)
    }

    func run() throws -> Int32 {
        let before = try DiffSide(reading: beforePath, options: analysis)
        let after = try DiffSide(reading: afterPath, options: analysis)
        let comparison = TraceComparison(before: before.trace, after: after.trace, thresholds: thresholds)
        let unusable = !before.traceProblems.isEmpty || !after.traceProblems.isEmpty
        let status = unusable ? ExitStatus.unusable : comparison.isRegression ? ExitStatus.findings : ExitStatus.success
        let report = DiffReport(before: before, after: after, comparison: comparison, exitStatus: status)
        let sources = SourceRoot(directory: sourceRoot)
        switch output.format {
        case .text: Output.write(DiffText.render(report, style: output.style, sources: sources))
        case .markdown: Output.write(DiffMarkdown.render(report, sources: sources))
        case .json: Output.write(JSONOutput.text(DiffJSON(report: report, sources: sources)))
        }
        if let note = sources.unresolvedNote { Output.error(note) }
        if unusable {
            Output.error("a trace is damaged (see above): its findings may be wrong either way, so the comparison is not a verdict; record it again")
        }
        return status
    }
}
