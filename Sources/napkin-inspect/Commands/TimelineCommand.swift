import NapkinTrace

/// `napkin-inspect timeline FILE [--node NAME] [--width N] [--format text|mermaid]`:
/// each router's lifecycle over time.
struct TimelineCommand: Command {
    /// `--format`: a text chart or a Mermaid Gantt chart.
    enum Format: String, ListedChoice {
        case text, mermaid
        var note: String? {
            switch self {
            case .text: nil
            case .mermaid: "a Gantt chart"
            }
        }
    }

    /// The options only `timeline` has.
    enum Options {
        /// `--node NAME`.
        static let node = ValueOption.text(
            "node", valueName: "NAME", help: "Only routers whose type contains NAME, or the node with id NAME (e.g. PitBoard, 14).")
        /// `--width COLUMNS`.
        static let width = ValueOption.columns("width", help: "Width of the chart (default: the terminal's, or 100).")
    }

    static let configuration = CommandConfiguration(
        options: [Options.node, Options.width] + Presentation<Format>.options, help: """
        timeline FILE [--node NAME] [options]
        Chart each router's lifecycle over time: attached, active, tasks.
        $ napkin-inspect timeline Examples/traces/clean.ndjson
        $ napkin-inspect timeline run.ndjson --node PitBoard
        """)

    /// The trace file.
    var path: String
    /// `--node`: only the routers it names.
    var node: String?
    /// `--width`: the chart's width (the terminal's, or 100, when nil).
    var width: Int?
    /// `--format`, `--color`.
    var output: Presentation<Format>

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = arguments.tracePath
        width = try arguments.value(Options.width)
        node = try arguments.value(Options.node)
        output = try Presentation(arguments)
    }

    func run() throws -> Int32 {
        let history = try TraceInput(path: path).history()
        let filter = try node.map { name throws(CommandFailure) in try NodeFilter(name: name, checkedAgainst: history) }
        switch output.format {
        case .mermaid:
            Output.write(MermaidRenderer.gantt(history, filter: filter))
        case .text:
            let columns = width ?? (TerminalInfo.isTerminal(1) ? TerminalInfo.size(1).columns : 100)
            let renderer = TimelineRenderer(style: output.style, width: columns, filter: filter)
            Output.write(renderer.lines(history).map { $0 + "\n" }.joined())
        }
        return ExitStatus.success
    }
}
