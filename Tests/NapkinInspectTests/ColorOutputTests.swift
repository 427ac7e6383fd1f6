import Foundation
import Testing

/// Colour: only on a terminal, never with NO_COLOR (or TERM=dumb), and as
/// `--color` / `--no-color` say.
@Suite("napkin-inspect colour")
struct ColorOutputTests {
    /// Commands whose output has something to colour (a title, a finding).
    static let invocations: [[String]] = [
        ["tree", CLIHarness.fixture("not-deallocated")],
        ["check", CLIHarness.fixture("not-deallocated")],
        ["stats", CLIHarness.exampleTrace("clean")],
        ["live", CLIHarness.fixture("not-deallocated")],
    ]

    @Test("--color always: ANSI colours even into a file", arguments: invocations)
    func always(_ arguments: [String]) async throws {
        let result = try await CLIHarness.inspect(arguments + ["--color", "always"])
        #expect(result.status == 0 || result.status == 1, "\(result)")
        #expect(result.stdout.hasANSIEscape, "\(result)")
        // NO_COLOR does not override an explicit request.
        let withNoColor = try await CLIHarness.inspect(arguments + ["--color=always"], environment: ["NO_COLOR": "1"])
        #expect(withNoColor.stdout.hasANSIEscape)
    }

    @Test("not a terminal, NO_COLOR, --color never, --no-color: no escape sequences", arguments: invocations)
    func never(_ arguments: [String]) async throws {
        for (extra, environment) in [([], [:]), ([], ["NO_COLOR": "1"]), (["--color", "never"], [:]),
                                     (["--no-color"], [:]), (["--color", "always", "--no-color"], [:])] as [([String], [String: String?])] {
            let result = try await CLIHarness.inspect(arguments + extra, environment: environment)
            #expect(!result.stdout.isEmpty)
            #expect(!result.stdout.hasANSIEscape, "\(extra) \(environment): \(result)")
            #expect(!result.stderr.hasANSIEscape)
        }
    }

    @Test("--color auto on a terminal: colour, unless NO_COLOR or TERM=dumb",
          .enabled(if: CLIHarness.scriptPath != nil, "util-linux script is not installed"))
    func onTerminal() async throws {
        let script = try #require(CLIHarness.scriptPath)
        let command = "'\(CLIHarness.inspectPath)' tree \(CLIHarness.fixture("not-deallocated"))"
        func onPty(_ extra: String = "", environment: [String: String?] = [:]) async throws -> CLIResult {
            // `script` runs the command on a pseudo-terminal and copies what it prints.
            try await CLIHarness.run(script, ["-q", "-e", "-c", command + extra, "/dev/null"],
                                     environment: environment.merging(["TERM": "xterm-256color"]) { a, _ in a })
        }
        let plain = try await onPty()
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stdout.contains("OrderRouter#4"), "\(plain)")
        #expect(plain.stdout.hasANSIEscape, "colour on a terminal: \(plain)")
        #expect(plain.stdout.contains("\u{1B}[31m! not-deallocated\u{1B}[0m"), "errors in red")

        let noColor = try await onPty(environment: ["NO_COLOR": "1"])
        #expect(noColor.stdout.contains("OrderRouter#4"))
        #expect(!noColor.stdout.hasANSIEscape, "\(noColor)")

        let dumb = try await onPty(environment: ["TERM": "dumb"])
        #expect(dumb.stdout.contains("OrderRouter#4"))
        #expect(!dumb.stdout.hasANSIEscape, "\(dumb)")

        let never = try await onPty(" --color never")
        #expect(never.stdout.contains("OrderRouter#4"))
        #expect(!never.stdout.hasANSIEscape, "\(never)")
    }
}
