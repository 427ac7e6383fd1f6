import NapkinTrace

/// `napkin-inspect report FILE|DIR... -o report.html`: one self-contained
/// HTML file to look at (docs/report.md).
struct ReportCommand: Command {
    /// The options only `report` has (it shares `--expect-teardown` and `--source-root` with `check`).
    enum Options {
        /// `-o, --output FILE`.
        static let output = ValueOption.text(
            "output", valueName: "FILE",
            help: "Where to write the report (default napkin-report.html; - for standard output); replaces only an earlier report.")
            .short("o")
    }

    static let configuration = CommandConfiguration(
        options: [Options.output] + CommonOptions.analysisOptions + [CommonOptions.expectTeardown, CommonOptions.sourceRoot], help: """
        report FILE|DIR... [-o FILE] [options]
        Write one HTML file to look at: tree over time, timeline, findings.
        The report shows the tree at any moment (a time slider), the timeline, the findings and the stats.
        The file is self-contained (no network, no fonts or scripts fetched): open it in any browser,
        attach it to a bug, keep it as a CI artifact. Several traces (a DIR means every .ndjson file in it)
        make one report with a trace picker. check --report FILE writes the same report while checking.
        Exit status: 0 when the report was written (whatever its findings), 2 for unusable input.
        $ napkin-inspect report Examples/traces/bug-retain-cycle.ndjson -o report.html
        $ napkin-inspect report traces/ -o napkin-report.html
        """)

    /// The default `-o`.
    static let defaultOutput = "napkin-report.html"

    /// The trace files and directories given.
    var paths: [String]
    /// `-o`: where the report goes.
    var output: String
    /// `--grace`, `--view-grace`, `--expect-teardown`.
    var analysis: TraceAnalyzer.Options
    /// `--source-root`.
    var sourceRoot: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.positionals
        output = try arguments.value(Options.output) ?? Self.defaultOutput
        analysis = try arguments.analysisOptions(expectTeardown: arguments.isSet(CommonOptions.expectTeardown))
        sourceRoot = try arguments.value(CommonOptions.sourceRoot) ?? "."
    }

    func run() throws -> Int32 {
        try ReportFile.ensureWritable(output)
        var traces: [ReportTrace] = []
        for file in try TraceFiles.expand(paths) {
            traces += try ReportTrace.traces(reading: file, options: analysis)
        }
        let sources = SourceRoot(directory: sourceRoot)
        try ReportFile.write(ReportPage.html(traces, sources: sources), to: output)
        if let note = sources.unresolvedNote { Output.error(note) }
        if output != "-" {
            let findings = traces.reduce(0) { $0 + $1.findings.count }
            Output.error("wrote \(output): \(traces.count == 1 ? "1 trace" : "\(traces.count) traces"), "
                         + (findings == 1 ? "1 finding" : "\(findings) findings"))
        }
        return ExitStatus.success
    }
}
