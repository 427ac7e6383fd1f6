import NapkinTrace

/// `napkin-inspect mermaid FILE [--view tree|timeline|sequence] [--at SEQ|TIME] [--markdown]`:
/// a Mermaid diagram of a trace.
struct MermaidCommand: Command {
    /// `--view`: which diagram.
    enum View: String, ListedChoice {
        case tree, timeline, sequence
        var note: String? {
            switch self {
            case .tree: "a flowchart, findings styled"
            case .timeline: "a Gantt chart"
            case .sequence: nil
            }
        }
    }

    /// The diagram asked for, with what it needs.
    enum Diagram {
        /// The tree at a moment (or at the end), as a flowchart.
        case flowchart(TraceFold.Request)
        /// Every lifecycle, as a Gantt chart.
        case gantt
        /// Attach and detach, as a sequence diagram.
        case sequence
    }

    /// The options only `mermaid` has.
    enum Options {
        /// `--view VIEW`.
        static let view = ValueOption<View>.choice("view", valueName: "VIEW")
        /// `--markdown`.
        static let markdown = Flag("markdown", help: "Wrap the diagram in a ```mermaid block for a Markdown file.")
    }

    static let configuration = CommandConfiguration(options: [Options.view, CommonOptions.at, Options.markdown] + CommonOptions.analysisOptions, help: """
        mermaid FILE [--view tree|timeline|sequence] [options]
        Draw the tree, lifecycles or attach/detach as a Mermaid diagram.
        $ napkin-inspect mermaid Examples/traces/bug-service-keeps-child.ndjson --markdown >> report.md
        $ napkin-inspect mermaid run.ndjson --view sequence
        """)

    /// The trace file.
    var path: String
    /// `--view`, with `--at`, `--grace` and `--view-grace` for the tree.
    var diagram: Diagram
    /// `--markdown`: fence the diagram for a Markdown file.
    var markdown: Bool

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = arguments.tracePath
        let view = try arguments.choice(Options.view)
        let fold = try TraceFold.Request(arguments)
        if fold.moment != nil && view != .tree {
            throw UsageError("'--at' only applies to the tree view; drop it or use --view tree")
        }
        switch view {
        case .tree: diagram = .flowchart(fold)
        case .timeline: diagram = .gantt
        case .sequence: diagram = .sequence
        }
        markdown = arguments.isSet(Options.markdown)
    }

    func run() throws -> Int32 {
        let text: String
        switch diagram {
        case .flowchart(let request):
            let fold = try TraceFold(request)
            fold.notePastEnd()
            text = MermaidRenderer.flowchart(fold.analyzer.state, findings: fold.analyzer.findings)
        case .gantt:
            text = MermaidRenderer.gantt(try TraceInput(path: path).history())
        case .sequence:
            text = MermaidRenderer.sequence(try TraceInput(path: path).history())
        }
        Output.write(markdown ? MermaidRenderer.markdown(text) : text)
        return ExitStatus.success
    }
}
