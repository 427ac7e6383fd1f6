import Foundation
import Testing
@testable import napkin_inspect

/// `--version`, `--help`, `help CMD`, every subcommand's `--help`, and the
/// usage errors: exit status 2 and one line on stderr naming the problem and the fix.
@Suite("napkin-inspect: help, version and usage errors")
struct CLIHelpAndUsageTests {
    static let commands = ["live", "tree", "timeline", "check", "diff", "mermaid", "stats", "report", "export"]
    static let trace = CLIHarness.fixture("not-deallocated")

    @Test("--version prints the version and the trace format")
    func version() async throws {
        for word in ["--version", "version"] {
            let result = try await CLIHarness.inspect([word])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout == "napkin-inspect \(NapkinInspect.version) (trace format v1)\n")
            #expect(result.stderr.isEmpty)
        }
    }

    @Test("--help lists every command, with the exit statuses")
    func overview() async throws {
        for word in ["--help", "-h", "help"] {
            let result = try await CLIHarness.inspect([word])
            #expect(result.status == 0, "\(result)")
            #expect(result.stderr.isEmpty)
            #expect(result.stdout.contains("Usage: napkin-inspect <command> [options]"))
            for command in Self.commands {
                #expect(result.stdout.contains("\n  \(command) "), "overview lacks \(command)")
            }
            #expect(result.stdout.contains("--version"))
            #expect(result.stdout.contains("Exit status: 0"))
        }
    }

    @Test("without arguments: the overview, exit status 2")
    func noArguments() async throws {
        let result = try await CLIHarness.inspect([])
        #expect(result.status == 2, "\(result)")
        #expect((result.stdout + result.stderr).contains("Usage: napkin-inspect <command>"))
    }

    @Test("CMD --help: summary, usage, every option, examples", arguments: commands)
    func commandHelp(_ command: String) async throws {
        let spec = try #require(CommandRegistry.named(command)).configuration
        let result = try await CLIHarness.inspect([command, "--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        let help = result.stdout
        #expect(help.hasPrefix(spec.summary + "\n"))
        #expect(help.contains("\nUsage:\n  napkin-inspect \(command) "))
        #expect(help.contains("\nOptions:\n"))
        for option in spec.options {
            #expect(help.contains("--\(option.name)"), "--\(option.name) is not in \(command) --help")
            if let value = option.valueName { #expect(help.contains("--\(option.name) \(value)")) }
        }
        #expect(help.contains("-h, --help"))
        let examples = try #require(help.range(of: "\nExamples:\n"), "\(command) --help has no examples")
        let exampleLines = help[examples.upperBound...].split(separator: "\n")
        #expect(!exampleLines.isEmpty)
        for line in exampleLines {
            #expect(line.hasPrefix("  "), "example not indented: \(line)")
            #expect(line.contains("napkin-inspect \(command)"), "example does not run \(command): \(line)")
        }
    }

    @Test("help CMD, CMD -h and CMD --help print the same text", arguments: commands)
    func helpForms(_ command: String) async throws {
        let long = try await CLIHarness.inspect([command, "--help"])
        let short = try await CLIHarness.inspect([command, "-h"])
        let word = try await CLIHarness.inspect(["help", command])
        #expect(short.status == 0 && word.status == 0)
        #expect(short.stdout == long.stdout)
        #expect(word.stdout == long.stdout)
        // --help wins over everything else on the line, even a missing trace.
        let withOthers = try await CLIHarness.inspect([command, "/no/such/file.ndjson", "--help"])
        #expect(withOthers.status == 0, "\(withOthers)")
        #expect(withOthers.stdout == long.stdout)
    }

    struct UsageCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// Every fragment must appear in the one stderr line.
        var mentions: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["frobnicate"], mentions: ["unknown command 'frobnicate'", "live, tree, timeline, check, diff, mermaid, stats, report, export", "napkin-inspect --help"]),
        UsageCase(arguments: ["help", "frobnicate"], mentions: ["'frobnicate'", "not a command", "napkin-inspect --help"]),
        UsageCase(arguments: ["tree", trace, "--depth", "3"], mentions: ["unknown option '--depth'", "'tree'", "napkin-inspect tree --help"]),
        UsageCase(arguments: ["check", trace, "-x"], mentions: ["unknown option '-x'", "napkin-inspect check --help"]),
        UsageCase(arguments: ["stats", trace, "--no-color=yes"], mentions: ["'--no-color' takes no value"]),
        UsageCase(arguments: ["tree", trace, "--at"], mentions: ["'--at' needs a value", "--at SEQ|TIME"]),
        UsageCase(arguments: ["check", trace, "--format"], mentions: ["'--format' needs a value", "--format FORMAT"]),
        UsageCase(arguments: ["check", trace, "--grace", "--", "true"], mentions: ["'--grace' needs a value", "--grace DURATION"]),
        UsageCase(arguments: ["check", trace, "--format", "xml"], mentions: ["'--format' must be one of text, json, junit, github", "got 'xml'"]),
        UsageCase(arguments: ["check", trace, "--fail-on", "info"], mentions: ["'--fail-on' must be one of warning, error", "got 'info'"]),
        UsageCase(arguments: ["tree", trace, "--at", "soon"], mentions: ["'--at' needs a sequence number (e.g. 120) or a time", "1.5s", "got 'soon'"]),
        UsageCase(arguments: ["tree", trace, "--at", "-3"], mentions: ["'--at' needs a sequence number", "got '-3'"]),
        UsageCase(arguments: ["tree", trace, "--at=1.5"], mentions: ["'--at' needs a sequence number", "got '1.5'"]),
        UsageCase(arguments: ["tree", trace, "--at", "12xs"], mentions: ["'--at' needs", "got '12xs'"]),
        UsageCase(arguments: ["check", trace, "--grace", "forever"], mentions: ["'--grace' needs a duration like 500ms, 1s or 1.5s", "got 'forever'"]),
        UsageCase(arguments: ["check", trace, "--grace=-1s"], mentions: ["'--grace' needs a duration", "got '-1s'"]),
        UsageCase(arguments: ["tree", trace, "--grace", "1 s"], mentions: ["'--grace' needs a duration", "got '1 s'"]),
        UsageCase(arguments: ["live", trace, "--grace", "fast"], mentions: ["'--grace' needs a duration", "got 'fast'"]),
        UsageCase(arguments: ["check", trace, "--view-grace", "soon"], mentions: ["'--view-grace' needs a duration like 500ms, 1s or 1.5s", "got 'soon'"]),
        UsageCase(arguments: ["tree", trace, "--view-grace=-2s"], mentions: ["'--view-grace' needs a duration", "got '-2s'"]),
        UsageCase(arguments: ["live", trace, "--view-grace", "5 s"], mentions: ["'--view-grace' needs a duration", "got '5 s'"]),
        UsageCase(arguments: ["mermaid", trace, "--view-grace", "later"], mentions: ["'--view-grace' needs a duration", "got 'later'"]),
        UsageCase(arguments: ["check", trace, "--view-grace"], mentions: ["'--view-grace' needs a value", "--view-grace DURATION"]),
        UsageCase(arguments: ["timeline", trace, "--view-grace", "2s"], mentions: ["unknown option '--view-grace'", "'timeline'"]),
        UsageCase(arguments: ["tree", trace, "--", "ls"], mentions: ["'tree' does not run a command", "remove '--'"]),
        UsageCase(arguments: ["stats", trace, "--", "ls"], mentions: ["'stats' does not run a command", "remove '--'"]),
        UsageCase(arguments: ["timeline", trace, "--", "ls"], mentions: ["'timeline' does not run a command", "remove '--'"]),
        UsageCase(arguments: ["mermaid", trace, "--", "ls"], mentions: ["'mermaid' does not run a command", "remove '--'"]),
        UsageCase(arguments: ["check", "--"], mentions: ["'--' must be followed by a command to run", "-- swift test"]),
        UsageCase(arguments: ["live", "--"], mentions: ["'--' must be followed by a command to run"]),
        UsageCase(arguments: ["check", trace, "--", "true"], mentions: ["give either trace files or '-- COMMAND', not both"]),
        UsageCase(arguments: ["live", trace, "--", "true"], mentions: ["give either a trace FILE or '-- COMMAND', not both"]),
        UsageCase(arguments: ["tree"], mentions: ["missing trace file", "napkin-inspect tree FILE"]),
        UsageCase(arguments: ["stats"], mentions: ["missing trace file", "napkin-inspect stats FILE"]),
        UsageCase(arguments: ["check"], mentions: ["missing trace file", "napkin-inspect check FILE|DIR...", "(or: napkin-inspect check [options] -- COMMAND [ARGS...])"]),
        UsageCase(arguments: ["tree", trace, "other.ndjson"], mentions: ["unexpected argument 'other.ndjson'", "napkin-inspect tree --help"]),
        UsageCase(arguments: ["check", "--", "/no/such/program-napkin"], mentions: ["cannot run '/no/such/program-napkin'", "command not found"]),
        UsageCase(arguments: ["check", "--repeat", "0", "--", "true"], mentions: ["'--repeat' needs a number of runs from 1 to 1000", "got '0'"]),
        UsageCase(arguments: ["check", "--repeat", "1001", "--", "true"], mentions: ["'--repeat' needs a number of runs from 1 to 1000", "got '1001'"]),
        UsageCase(arguments: ["check", "--repeat", "3"], mentions: ["'--repeat' needs a command to run", "--repeat N -- swift test"]),
        UsageCase(arguments: ["check", trace, "--repeat", "3"], mentions: ["'--repeat' needs a command to run"]),
        UsageCase(arguments: ["check", "--repeat"], mentions: ["'--repeat' needs a value: --repeat N"]),
        UsageCase(arguments: ["check", trace, "--baseline"], mentions: ["'--baseline' needs a value: --baseline FILE"]),
    ]

    @Test("usage errors: exit 2, nothing on stdout, one line on stderr", arguments: usageCases)
    func usageError(_ usage: UsageCase) async throws {
        let result = try await CLIHarness.inspect(usage.arguments)
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        #expect(line.hasPrefix("napkin-inspect: "))
        for fragment in usage.mentions {
            #expect(line.contains(fragment), "stderr line lacks '\(fragment)': \(line)")
        }
    }
}
