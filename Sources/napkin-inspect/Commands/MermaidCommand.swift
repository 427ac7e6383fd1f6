import NapkinTrace

/// `napkin-inspect mermaid FILE [--view tree|timeline|sequence] [--at SEQ|TIME] [--markdown]`:
/// a Mermaid diagram of a trace.
enum MermaidCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let view = context.arguments.value("view") ?? "tree"
        let moment = try context.arguments.value("at").map { text throws(UsageError) in try ValueParsing.moment(text, option: "at") }
        if moment != nil && view != "tree" {
            throw UsageError("'--at' only applies to the tree view; drop it or use --view tree", command: "mermaid")
        }
        let diagram: String
        switch view {
        case "timeline":
            diagram = MermaidRenderer.gantt(try TimelineCommand.readHistory(context.tracePath))
        case "sequence":
            diagram = MermaidRenderer.sequence(try TimelineCommand.readHistory(context.tracePath))
        default:
            let (analyzer, reachedEnd) = try TreeCommand.fold(context.tracePath, until: moment, grace: context.grace())
            if let moment, reachedEnd {
                let asked: String
                switch moment {
                case .seq(let seq): asked = "seq \(seq)"
                case .time(let time): asked = TimeFormat.point(time)
                }
                Output.error("note: the trace ends before \(asked); showing its end")
            }
            diagram = MermaidRenderer.flowchart(analyzer.state, findings: analyzer.findings)
        }
        Output.write(context.arguments.has("markdown") ? MermaidRenderer.markdown(diagram) : diagram)
        return ExitStatus.success
    }
}
