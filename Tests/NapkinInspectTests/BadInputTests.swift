import Foundation
import Testing
import TestSupport

/// Unusable input for every command that reads a trace: exit status 2 and one
/// clear line on stderr. Damaged but usable traces (a cut-short last line, a
/// malformed line in the middle) are read, with a diagnostic on stderr.
@Suite("napkin-inspect: bad input")
struct BadInputTests {
    static let commands = ["tree", "check", "stats", "timeline", "mermaid", "live"]

    enum BadInput: String, CaseIterable, Sendable {
        case missingFile, directory, emptyFile, notATrace, binaryGarbage
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var command: String
        var input: BadInput
        var testDescription: String { "\(command) \(input.rawValue)" }
    }

    static let cases: [Case] = commands.flatMap { command in BadInput.allCases.map { Case(command: command, input: $0) } }

    /// 4 KiB of fixed pseudo-random bytes, some of them newlines.
    static let garbage: [UInt8] = {
        var state: UInt32 = 0x9E37_79B9
        return (0..<4096).map { _ in
            state = state &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: state >> 24)
        }
    }()

    @Test("unusable input: exit 2, one line on stderr naming the file and the problem", arguments: cases)
    func unusable(_ test: Case) async throws {
        let scratch = try ScratchDirectory("bad-input")
        let path: String
        let mentions: [String]
        switch test.input {
        case .missingFile:
            path = scratch.file("missing.ndjson")
            mentions = ["cannot open: no such file", "check the path"]
        case .directory:
            path = scratch.path
            mentions = test.command == "check"
                ? ["a directory without .ndjson trace files"]
                : ["is a directory, not a trace file", "give the .ndjson file inside it"]
        case .emptyFile:
            path = try scratch.write("empty.ndjson", "")
            mentions = ["no trace records", "NAPKIN_TRACE"]
        case .notATrace:
            path = "README.md"
            mentions = ["not a napkin trace", "line 1", "expected NDJSON written with NAPKIN_TRACE"]
        case .binaryGarbage:
            path = try scratch.write("garbage.bin", bytes: Self.garbage)
            mentions = ["not a napkin trace", "expected NDJSON"]
        }
        let result = try await CLIHarness.inspect([test.command, path])
        // check's report names the unusable trace too (a directory without traces is a usage problem, before any
        // report; a file that does not exist is that and nothing else, as for tree).
        let reported = test.command == "check" && test.input != .directory && test.input != .missingFile
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: !reported)
        if reported { #expect(result.stdout.contains("\(path): 1 trace problem\n  trace problem: unusable: "), "\(result)") }
        #expect(line.hasPrefix("napkin-inspect: \(path)"), "\(line)")
        for fragment in mentions {
            #expect(line.contains(fragment), "stderr line lacks '\(fragment)': \(line)")
        }
    }

    @Test("live and check read a non-trace on stdin: exit 2, one line", arguments: ["live", "check"])
    func notATraceOnStdin(_ command: String) async throws {
        let readme = try String.repoFile("README.md")
        let result = try await CLIHarness.inspect([command, "-"], stdin: .data(Data(readme.utf8)))
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: command != "check")
        #expect(line.contains("not a napkin trace"))
    }

    // MARK: - Damaged but usable

    /// `clean.ndjson` cut in the middle of its last line (the `end` record).
    static func truncatedTrace(in scratch: ScratchDirectory) throws -> (path: String, lines: Int) {
        let text = try String.repoFile(CLIHarness.exampleTrace("clean"))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        let last = lines.removeLast()
        let cut = lines.joined(separator: "\n") + "\n" + last.prefix(last.count / 2)
        return (try scratch.write("truncated.ndjson", cut), lines.count + 1)
    }

    /// `clean.ndjson` with a malformed line inserted as line 10.
    static func malformedTrace(in scratch: ScratchDirectory) throws -> String {
        let text = try String.repoFile(CLIHarness.exampleTrace("clean"))
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines.insert("{\"seq\":9999,\"t\":oops}", at: 9)
        return try scratch.write("malformed.ndjson", lines.joined(separator: "\n"))
    }

    @Test("a trace cut short mid-line is read; a warning names its last line", arguments: commands)
    func truncated(_ command: String) async throws {
        let scratch = try ScratchDirectory("truncated")
        let (path, lineCount) = try Self.truncatedTrace(in: scratch)
        let result = try await CLIHarness.inspect([command, path])
        let warning = try result.expectOneStderrLine(status: 0, emptyStdout: false)
        #expect(warning.hasPrefix("napkin-inspect: \(path): warning: line \(lineCount): "), "\(warning)")
        #expect(warning.contains("the last line is cut short"))
        #expect(!result.stdout.isEmpty)
        switch command {
        case "check":
            #expect(result.stdout.contains("\(path): no findings (191 events)"), "\(result)")
            #expect(result.stdout.contains("note: the trace has no end record"))
        case "stats":
            #expect(result.stdout.contains("191 events"))
            #expect(result.stdout.contains("Complete     no: no end record"))
            #expect(result.stdout.contains("the last line is cut short"))
        case "tree", "live":
            #expect(result.stdout.contains("rib-house (pid 3447) at t="), "\(result)")
            #expect(result.stdout.contains("(after seq 191)"))
        default:
            break
        }
    }

    @Test("a malformed line in the middle is skipped with its line number", arguments: commands)
    func malformedLine(_ command: String) async throws {
        let scratch = try ScratchDirectory("malformed")
        let path = try Self.malformedTrace(in: scratch)
        let result = try await CLIHarness.inspect([command, path])
        // The damaged record is skipped with an error; the trace is then damaged, which every
        // command says in one more line, and `check` refuses to give a verdict on (exit 2).
        #expect(result.status == (command == "check" ? 2 : 0), "\(result)")
        #expect(!result.stdout.isEmpty)
        // (live says so in its summary, on standard output.)
        #expect(result.stderrLines.count == (command == "live" ? 1 : 2), "\(result)")
        let error = try #require(result.stderrLines.first)
        #expect(error.hasPrefix("napkin-inspect: \(path): error: line 10: "), "\(error)")
        #expect(error.contains("line skipped"))
        if command == "live" {
            #expect(result.stdout.contains("trace problem: damaged-records"), "\(result)")
        } else {
            #expect(result.stderrLines.last?.contains("the trace is damaged (damaged-records)") == true, "\(result)")
        }
        switch command {
        case "check":
            #expect(result.stdout.contains("trace problem: damaged-records: lines that look like records are damaged"), "\(result)")
        case "stats":
            #expect(result.stdout.contains("192 events"))
            #expect(result.stdout.contains("Reader       1 invalid lines"), "\(result)")
            #expect(result.stdout.contains("Complete     yes"))
        case "tree", "live":
            #expect(result.stdout.contains("(after seq 192)"), "\(result)")
        default:
            break
        }
    }
}
