import NapkinTrace

/// `napkin-inspect tree FILE [--at SEQ|TIME]`: the tree at the end or at any moment.
enum TreeCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let moment = try context.arguments.value("at").map { text throws(UsageError) in try ValueParsing.moment(text, option: "at") }
        let (analyzer, reachedEnd) = try fold(context.tracePath, until: moment, grace: context.grace())
        if context.arguments.value("format") == "mermaid" {
            Output.write(MermaidRenderer.flowchart(analyzer.state, findings: analyzer.findings))
            return ExitStatus.success
        }
        let style = context.style
        Output.line(TreeRenderer.title(analyzer.state, style: style))
        if let moment, reachedEnd {
            let asked: String
            switch moment {
            case .seq(let seq): asked = "seq \(seq)"
            case .time(let time): asked = TimeFormat.point(time)
            }
            Output.error("note: the trace ends before \(asked); showing its end")
        }
        for row in TreeRenderer(style: style, findings: analyzer.findings).rows(analyzer.state) {
            Output.line(row.text)
        }
        if !analyzer.findings.isEmpty {
            Output.line()
            Output.line(style.bold("Findings so far:"))
            for finding in analyzer.findings { Output.line("  " + FindingFormats.styled(finding, style: style)) }
        }
        return ExitStatus.success
    }

    /// Folds the trace up to `moment` (or to its end, finishing the analysis).
    /// Returns the analyzer and whether the end of the trace was reached.
    static func fold(_ path: String, until moment: ValueParsing.Moment?, grace: UInt64) throws(CommandFailure) -> (TraceAnalyzer, Bool) {
        var analyzer = TraceAnalyzer(options: .init(grace: grace))
        var stoppedEarly = false
        _ = try TraceInput(path: path).read { event in
            if let moment {
                switch moment {
                case .seq(let seq) where event.seq > seq:
                    stoppedEarly = true
                    return false
                case .time(let time) where event.time > time:
                    analyzer.advance(to: time)
                    stoppedEarly = true
                    return false
                default: break
                }
            }
            analyzer.consume(event)
            return true
        }
        if !stoppedEarly && moment == nil { analyzer.finish() }
        return (analyzer, !stoppedEarly)
    }
}
