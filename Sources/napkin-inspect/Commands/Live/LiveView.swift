import NapkinTrace

/// What `live` draws: the full-screen frame on a terminal, and the final tree
/// and findings when the view closes (or without a terminal).
///
/// A frame costs what fits on the screen: the tree is walked only for the
/// rows there is room for, and findings, output and status are cut to the
/// screen too. Every text from the trace, the source's name and the
/// command's output are made printable.
struct LiveView {
    /// Colours, or none.
    let style: Style
    /// How the source is named when the trace has no session record yet.
    let sourceName: String

    /// How many findings and output lines a frame shows at most.
    static let maxPaneLines = 5

    /// One screen of `rows` × `columns`: header, tree (cut to fit), findings,
    /// the command's output, status line.
    func frame(_ analyzer: TraceAnalyzer, events: Int, rate: Int, finished: Bool, childStatus: Int32?,
               pane: OutputPane?, diagnostic: TraceDiagnostic?, size: (rows: Int, columns: Int),
               sessions: (index: Int, count: Int) = (0, 1)) -> [String] {
        let (rows, columns) = (max(4, size.rows), max(10, size.columns))
        let state = analyzer.state
        let findings = analyzer.findings
        let found = findings.count + analyzer.findingsNotKept
        var header = style.bold("napkin-inspect live") + "  "
        if sessions.count > 1 { header += "[\(sessions.index + 1)/\(sessions.count)] " }
        header += state.session.map { PrintableText.printable($0.heading, limit: columns) } ?? PrintableText.printable(sourceName, limit: columns)
        header += "  t=" + TimeFormat.duration(state.time)
        header += "  \(NumberFormat.grouped(events)) events (\(NumberFormat.grouped(rate))/s)"
        header += "  routers \(NumberFormat.grouped(state.routerCount))  tasks \(NumberFormat.grouped(state.taskCount))"
        header += "  " + (found == 0 ? style.green("no findings") : style.red(CheckTextReport.plural(found, "finding")))
        var status: String
        if let childStatus {
            status = "command exited with status \(childStatus); press q to quit"
        } else if finished {
            status = "end of trace; press q to quit"
        } else {
            status = "q quit"
        }
        if sessions.count > 1 { status += "  Tab next process" }
        if let diagnostic { status += "  " + style.yellow("(\(PrintableText.printable(diagnostic.description, limit: columns)))") }

        let findingLines = FindingLine.lines(findings, style: style).suffix(Self.maxPaneLines).map { "  " + $0 }
        let outputLines = pane.map { $0.last(Self.maxPaneLines).map { "  " + style.dim(PrintableText.printable($0, limit: columns)) } } ?? []
        var fixed = 2 + 1 // header, rule, status
        if !findingLines.isEmpty { fixed += findingLines.count + 1 }
        if !outputLines.isEmpty { fixed += outputLines.count + 1 }
        let room = max(3, rows - fixed)
        let tree = TreeRenderer(style: style, findings: findings)
            .rows(state, limit: room, hint: "enlarge the terminal to see them").map(\.text)
        var lines = [header, style.dim(String(repeating: "\u{2500}", count: columns))]
        lines += tree
        if !findingLines.isEmpty {
            lines.append(style.bold("Findings") + (found > Self.maxPaneLines ? style.dim(" (the last lines, of \(NumberFormat.grouped(found)))") : ""))
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

    /// The frame before any traced process has connected.
    func waitingFrame(_ sourceName: String, childStatus: Int32?, pane: OutputPane?, size: (rows: Int, columns: Int)) -> [String] {
        let (rows, columns) = (max(4, size.rows), max(10, size.columns))
        var lines = [style.bold("napkin-inspect live") + "  " + PrintableText.printable(sourceName, limit: columns),
                     style.dim(String(repeating: "\u{2500}", count: columns)),
                     "waiting for a traced process to connect…"]
        if let pane {
            let output = pane.last(Self.maxPaneLines)
            if !output.isEmpty {
                lines.append(style.bold("Output"))
                lines += output.map { "  " + style.dim(PrintableText.printable($0, limit: columns)) }
            }
        }
        while lines.count < rows - 1 { lines.append("") }
        lines = Array(lines.prefix(rows - 1))
        lines.append(style.dim(childStatus.map { "command exited with status \($0); press q to quit" } ?? "q quit"))
        return lines.map { $0.truncatedVisible(to: columns) }
    }

    /// The final tree and findings, on standard output; first, what is wrong
    /// with the trace itself, if anything (then the findings cannot be trusted).
    func printSummary(_ analyzer: TraceAnalyzer, eventCount: Int, traceProblems: [TraceIntegrity.Problem] = []) {
        if !traceProblems.isEmpty {
            Output.line(style.red("The trace is damaged; its findings cannot be trusted (check exits 2 on it):"))
            for problem in traceProblems { Output.line("  trace problem: \(problem.kind.rawValue): " + PrintableText.printable(problem.description)) }
            Output.line()
        }
        Output.line(TreeRenderer.title(analyzer.state, style: style) + style.dim(" (\(NumberFormat.grouped(eventCount)) events)"))
        for row in TreeRenderer(style: style, findings: analyzer.findings).rows(analyzer.state) { Output.line(row.text) }
        Output.line()
        if analyzer.findings.isEmpty && analyzer.findingsNotKept == 0 {
            Output.line(style.green("No findings."))
        } else {
            Output.line(style.bold("Findings:"))
            FindingLine.print(analyzer.findings, notKept: analyzer.findingsNotKept, style: style)
        }
    }
}
