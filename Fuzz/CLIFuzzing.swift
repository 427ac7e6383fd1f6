// The CLI's part of the fuzz target: its renderers and its subcommands.
import Foundation
import NapkinTrace

enum CLIFuzzing {
    /// Every renderer on the model, in plain style, checked: no control
    /// character reaches the text, the output is bounded, the JSON parses.
    static func render(_ analyzer: TraceAnalyzer, _ history: TraceHistory, seed: Int) {
        let state = analyzer.state
        let findings = analyzer.findings
        var tree = TreeRenderer(style: .plain, findings: findings).rows(state, limit: 4 + seed % 40).map(\.text)
        tree.append(TreeRenderer.title(state, style: .plain))
        expectPrintable(tree, "tree rows")
        let filter = seed % 3 == 0 ? nil : NodeFilter(name: seed % 3 == 1 ? "R" : String(seed))
        expectPrintable(TimelineRenderer(style: .plain, width: 40 + seed, filter: filter).lines(history), "timeline lines")
        for diagram in [MermaidRenderer.flowchart(state, findings: findings), MermaidRenderer.gantt(history, filter: filter),
                        MermaidRenderer.sequence(history)] {
            if diagram.utf8.count >= 50_000 { fatalError("a Mermaid diagram of \(diagram.utf8.count) bytes") }
            expectPrintable(diagram.split(separator: "\n").map(String.init), "a Mermaid diagram")
        }
        expectPrintable(FindingLine.lines(findings, style: .plain), "finding lines")
        var overview = TraceOverview(unreadable: "fuzz \u{1B}[2J.ndjson")
        overview.session = state.session
        overview.events = seed
        let checked = CheckedTrace(overview: overview, undecided: analyzer.undecided, findings: findings, allowed: [],
                                   findingsNotKept: analyzer.findingsNotKept, traceProblems: seed % 5 == 0 ? ["problem \u{9B}"] : [])
        expectPrintable(CheckTextReport.render([checked], style: .plain).split(separator: "\n").map(String.init), "check text")
        expectPrintable(CheckGitHubReport.render([checked]).split(separator: "\n").map(String.init), "check github")
        expectPrintable(CheckJUnitReport.render([checked]).split(separator: "\n").map(String.init), "check junit")
        let json = CheckJSONReport.render([checked])
        guard (try? JSONSerialization.jsonObject(with: Data(json.utf8))) != nil else { fatalError("check json does not parse:\n\(json)") }
        expectPrintable(json.split(separator: "\n").map(String.init), "check json")
        let view = LiveView(style: .plain, sourceName: "fuzz")
        let size = (rows: 3 + seed % 30, columns: 10 + seed)
        let frame = view.frame(analyzer, events: seed, rate: seed, finished: seed % 2 == 0, childStatus: nil, pane: nil,
                               diagnostic: nil, size: size)
        if frame.count != max(4, size.rows) { fatalError("a live frame of \(frame.count) lines for \(size.rows) rows") }
        expectPrintable(frame, "live frame")
    }

    /// Every subcommand on the trace at `path`, through the program's entry
    /// point (standard output and error are discarded by `-close_fd_mask=3`).
    static func runCommands(on path: String, seed: Int) {
        let variants: [[String]] = [
            ["tree"], ["tree", "--at", String(seed)], ["tree", "--at", "\(seed)ms", "--format", "mermaid"],
            ["timeline", "--width", String(40 + seed)], ["timeline", "--node", seed % 2 == 0 ? "R" : String(seed)],
            ["timeline", "--format", "mermaid"],
            ["mermaid", "--view", "tree"], ["mermaid", "--view", "timeline"], ["mermaid", "--view", "sequence", "--markdown"],
            ["stats"], ["stats", "--format", "json"],
            ["check"], ["check", "--format", "json"], ["check", "--format", "junit"], ["check", "--format", "github", "--expect-teardown"],
        ]
        for arguments in variants {
            let status = NapkinInspect.main(arguments + [path])
            if !(0...2).contains(status) { fatalError("\(arguments) exited \(status)") }
        }
    }

    /// Stops the fuzzer if a line holds a character a terminal would act on.
    static func expectPrintable(_ lines: [String], _ what: String) {
        for line in lines where line.unicodeScalars.contains(where: PrintableText.needsEscape) {
            fatalError("\(what): a control character reached the text: \(line.debugDescription)")
        }
    }
}
