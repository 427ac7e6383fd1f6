/// `napkin-inspect stats FILE`: counts, rates, event mix, completeness.
struct StatsCommand: Command {
    /// `--format`: a table or JSON.
    enum Format: String, ListedChoice {
        case text, json
    }

    static let configuration = CommandConfiguration(options: Presentation<Format>.options, help: """
        stats FILE [options]
        Count a trace's events, nodes and tasks; tell if it is complete.
        Lists the routers and interactors of each type and the bound tasks of each owner and label:
        how many are alive at the end and the most at once (the 20 with the most; --format json: all).
        $ napkin-inspect stats Examples/traces/clean.ndjson
        """)

    /// The trace file.
    var path: String
    /// `--format`, `--color`.
    var output: Presentation<Format>

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = arguments.tracePath
        output = try Presentation(arguments)
    }

    func run() throws -> Int32 {
        let stats = try TraceStats(reading: path)
        switch output.format {
        case .json: Output.write(JSONOutput.text(stats))
        case .text: Output.write(StatsText.render(stats, style: output.style, populations: true))
        }
        return ExitStatus.success
    }
}
