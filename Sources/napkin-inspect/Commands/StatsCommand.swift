/// `napkin-inspect stats FILE`: counts, rates, event mix, completeness.
struct StatsCommand: Command {
    /// `--format`: a table or JSON.
    enum Format: String, ListedChoice {
        case text, json
    }

    /// The options only `stats` has.
    enum Options {
        /// `--format FORMAT`.
        static let format = ValueOption<Format>.choice("format", valueName: "FORMAT")
    }

    static let configuration = CommandConfiguration(
        name: "stats",
        abstract: "Count events, rates, dropped events and whether the trace ended cleanly.",
        summary: "Count a trace's events: kinds, rates, nodes, tasks, dropped events, completeness.",
        usage: ["stats FILE [options]"],
        positionals: 1...1,
        options: [Options.format] + CommonOptions.colorOptions,
        examples: ["napkin-inspect stats Examples/traces/clean.ndjson"])

    /// The trace file.
    var path: String
    /// `--format`.
    var format: Format
    /// `--color`, `--no-color`.
    var style: Style

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = arguments.tracePath
        format = try arguments.choice(Options.format)
        style = try arguments.style()
    }

    func run() throws -> Int32 {
        let stats = try TraceStats(reading: path)
        switch format {
        case .json: Output.write(JSONOutput.text(stats))
        case .text: Output.write(StatsText.render(stats, style: style))
        }
        return ExitStatus.success
    }
}
