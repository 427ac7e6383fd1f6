import NapkinTrace

/// `napkin-inspect tree FILE [--at SEQ|TIME]`: the tree at the end of a trace or at any moment.
struct TreeCommand: Command {
    /// `--format`: how the tree is printed.
    enum Format: String, ListedChoice {
        case text, mermaid
    }

    static let configuration = CommandConfiguration(
        options: [CommonOptions.at] + CommonOptions.analysisOptions + Presentation<Format>.options, help: """
        tree FILE [--at SEQ|TIME] [options]
        Print the tree at the end of a trace, or at any moment of it.
        Each router is shown under its parent with its state (active, inactive, detached), age,
        running tasks, its view if the app reports views (view gone, view covered; view shown
        outside the tree), and a mark for every finding about it established by then.
        At most \(TreeRenderer.maxRows) rows are printed, and levels deeper than \(TreeLayout.maxDrawnLevels) are folded into one mark.
        $ napkin-inspect tree Examples/traces/clean.ndjson
        $ napkin-inspect tree run.ndjson --at 2.5s
        """)

    /// The trace, `--at` and the analysis options (`--grace`, `--view-grace`, `--rounds`, `--max-alive`).
    var fold: TraceFold.Request
    /// `--format`, `--color`.
    var output: Presentation<Format>

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        fold = try TraceFold.Request(arguments)
        output = try Presentation(arguments)
    }

    func run() throws -> Int32 {
        let fold = try TraceFold(fold)
        let analyzer = fold.analyzer
        let style = output.style
        switch output.format {
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
                FindingLine.print(analyzer.findings, notKept: analyzer.findingsNotKept, style: style)
            }
        }
        return ExitStatus.success
    }
}
