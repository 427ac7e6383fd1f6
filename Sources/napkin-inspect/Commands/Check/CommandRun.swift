/// One run of `check -- COMMAND`: the command, run with `NAPKIN_TRACE`
/// pointing at a directory (so that every process it starts writes its own
/// trace there; also under the prefixes xcodebuild and simctl forward, see
/// ``TraceEnvironment``), and the traces it wrote, checked.
struct CommandRun {
    /// The command's exit status (128 + the signal that killed it).
    var status: Int32
    /// Its traces, checked; empty when it wrote none.
    var traces: [CheckedTrace]

    /// Runs `command` to its end with its traces written into `directory`,
    /// then checks them with `checker`; with `temporary`, the traces are named
    /// after their processes (their files are about to be deleted). With
    /// `stdoutToStderr`, the command's standard output goes to standard
    /// error: ours carries a report in a format another program parses.
    /// With `report`, the traces are handed to it too, before their directory can go.
    init(_ command: [String], tracingInto directory: String, temporary: Bool, stdoutToStderr: Bool,
         checker: inout TraceChecker, report: CheckReportCollector?) throws(CommandFailure) {
        status = try ChildProcess.run(command, environment: TraceEnvironment.variables(tracingTo: TraceFiles.absolute(directory) + "/"), stdoutToStderr: stdoutToStderr)
        let files = TraceFiles.find(in: directory)
        traces = checker.check(files, namingProcesses: temporary)
        if !traces.isEmpty { report?.take(files: files, checked: traces) }
    }

    /// Why a command that wrote no trace cannot be checked.
    static func noTraceMessage(_ command: [String]) -> String {
        "'\(command.joined(separator: " "))' wrote no trace: it created no napkin router or interactor (is it linked with Napkin?)"
    }
}
