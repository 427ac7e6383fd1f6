import NapkinTrace

/// `napkin-inspect live [FILE|-]` and `live -- COMMAND`: the live tree.
struct LiveCommand: Command {
    /// The options only `live` has.
    enum Options {
        /// `--no-follow`.
        static let noFollow = Flag("no-follow", help: "Read FILE to its end and stop, instead of waiting for more.")
    }

    static let configuration = CommandConfiguration(options: [Options.noFollow] + CommonOptions.analysisOptions + CommonOptions.colorOptions, help: """
        live [FILE|-] [options]
        live [options] -- COMMAND [ARGS...]
        Show the live tree of a running app, redrawn in place like top.
        Reads a trace from FILE (following it as it grows, like tail -F), from standard input (- or no FILE),
        or runs COMMAND with tracing switched on (NAPKIN_TRACE=fd:3) and reads its trace through a pipe.
        On a terminal the tree is redrawn at most 20 times a second; press q or Ctrl-C to quit.
        Elsewhere (a pipe, a file, CI) it prints the final tree and findings when the input ends.
        With COMMAND, the exit status is the command's; otherwise 0 (2 for unusable input).
        $ napkin-inspect live -- .build/debug/rib-house --loop 3
        $ NAPKIN_TRACE=stdout ./MyServer | napkin-inspect live
        $ napkin-inspect live /tmp/app.ndjson
        """)

    /// The trace file, or `-` (standard input).
    var path: String
    /// `-- COMMAND`: the program to run and watch.
    var command: [String]?
    /// `--no-follow`: read FILE to its end, do not wait for more.
    var noFollow: Bool
    /// `--grace` and `--view-grace`, as the analysis takes them.
    var analysis: TraceAnalyzer.Options
    /// `--color`, `--no-color`.
    var style: Style

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        path = arguments.tracePath
        command = arguments.command
        noFollow = arguments.isSet(Options.noFollow)
        analysis = try arguments.analysisOptions()
        style = try arguments.style()
        if command != nil && !arguments.positionals.isEmpty {
            throw UsageError("give either a trace FILE or '-- COMMAND', not both")
        }
    }

    func run() throws -> Int32 {
        let onTerminal = TerminalInfo.isTerminal(1)
        let source: LiveSource
        if let command {
            source = try LiveSource.running(command, collectOutput: onTerminal)
        } else {
            // On a terminal a file is followed as it grows; elsewhere it is read to its end.
            source = try LiveSource.reading(path, follow: onTerminal && path != "-" && !noFollow)
        }
        let queue = LiveEventQueue()
        queue.startReading(source.reader)
        let view = LiveView(style: style, sourceName: source.name)
        let loop = LiveLoop(analysis: analysis, view: view, isLive: source.child != nil || !noFollow)
        var outcome = onTerminal ? loop.runOnTerminal(queue: queue, child: source.child, pane: source.pane) : loop.runToEnd(queue: queue)
        var status: Int32?
        if let child = source.child {
            // Off a terminal the input ends when the command closes its trace, as it exits:
            // wait for it (it may not be reapable yet), so that its own status is passed on.
            // On a terminal the user quit; an unusable trace stops a command that still runs.
            if onTerminal || outcome.rejection != nil, child.poll() == nil {
                child.stop()
                Output.error(outcome.rejection == nil ? "note: stopped '\(source.name)' because you quit" : "note: stopped '\(source.name)': its trace is unusable")
                status = outcome.rejection == nil ? ExitStatus.success : ExitStatus.unusable
            } else {
                status = child.wait()
            }
            // Its last events (the teardown) are still in the pipe.
            loop.drainRest(queue: queue, into: &outcome, reader: source.reader)
        }
        source.reader.stop()
        queue.cancel()
        if outcome.rejection == nil { outcome.analyzer.finish() }
        if let pane = source.pane {
            // The command's output was shown in the live view; show it again now that the screen is back.
            for line in pane.last(200) { Output.line(PrintableText.printable(line)) }
        }
        if let rejection = outcome.rejection {
            Output.error(rejection.description)
            return status ?? ExitStatus.unusable
        }
        let problems = queue.finalIntegrity?.including(outcome.analyzer.state).problems ?? []
        view.printSummary(outcome.analyzer, eventCount: outcome.events, traceProblems: problems)
        if let status, status != 0 { Output.error("note: '\(source.name)' exited with status \(status)") }
        return status ?? ExitStatus.success
    }
}
