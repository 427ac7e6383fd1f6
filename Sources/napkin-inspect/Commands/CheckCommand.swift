import Foundation
import NapkinTrace

/// `napkin-inspect check FILE|DIR...` and `check -- COMMAND`: findings, as a CI gate.
struct CheckCommand: Command {
    /// The options only `check` has.
    enum Options {
        /// `--expect-teardown`.
        static let expectTeardown = Flag(
            "expect-teardown", help: "Report everything still alive at the end of the trace (for runs that tear down).")
        /// `--allow FILE`.
        static let allow = ValueOption.text(
            "allow", valueName: "FILE", help: "Allow-list of known findings to ignore (see docs/findings.md).")
        /// `--fail-on LEVEL`.
        static let failOn = ValueOption<FailureLevel>.choice(
            "fail-on", valueName: "LEVEL", help: "Exit 1 on any finding (warning, the default) or only on errors (error).")
        /// `--trace-dir DIR`.
        static let traceDir = ValueOption.text(
            "trace-dir", valueName: "DIR", help: "With COMMAND: write its traces into DIR (kept) instead of a temporary directory.")
        /// `--source-root DIR`.
        static let sourceRoot = ValueOption.text(
            "source-root", valueName: "DIR",
            help: "Where to find the source files findings point at (default: the current directory); paths are shown relative to it.")
    }

    static let configuration = CommandConfiguration(
        options: CommonOptions.analysisOptions + [Options.expectTeardown, Options.allow, Options.failOn, Options.traceDir, Options.sourceRoot]
            + Presentation<Format>.options, help: """
        check FILE|DIR... [options]
        check [options] -- COMMAND [ARGS...]
        Find lifecycle bugs; exit 1 when there are any (a CI gate).
        Analyses each trace (a DIR means every .ndjson file in it) and prints the findings.
        With COMMAND (e.g. -- swift test), runs it with NAPKIN_TRACE pointing at a directory, so that
        every process it starts writes its own trace, then checks them all.
        Exit status: 0 no findings, 1 findings, 2 usage error or unusable input;
        with COMMAND, a command that fails passes its own exit status on.
        $ napkin-inspect check Examples/traces/bug-retain-cycle.ndjson
        $ napkin-inspect check --expect-teardown -- swift test
        $ napkin-inspect check run.ndjson --format junit > napkin-report.xml
        """)

    /// The trace files and directories given.
    var paths: [String]
    /// `-- COMMAND`: the program to run and check.
    var command: [String]?
    /// `--grace`, `--view-grace` and `--expect-teardown`, as the analysis takes them.
    var analysis: TraceAnalyzer.Options
    /// `--allow`: the allow-list file.
    var allowPath: String?
    /// `--fail-on`.
    var failOn: FailureLevel
    /// `--trace-dir`: where the traces of COMMAND are kept.
    var traceDirectory: String?
    /// `--format`, `--color`.
    var output: Presentation<Format>
    /// `--source-root`: where the code locations of findings are looked up.
    var sourceRoot: String

    init(parsing arguments: ParsedArguments) throws(UsageError) {
        paths = arguments.positionals
        command = arguments.command
        analysis = try arguments.analysisOptions(expectTeardown: arguments.isSet(Options.expectTeardown))
        allowPath = try arguments.value(Options.allow)
        failOn = try arguments.choice(Options.failOn)
        traceDirectory = try arguments.value(Options.traceDir)
        output = try Presentation(arguments)
        sourceRoot = try arguments.value(Options.sourceRoot) ?? "."
    }

    func run() throws -> Int32 {
        var allowList = try AllowList.load(allowPath)
        var commandStatus: Int32?
        let files: [String]
        var temporaryDirectory: String?
        defer { if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) } }
        if let command {
            guard paths.isEmpty else { throw UsageError("give either trace files or '-- COMMAND', not both") }
            let directory: String
            if let traceDirectory {
                directory = try TraceFiles.prepareKeptDirectory(traceDirectory)
            } else {
                directory = try TraceFiles.makeTemporaryDirectory()
                temporaryDirectory = directory
            }
            let status = try ChildProcess.run(command, environment: ["NAPKIN_TRACE": directory + "/"])
            commandStatus = status
            files = TraceFiles.find(in: directory)
            if files.isEmpty {
                Output.error("'\(command.joined(separator: " "))' wrote no trace: it created no napkin router or interactor (is it linked with Napkin?)")
                return status != 0 ? status : ExitStatus.unusable
            }
        } else {
            files = try TraceFiles.expand(paths)
        }

        var checked: [CheckedTrace] = []
        for file in files {
            do {
                var result = try CheckedTrace(checking: file, options: analysis, allowList: &allowList)
                // A temporary file is about to be deleted: name the process instead.
                if temporaryDirectory != nil, let session = result.overview.session { result.path = session.heading }
                checked.append(result)
            } catch {
                // One line on standard error, and the report says it too (a JSON reader must not see a clean run).
                Output.error(error.message)
                checked.append(CheckedTrace(unreadable: file, problem: error.message))
            }
        }

        let status = exitStatus(checked, commandStatus: commandStatus)
        let sources = SourceRoot(directory: sourceRoot)
        output.format.write(checked, style: output.style, sources: sources, exitStatus: status)
        if let note = sources.unresolvedNote { Output.error(note) }
        for entry in allowList.unused {
            Output.error("note: allow-list line \(entry.line) (\(entry.rule) \(entry.type)) matched nothing; remove it if the issue is fixed")
        }
        return status
    }

    /// The exit status for `checked`: a failing COMMAND's own, else 2 for a
    /// trace problem, 1 for a finding `--fail-on` counts, 0.
    private func exitStatus(_ checked: [CheckedTrace], commandStatus: Int32?) -> Int32 {
        if let commandStatus, commandStatus != 0 { return commandStatus }
        // A trace that cannot be read or trusted is unusable input, whatever its findings.
        if checked.contains(where: { !$0.traceProblems.isEmpty }) { return ExitStatus.unusable }
        let failing = checked.flatMap(\.findings).contains(where: failOn.fails)
        return failing ? ExitStatus.findings : ExitStatus.success
    }
}
