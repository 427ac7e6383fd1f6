import NapkinTrace

/// `napkin-inspect export FILE|DIR... [--format chrome] [-o FILE]`: traces
/// in a standard trace format, for a trace viewer (docs/export.md).
struct ExportCommand: Command {
    /// `--format`: the file format written.
    enum Format: String, ListedChoice {
        case chrome
        var note: String? {
            switch self {
            case .chrome: "Chrome Trace Event Format JSON, for ui.perfetto.dev and chrome://tracing"
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
    }

    static let configuration = CommandConfiguration(
        options: [Options.format, Options.output] + CommonOptions.analysisOptions, help: """
        export FILE|DIR... [-o FILE] [options]
        Write traces for a trace viewer (Perfetto, chrome://tracing).
        Each trace (a DIR means every .ndjson file in it) becomes a process, each router a track: its
        lifetime, its states (active, inactive, detached, view shown) and its tasks; marks and findings
        are instants. Open the file in https://ui.perfetto.dev (Open trace file); see docs/export.md.
        $ napkin-inspect export Examples/traces/clean.ndjson -o clean.json
        $ napkin-inspect export --format chrome traces/ -o all-apps.json
        """)

    /// The trace files and directories given.
    var paths: [String]
    /// `--format`.
    var format: Format
    /// `-o`: the file to write, or nil for standard output (also `-o -`).
    var outputPath: String?
    /// `--grace`, `--view-grace`, `--rounds` and `--max-alive`, for the findings.
    var analysis: TraceAnalyzer.Options

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.positionals
        format = try arguments.choice(Options.format)
        let output = try arguments.value(Options.output)
        outputPath = output == "-" ? nil : output
        analysis = try arguments.analysisOptions()
    }

    func run() throws -> Int32 {
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
        switch format {
        case .chrome: try ChromeTrace.write(named, to: &writer)
        }
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
