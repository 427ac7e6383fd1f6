import Foundation
import NapkinTrace

/// `napkin-inspect check FILE|DIR...` and `check -- COMMAND`: findings, as a CI gate.
enum CheckCommand {
    static func run(_ context: CommandContext) throws -> Int32 {
        let grace = try context.grace()
        let expectTeardown = context.arguments.has("expect-teardown")
        var allowList = AllowList()
        if let path = context.arguments.value("allow") {
            guard let contents = try? String(contentsOfFile: path, encoding: .utf8) else {
                throw CommandFailure("cannot read the allow-list \(path) (check the path)")
            }
            allowList = try AllowList(path: path, contents: contents)
        }

        var commandStatus: Int32?
        var paths: [String]
        var temporaryDirectory: String?
        defer { if let temporaryDirectory { try? FileManager.default.removeItem(atPath: temporaryDirectory) } }
        if let command = context.arguments.command {
            guard context.arguments.positionals.isEmpty else {
                throw UsageError("give either trace files or '-- COMMAND', not both", command: "check")
            }
            let directory: String
            if let kept = context.arguments.value("trace-dir") {
                directory = try prepareTraceDirectory(kept)
            } else {
                directory = try makeTemporaryDirectory()
                temporaryDirectory = directory
            }
            let previous = signal(SIGINT, SIG_IGN)
            let child = try ChildProcess(command: command, environment: ["NAPKIN_TRACE": directory + "/"])
            let status = child.wait()
            signal(SIGINT, previous)
            commandStatus = status
            paths = traceFiles(in: directory)
            if paths.isEmpty {
                Output.error("'\(command.joined(separator: " "))' wrote no trace: it created no napkin router or interactor (is it linked with Napkin?)")
                return status != 0 ? status : ExitStatus.unusable
            }
        } else {
            guard !context.arguments.positionals.isEmpty else {
                throw UsageError("missing trace file: napkin-inspect check FILE (or: check -- COMMAND)", command: "check")
            }
            paths = []
            for path in context.arguments.positionals {
                var isDirectory: ObjCBool = false
                if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue {
                    let found = traceFiles(in: path)
                    if found.isEmpty { throw CommandFailure("\(path): a directory without .ndjson trace files") }
                    paths += found
                } else {
                    paths.append(path)
                }
            }
        }

        var checked: [CheckedTrace] = []
        var unusable = false
        for path in paths {
            do {
                var result = try analyze(path, grace: grace, expectTeardown: expectTeardown, allowList: &allowList)
                if temporaryDirectory != nil, let session = result.session {
                    // The file is about to be deleted: name the process instead.
                    result.path = "\(session.app) (pid \(session.pid))"
                }
                checked.append(result)
            } catch {
                Output.error(error.message)
                unusable = true
            }
        }

        switch context.arguments.value("format") ?? "text" {
        case "json": Output.write(FindingFormats.json(checked))
        case "junit": Output.write(FindingFormats.junit(checked))
        case "github":
            Output.write(FindingFormats.github(checked))
            let count = checked.reduce(0) { $0 + $1.findings.count }
            Output.error(count == 0 ? "no findings in \(checked.count) trace\(checked.count == 1 ? "" : "s")" : "\(count) finding\(count == 1 ? "" : "s")")
        default: Output.write(FindingFormats.text(checked, style: context.style))
        }
        for entry in allowList.unused {
            Output.error("note: allow-list line \(entry.line) (\(entry.rule) \(entry.type)) matched nothing; remove it if the issue is fixed")
        }

        if let commandStatus, commandStatus != 0 { return commandStatus }
        if unusable { return ExitStatus.unusable }
        let failOnErrorsOnly = context.arguments.value("fail-on") == "error"
        let failing = checked.flatMap(\.findings).contains { !failOnErrorsOnly || $0.severity == .error }
        return failing ? ExitStatus.findings : ExitStatus.success
    }

    static func analyze(_ path: String, grace: UInt64, expectTeardown: Bool, allowList: inout AllowList) throws(CommandFailure) -> CheckedTrace {
        var analyzer = TraceAnalyzer(options: .init(grace: grace, expectTeardown: expectTeardown))
        var session: SessionInfo?
        let summary = try TraceInput(path: path).read { event in
            if session == nil, case .sessionStart(let info) = event.kind { session = info }
            analyzer.consume(event)
            return true
        }
        analyzer.finish()
        var findings: [Finding] = []
        var allowed: [Finding] = []
        for finding in analyzer.findings {
            if allowList.allows(finding) { allowed.append(finding) } else { findings.append(finding) }
        }
        return CheckedTrace(path: path, session: session, events: summary.events, endedCleanly: analyzer.state.ended,
                            droppedEvents: analyzer.state.droppedEvents, undecided: analyzer.undecided,
                            endTime: analyzer.state.time, findings: findings, allowed: allowed,
                            diagnostics: summary.diagnostics)
    }

    /// The `.ndjson` files in `directory`, sorted by name.
    static func traceFiles(in directory: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(".ndjson") }.sorted().map { directory.hasSuffix("/") ? directory + $0 : directory + "/" + $0 }
    }

    private static func makeTemporaryDirectory() throws(CommandFailure) -> String {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].map { $0.hasSuffix("/") ? String($0.dropLast()) : $0 } ?? "/tmp"
        var template = Array("\(base)/napkin-check-XXXXXX".utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            throw CommandFailure("cannot create a temporary directory in \(base) (set TMPDIR to a writable directory)")
        }
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func prepareTraceDirectory(_ path: String) throws(CommandFailure) -> String {
        let directory = path.hasSuffix("/") ? String(path.dropLast()) : path
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: directory, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw CommandFailure("--trace-dir \(path): exists and is not a directory") }
            guard traceFiles(in: directory).isEmpty else {
                throw CommandFailure("--trace-dir \(path): already holds .ndjson traces; give an empty or new directory (nothing is overwritten)")
            }
        } else {
            do {
                try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            } catch {
                throw CommandFailure("--trace-dir \(path): cannot create it (\(error.localizedDescription))")
            }
        }
        return directory
    }
}
