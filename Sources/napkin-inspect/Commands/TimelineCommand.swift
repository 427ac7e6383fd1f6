import NapkinTrace

/// `napkin-inspect timeline FILE [--node NAME] [--width N] [--format text|mermaid]`:
/// each router's lifecycle over time.
enum TimelineCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let width = try context.arguments.value("width").map { text throws(UsageError) in try parseWidth(text) }
        let history = try readHistory(context.tracePath)
        let filter = try nodeFilter(context.arguments.value("node"), in: history)
        if context.arguments.value("format") == "mermaid" {
            Output.write(MermaidRenderer.gantt(history, filter: filter))
            return ExitStatus.success
        }
        let columns = width ?? (TerminalInfo.isTerminal(1) ? TerminalInfo.size(1).columns : 100)
        let renderer = TimelineRenderer(style: context.style, width: columns, filter: filter)
        Output.write(renderer.lines(history).map { $0 + "\n" }.joined())
        return ExitStatus.success
    }

    /// Folds the whole trace at `path` into a history.
    static func readHistory(_ path: String) throws(CommandFailure) -> TraceHistory {
        var history = TraceHistory()
        _ = try TraceInput(path: path).read { event in
            history.apply(event)
            return true
        }
        return history
    }

    /// The `--node NAME` filter, checked against the trace: a name nothing
    /// matches is an error that lists some of the router types there are.
    static func nodeFilter(_ name: String?, in history: TraceHistory) throws(CommandFailure) -> NodeFilter? {
        guard let name else { return nil }
        let filter = NodeFilter(name: name)
        if history.nodes.contains(where: filter.matches) { return filter }
        var types: [String] = []
        for life in history.nodes where life.kind == .router && !types.contains(life.type) { types.append(life.type) }
        let known: String
        if types.isEmpty {
            known = "the trace has no routers"
        } else {
            let shown = types.prefix(6).joined(separator: ", ")
            known = "router types in this trace: \(shown)\(types.count > 6 ? ", ... (\(types.count) in all)" : "")"
        }
        throw CommandFailure("--node '\(name)' matches no router or interactor (by type name or id); \(known)")
    }

    /// `--width N`: at least 40 columns.
    static func parseWidth(_ text: String) throws(UsageError) -> Int {
        guard let value = Int(text), value >= 40, value <= 10_000 else {
            throw UsageError("'--width' needs a number of columns from 40 to 10000; got '\(text)'", command: "timeline")
        }
        return value
    }
}
