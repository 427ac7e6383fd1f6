import NapkinOTLP
import NapkinTrace

/// `napkin-inspect export FILE|DIR... [--format chrome] [-o FILE]`: traces
/// in a standard trace format, for a trace viewer (docs/export.md).
struct ExportCommand: Command {
    /// `--format`: the file format written.
    enum Format: String, ListedChoice {
        case chrome
        case otlp
        var note: String? {
            switch self {
            case .chrome: "Chrome Trace Event Format JSON, for ui.perfetto.dev and chrome://tracing"
            case .otlp: "OpenTelemetry OTLP/JSON requests, one per line, for a collector (docs/otlp.md)"
            }
        }
    }

    /// The options only `export` has.
    enum Options {
        /// `--format FORMAT`.
        static let format = ValueOption<Format>.choice("format", valueName: "FORMAT")
        /// `-o FILE`, `--output FILE`.
        static let output = ValueOption.text(
            "output", valueName: "FILE",
            help: "Write to FILE (- for standard output, the default); an existing FILE is replaced only if it is empty or an earlier export.")
            .short("o")
        /// `--endpoint URL`: with `--format otlp`, post the requests to a collector.
        static let endpoint = ValueOption.text(
            "endpoint", valueName: "URL",
            help: "With --format otlp: POST the requests to the collector's OTLP/HTTP base URL (/v1/traces, /v1/logs, /v1/metrics are appended; headers from OTEL_EXPORTER_OTLP_HEADERS); without -o nothing is written.")
    }

    static let configuration = CommandConfiguration(
        options: [Options.format, Options.output, Options.endpoint] + CommonOptions.analysisOptions, help: """
        export FILE|DIR... [-o FILE] [options]
        Write traces for Perfetto or an OpenTelemetry collector.
        Each trace (a DIR means every .ndjson file in it) becomes a process, each router a track: its
        lifetime, its states (active, inactive, detached, view shown) and its tasks; marks and findings
        are instants. Open the file in https://ui.perfetto.dev (Open trace file); see docs/export.md.
        $ napkin-inspect export Examples/traces/clean.ndjson -o clean.json
        $ napkin-inspect export --format chrome traces/ -o all-apps.json
        With --format otlp: spans, log records and metrics as OTLP/JSON requests, one per line (the file
        format of the collector's otlpjsonfile receiver), or posted with --endpoint; see docs/otlp.md.
        $ napkin-inspect export --format otlp traces/ --endpoint http://127.0.0.1:4318
        """)

    /// The trace files and directories given.
    var paths: [String]
    /// `--format`.
    var format: Format
    /// `-o`: the file to write, or nil for standard output (also `-o -`).
    var outputPath: String?
    /// `--grace`, `--view-grace`, `--rounds` and `--max-alive`, for the findings.
    var analysis: TraceAnalyzer.Options
    /// `--endpoint`: the collector to post the OTLP requests to.
    var endpoint: String?

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.positionals
        format = try arguments.choice(Options.format)
        let output = try arguments.value(Options.output)
        outputPath = output == "-" ? nil : output
        analysis = try arguments.analysisOptions()
        endpoint = try arguments.value(Options.endpoint)
        if endpoint != nil && format != .otlp {
            throw UsageError("--endpoint posts OTLP requests: add --format otlp (or leave --endpoint out)")
        }
    }

    func run() throws -> Int32 {
        switch format {
        case .chrome: return try runChrome()
        case .otlp: return try OTLPExportRun(paths: paths, outputPath: outputPath, endpoint: endpoint,
                                             analysis: analysis, writesStandardOutput: endpoint == nil).run()
        }
    }

    private func runChrome() throws -> Int32 {
        // Refuse a file it must not replace before reading anything.
        if let outputPath { try ExportOutput.ensureReplaceable(outputPath) }
        var processes: [ChromeProcess] = []
        for file in try TraceFiles.expand(paths) {
            processes += try Self.read(file, analysis: analysis)
        }
        let (named, notes) = ChromeProcess.assigningPIDs(processes)
        for note in notes { Output.error(note) }

        let output = try ExportOutput(path: outputPath)
        var writer = ChromeTraceWriter { bytes throws(CommandFailure) in try output.append(bytes) }
        try ChromeTrace.write(named, to: &writer)
        try output.commit()
        if let outputPath {
            Output.error("wrote \(outputPath): \(NumberFormat.grouped(writer.eventCount)) events, "
                         + "\(NumberFormat.count(named.count, "process", plural: "processes")), \(NumberFormat.bytes(output.byteCount)); "
                         + "open it in https://ui.perfetto.dev")
        }
        return ExitStatus.success
    }

    /// Reads `file` once: a process per session in it (the later parts of a
    /// session resumed after a gap belong to it), each with its history and
    /// what the analysis finds in it.
    private static func read(_ file: String, analysis: TraceAnalyzer.Options) throws(CommandFailure) -> [ChromeProcess] {
        var processes: [ChromeProcess] = []
        var history = TraceHistory()
        var analyzer = TraceAnalyzer(options: analysis)
        var session: SessionInfo?
        func finishSession() {
            let findings = analyzer.finish()
            if analyzer.findingsNotKept > 0 {
                Output.error("note: \(file): \(NumberFormat.grouped(analyzer.findingsNotKept)) more findings were not kept "
                             + "(at most \(TraceAnalyzer.maxKeptFindings)); the export has the first ones")
            }
            processes.append(ChromeProcess(file: file, session: processes.count + 1, history: history, findings: findings))
        }
        _ = try TraceInput(path: file).read { event in
            if case .sessionStart(let info) = event.kind {
                if let current = session, !info.resumes(current) {
                    finishSession()
                    history = TraceHistory()
                    analyzer = TraceAnalyzer(options: analysis)
                }
                session = info
            }
            history.apply(event)
            analyzer.consume(event)
            return true
        }
        finishSession()
        return processes
    }
}
