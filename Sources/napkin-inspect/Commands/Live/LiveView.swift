import NapkinTrace

/// What `live` draws: the full-screen frame on a terminal, and the final tree
/// and findings when the view closes (or without a terminal).
struct LiveView {
    /// Colours, or none.
    let style: Style
    /// How the source is named when the trace has no session record yet.
    let sourceName: String

    /// One screen: header, tree (cut to fit), findings, the command's output, help line.
    func frame(_ analyzer: TraceAnalyzer, events: Int, rate: Int, finished: Bool, childStatus: Int32?,
               pane: OutputPane?, diagnostic: TraceDiagnostic?) -> [String] {
        let (rows, columns) = TerminalInfo.size(1)
        let state = analyzer.state
        let findings = analyzer.findings
        var header = style.bold("napkin-inspect live") + "  " + (state.session?.heading ?? sourceName)
        header += "  t=" + TimeFormat.duration(state.time)
        header += "  \(NumberFormat.grouped(events)) events (\(NumberFormat.grouped(rate))/s)"
        header += "  routers \(state.routerCount)  tasks \(state.taskCount)"
        header += "  " + (findings.isEmpty ? style.green("no findings") : style.red("\(findings.count) finding\(findings.count == 1 ? "" : "s")"))
        var status: String
        if let childStatus {
            status = "command exited with status \(childStatus); press q to quit"
        } else if finished {
            status = "end of trace; press q to quit"
        } else {
            status = "q quit"
        }
        if let diagnostic { status += "  " + style.yellow("(\(diagnostic))") }

        let findingLines = findings.suffix(5).map { "  " + FindingLine.styled($0, style: style) }
        let outputLines = pane.map { Array($0.all.suffix(5)).map { "  " + style.dim($0) } } ?? []
        var fixed = 2 + 1 // header, rule, footer
        if !findingLines.isEmpty { fixed += findingLines.count + 1 }
        if !outputLines.isEmpty { fixed += outputLines.count + 1 }
        let room = max(3, rows - fixed)
        var tree = TreeRenderer(style: style, findings: findings).rows(state).map(\.text)
        if tree.count > room {
            let hidden = tree.count - (room - 1)
            tree = Array(tree.prefix(room - 1)) + [style.dim("… \(hidden) more lines (enlarge the terminal to see them)")]
        }
        var lines = [header, style.dim(String(repeating: "─", count: max(0, columns)))]
        lines += tree
        if !findingLines.isEmpty {
            lines.append(style.bold("Findings") + (findings.count > 5 ? style.dim(" (last 5 of \(findings.count))") : ""))
            lines += findingLines
        }
        if !outputLines.isEmpty {
            lines.append(style.bold("Output"))
            lines += outputLines
        }
        while lines.count < rows - 1 { lines.append("") }
        lines = Array(lines.prefix(rows - 1))
        lines.append(style.dim(status))
        return lines.map { $0.truncatedVisible(to: columns) }
    }

    /// The final tree and findings, on standard output.
    func printSummary(_ analyzer: TraceAnalyzer, eventCount: Int) {
        Output.line(TreeRenderer.title(analyzer.state, style: style) + style.dim(" (\(eventCount) events)"))
        for row in TreeRenderer(style: style, findings: analyzer.findings).rows(analyzer.state) { Output.line(row.text) }
        Output.line()
        if analyzer.findings.isEmpty {
            Output.line(style.green("No findings."))
        } else {
            Output.line(style.bold("Findings:"))
            FindingLine.print(analyzer.findings, style: style)
        }
    }
}
