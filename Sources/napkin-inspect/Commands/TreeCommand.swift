import NapkinTrace

/// `napkin-inspect tree FILE [--at SEQ|TIME]`: the tree at the end of a trace or at any moment.
struct TreeCommand: Command {
    /// `--format`: how the tree is printed.
    enum Format: String, ListedChoice {
        case text, mermaid
    }

    /// The options only `tree` has.
    enum Options {
        /// `--at SEQ|TIME`.
        static let at = ValueOption.moment(
            "at", help: "Show the tree just after event SEQ (e.g. 120) or at a time since the start (e.g. 1.5s, 800ms).")
        /// `--format FORMAT`.
        static let format = ValueOption<Format>.choice("format", valueName: "FORMAT")
    }

    static let configuration = CommandConfiguration(
        name: "tree",
        abstract: "Print the tree at the end of a trace, or at any moment of it.",
        summary: "Print the tree of a trace at its end, or at any moment (time travel).",
        usage: ["tree FILE [--at SEQ|TIME] [options]"],
        positionals: 1...1,
        options: [Options.at, Options.format, CommonOptions.grace] + CommonOptions.colorOptions,
        details: "Each router is shown under its parent with its state (active, inactive, detached), age,\nrunning tasks, and a mark for every finding about it established by then.",
        examples: ["napkin-inspect tree Examples/traces/clean.ndjson", "napkin-inspect tree run.ndjson --at 2.5s"])

    /// The trace file.
    var path: String
    /// `--at`: the moment to show (the end when nil).
    var moment: Moment?
    /// `--format`.
    var format: Format
    /// `--grace`, in nanoseconds.
    var grace: UInt64
    /// `--color`, `--no-color`.
    var style: Style

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = arguments.tracePath
        moment = try arguments.value(Options.at)
        grace = try arguments.grace()
        format = try arguments.choice(Options.format)
        style = try arguments.style()
    }

    func run() throws -> Int32 {
        let fold = try TraceFold(path: path, until: moment, grace: grace)
        let analyzer = fold.analyzer
        switch format {
        case .mermaid:
            Output.write(MermaidRenderer.flowchart(analyzer.state, findings: analyzer.findings))
        case .text:
            Output.line(TreeRenderer.title(analyzer.state, style: style))
            fold.notePastEnd()
            for row in TreeRenderer(style: style, findings: analyzer.findings).rows(analyzer.state) {
                Output.line(row.text)
            }
            if !analyzer.findings.isEmpty {
                Output.line()
                Output.line(style.bold("Findings so far:"))
                FindingLine.print(analyzer.findings, style: style)
            }
        }
        return ExitStatus.success
    }
}
