import NapkinTrace

/// Where `live` reads its trace from: a program it runs (its trace through a
/// pipe), a file, or standard input.
struct LiveSource {
    /// Reads the trace.
    let reader: TraceReader
    /// How the header and notes name the source: the command line, the file, or `standard input`.
    let name: String
    /// The program, with `-- COMMAND`.
    let child: ChildProcess?
    /// The program's output, when the live view shows it (on a terminal).
    let pane: OutputPane?

    /// Runs `command` with `NAPKIN_TRACE=fd:3`, fd 3 being a pipe to us; with
    /// `collectOutput`, its standard output and error go to a pane instead of ours.
    static func running(_ command: [String], collectOutput: Bool) throws(CommandFailure) -> LiveSource {
        guard let trace = PipeEnds() else { throw CommandFailure("cannot create a pipe for the trace") }
        let output = collectOutput ? PipeEnds() : nil
        let child: ChildProcess
        do {
            child = try ChildProcess(command: command, environment: ["NAPKIN_TRACE": "fd:3"],
                                     traceFD: trace.writeEnd, outputFD: output?.writeEnd)
        } catch {
            trace.closeBoth()
            output?.closeBoth()
            throw error
        }
        // Only the child writes: its exit closes the pipes, which ends our input.
        close(trace.writeEnd)
        var pane: OutputPane?
        if let output {
            close(output.writeEnd)
            let collector = OutputPane()
            collector.startReading(output.readEnd)
            pane = collector
        }
        return LiveSource(reader: TraceReader(fileDescriptor: trace.readEnd, source: command[0],
                                                      // Only the trace is written to this pipe.
                                                      options: .init(maxLeadingForeignLines: 0)),
                          name: command.joined(separator: " "), child: child, pane: pane)
    }

    /// Reads the trace at `path` (`-`: standard input), following it as it grows when `follow` is set.
    static func reading(_ path: String, follow: Bool) throws(CommandFailure) -> LiveSource {
        LiveSource(reader: try TraceInput.openReader(path, follow: follow),
                   name: path == "-" ? "standard input" : path, child: nil, pane: nil)
    }
}
