import Testing
@testable import napkin_inspect

/// A command's configuration is its help text plus its options: the name,
/// usage lines, positionals and `-- COMMAND` follow from the usage lines.
@Suite("command configurations")
struct CommandConfigurationTests {
    @Test("usage, summary, details and examples are read from the help text")
    func parts() {
        let configuration = CommandConfiguration(options: [CommonOptions.grace], help: """
            demo FILE|DIR... [options]
            demo [options] -- COMMAND [ARGS...]
            Do the demo thing.
            First paragraph.
            $ napkin-inspect demo a.ndjson
            Second line of details.
            $ napkin-inspect demo -- swift test
            """)
        #expect(configuration.name == "demo")
        #expect(configuration.usage == ["demo FILE|DIR... [options]", "demo [options] -- COMMAND [ARGS...]"])
        #expect(configuration.summary == "Do the demo thing.")
        #expect(configuration.details == "First paragraph.\nSecond line of details.")
        #expect(configuration.examples == ["napkin-inspect demo a.ndjson", "napkin-inspect demo -- swift test"])
        #expect(configuration.positionals == 1...64)
        #expect(configuration.acceptsCommand)
        #expect(configuration.option(named: "grace")?.valueName == "DURATION")
    }

    @Test("positionals follow from the word after the name", arguments: [
        ("x FILE [options]", 1...1), ("x [FILE|-] [options]", 0...1), ("x FILE|DIR... [options]", 1...64), ("x [options]", 0...0), ("x", 0...0),
        ("x BEFORE AFTER [options]", 2...2), ("x BEFORE AFTER", 2...2), ("x A B C [--at SEQ|TIME]", 3...3), ("x FILE [--at SEQ|TIME]", 1...1),
    ])
    func positionals(_ usage: String, _ expected: ClosedRange<Int>) {
        #expect(CommandConfiguration(options: [], help: usage + "\nSummary.").positionals == expected)
    }

    @Test("every command: a name, a usage line starting with it, a summary, examples that run it")
    func registry() {
        for command in CommandRegistry.all {
            let configuration = command.configuration
            #expect(!configuration.name.isEmpty)
            #expect(configuration.usage.allSatisfy { $0.hasPrefix(configuration.name + " ") })
            #expect(configuration.summary.hasSuffix("."))
            #expect(!configuration.examples.isEmpty && configuration.examples.allSatisfy { $0.contains("napkin-inspect \(configuration.name)") })
            #expect(configuration.acceptsCommand == ["live", "check"].contains(configuration.name))
        }
        #expect(CheckCommand.configuration.positionals == 1...64)
        #expect(LiveCommand.configuration.positionals == 0...1)
        #expect(TreeCommand.configuration.positionals == 1...1)
        #expect(DiffCommand.configuration.positionals == 2...2)
    }
}
