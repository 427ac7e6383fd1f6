import NapkinTrace
import NapkinTraceReader

/// What `live` draws: the full-screen frame on a terminal, and the final tree
/// and findings when the view closes (or without a terminal).
///
/// A frame costs what fits on the screen: the tree is walked only down to
/// the rows on screen (those above are skipped without being drawn), and
/// findings, output, details and status are cut to the screen too. Every
/// text from the trace, the source's name and the command's output are made
/// printable.
struct LiveView {
    /// Colours, or none.
    let style: Style
    /// How the source is named when the trace has no session record yet.
    let sourceName: String

    /// How many findings and output lines a frame shows at most.
    static let maxPaneLines = 5

    /// One screen of `rows` × `columns`, live, nothing selected by a key:
    /// header, tree (cut to fit), findings, the command's output, status line.
    func frame(_ analyzer: TraceAnalyzer, events: Int, rate: Int, finished: Bool, childStatus: Int32?,
               pane: OutputPane?, diagnostic: TraceDiagnostic?, size: (rows: Int, columns: Int),
               sessions: (index: Int, count: Int) = (0, 1)) -> [String] {
        var facts = LiveFrame(analyzer: analyzer)
        facts.events = events
        facts.rate = rate
        facts.finished = finished
        facts.childStatus = childStatus
        facts.pane = pane
        facts.diagnostic = diagnostic
        facts.size = size
        facts.newestTime = analyzer.state.time
        facts.sessionIndex = sessions.index
        if sessions.count > 1 {
            facts.sessions = (0..<sessions.count).map { _ in SessionTabBar.Item(name: sourceName, ended: finished, findings: 0) }
        }
        var inspector = InspectorState()
        return frame(facts, inspector: &inspector)
    }

    /// One screen of the inspector: header, session bar (with two sessions
    /// or more), a rule (saying where the tree window is when the tree does
    /// not fit), then the help, the details of a node, or the tree with the
    /// findings and the command's output, and the status line. Settles the
    /// inspector's selection and scroll (``TreeWindow``).
    func frame(_ facts: LiveFrame, inspector: inout InspectorState) -> [String] {
        let (rows, columns) = (max(4, facts.size.rows), max(10, facts.size.columns))
        var lines = [header(facts, inspector: inspector, columns: columns)]
        if facts.sessions.count > 1 {
            lines.append(SessionTabBar.line(facts.sessions, current: facts.sessionIndex, style: style, columns: columns))
        }
        let status = statusLine(facts, inspector: inspector, columns: columns)
        let ruleRow = lines.count
        lines.append(rule(nil, columns: columns))
        let room = max(1, rows - lines.count - 1)

        if inspector.detailsRequested && inspector.details == nil && !inspector.showingHelp {
            // Settle the selection on this frame's tree first: keys of the same batch may have moved it.
            _ = TreeWindow.make(facts.analyzer, style: style, matches: facts.matches, room: room, inspector: &inspector)
            inspector.openRequestedDetails()
        }
        if inspector.showingHelp {
            lines += InspectorKeys.helpLines(style: style)
        } else if let pin = inspector.details {
            let details = NodeDetails(style: style, width: columns).lines(pin, analyzer: facts.analyzer, log: facts.log,
                                                                      population: facts.population)
            let top = min(inspector.detailsScroll, max(0, details.count - room))
            inspector.detailsScroll = top
            lines += details.dropFirst(top).prefix(room)
            if details.count > room {
                let last = min(details.count, top + room)
                lines[ruleRow] = rule("lines \(top + 1)\u{2013}\(last) of \(details.count)", columns: columns)
            }
        } else {
            let (body, position) = self.body(facts, inspector: &inspector, room: room, columns: columns)
            lines += body
            if let position { lines[ruleRow] = rule(position, columns: columns) }
        }
        while lines.count < rows - 1 { lines.append("") }
        lines = Array(lines.prefix(rows - 1))
        lines.append(status)
        return lines.map { $0.truncatedVisible(to: columns) }
    }

    /// The tree window, then the findings and the output panes; and where
    /// the window is in the tree, when it does not fit.
    private func body(_ facts: LiveFrame, inspector: inout InspectorState, room: Int, columns: Int) -> ([String], String?) {
        let findings = facts.analyzer.findings
        let found = findings.count + facts.analyzer.findingsNotKept
        var findingLines = FindingLine.lines(findings, style: style).suffix(Self.maxPaneLines).map { "  " + $0 }
        let provisional = facts.analyzer.provisionalFindings
        if !provisional.isEmpty {
            // Judged on the rounds so far, as check would if the trace ended now; the end confirms or withdraws them.
            let heading = "  " + style.yellow("provisional") + style.dim(" (judged on the rounds so far; confirmed or withdrawn when the session ends)")
            findingLines += ([heading] + FindingLine.lines(provisional, style: style).map { "    " + $0 }).prefix(Self.maxPaneLines)
        }
        let outputLines = facts.pane.map { $0.last(Self.maxPaneLines).map { "  " + style.dim(PrintableText.printable($0, limit: columns)) } } ?? []
        var fixed = 0
        if !findingLines.isEmpty { fixed += findingLines.count + 1 }
        if !outputLines.isEmpty { fixed += outputLines.count + 1 }
        let window = TreeWindow.make(facts.analyzer, style: style, matches: facts.matches, room: max(3, room - fixed), inspector: &inspector)
        var lines = window.lines
        if !findingLines.isEmpty {
            let title = inspector.isPaused ? "Findings at this moment" : "Findings"
            lines.append(style.bold(title) + (found > Self.maxPaneLines ? style.dim(" (the last lines, of \(NumberFormat.grouped(found)))") : ""))
            lines += findingLines
        }
        if !outputLines.isEmpty {
            lines.append(style.bold("Output"))
            lines += outputLines
        }
        return (lines, window.position)
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
