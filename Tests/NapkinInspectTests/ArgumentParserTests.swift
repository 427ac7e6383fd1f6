import NapkinTrace
import Testing
@testable import napkin_inspect

/// The command-line parser, typed option values, the registry and the allow-list, as units.
@Suite("ArgumentParser, typed options, the command registry, ValueParsing and AllowList")
struct ArgumentParserTests {
    static func parse(_ arguments: [String], _ command: any Command.Type) throws(UsageError) -> ParsedArguments {
        try ArgumentParser.parse(arguments, for: command.configuration)
    }

    /// The message of the usage error `arguments` cause, or nil.
    static func usageError(_ arguments: [String], _ command: any Command.Type) -> String? {
        do {
            _ = try parse(arguments, command)
            return nil
        } catch {
            return error.message
        }
    }

    // MARK: - ArgumentParser

    @Test("options with separate and inline values, flags, positionals; typed values")
    func options() throws {
        let parsed = try Self.parse(["run.ndjson", "--at", "12", "--grace=250ms", "--view-grace", "2s", "--no-color", "--format", "mermaid"], TreeCommand.self)
        #expect(parsed.positionals == ["run.ndjson"])
        #expect(parsed.texts["at"] == "12")
        #expect(parsed.texts["grace"] == "250ms")
        #expect(parsed.texts["view-grace"] == "2s")
        #expect(parsed.texts["format"] == "mermaid")
        #expect(parsed.isSet(CommonOptions.noColor))
        #expect(!parsed.wantsHelp)
        #expect(parsed.command == nil)
        #expect(try parsed.value(CommonOptions.at) == .seq(12))
        #expect(try parsed.grace() == 250_000_000)
        #expect(try parsed.viewGrace() == 2_000_000_000)
        #expect(try parsed.choice(Presentation<TreeCommand.Format>.formatOption) == .mermaid)
        #expect(try parsed.style(environment: [:]).enabled == false, "--no-color wins")
        let command = try TreeCommand(parsing: parsed)
        #expect(command.fold.path == "run.ndjson" && command.fold.moment == .seq(12))
        #expect(command.fold.analysis.grace == 250_000_000 && command.fold.analysis.viewGrace == 2_000_000_000)
        #expect(command.output.format == .mermaid && !command.output.style.enabled)
    }

    @Test("options not given: nil, or the choice's default, or the default grace periods")
    func defaults() throws {
        let parsed = try Self.parse(["run.ndjson"], CheckCommand.self)
        #expect(try parsed.value(CheckCommand.Options.allow) == nil)
        #expect(try parsed.value(CheckCommand.Options.baseline) == nil)
        #expect(try parsed.value(CheckCommand.Options.writeBaseline) == nil)
        #expect(try parsed.value(CheckCommand.Options.repeatRuns) == nil)
        #expect(try parsed.choice(Presentation<CheckCommand.Format>.formatOption) == .text)
        #expect(try parsed.choice(CheckCommand.Options.failOn) == .warning)
        #expect(try parsed.grace() == 1_000_000_000)
        #expect(try parsed.viewGrace() == 5_000_000_000)
        let analysis = try CheckCommand(parsing: parsed).analysis
        #expect(analysis.grace == 1_000_000_000 && analysis.viewGrace == 5_000_000_000 && !analysis.expectTeardown)
        #expect(try parsed.style(environment: ["NO_COLOR": "1"]).enabled == false)
        #expect(try Self.parse(["f", "--color", "always"], StatsCommand.self).style(environment: ["NO_COLOR": "1"]).enabled)
    }

    @Test("--view-grace goes with --grace: the same commands take both, and read both into their analysis")
    func viewGrace() throws {
        let withGrace = CommandRegistry.all.filter { $0.configuration.option(named: "grace") != nil }.map { $0.configuration.name }
        #expect(withGrace == ["live", "tree", "check", "diff", "mermaid", "report", "export"])
        for command in CommandRegistry.all {
            let configuration = command.configuration
            #expect((configuration.option(named: "view-grace") != nil) == (configuration.option(named: "grace") != nil), "\(configuration.name)")
        }
        let option = try #require(CheckCommand.configuration.option(named: "view-grace"))
        #expect(option.valueName == "DURATION")
        #expect(option.help.contains("after the router left the tree") && option.help.contains("default 5s")
                && option.help.contains("expectViewControllerDisappear"), "\(option.help)")

        let words = ["f", "--grace", "250ms", "--view-grace", "2s"]
        let check = try CheckCommand(parsing: Self.parse(words + ["--expect-teardown"], CheckCommand.self)).analysis
        #expect(check.grace == 250_000_000 && check.viewGrace == 2_000_000_000 && check.expectTeardown)
        let live = try LiveCommand(parsing: Self.parse(words, LiveCommand.self)).analysis
        #expect(live.grace == 250_000_000 && live.viewGrace == 2_000_000_000)
        let tree = try TreeCommand(parsing: Self.parse(words, TreeCommand.self)).fold.analysis
        #expect(tree.grace == 250_000_000 && tree.viewGrace == 2_000_000_000)
        let export = try ExportCommand(parsing: Self.parse(words, ExportCommand.self)).analysis
        #expect(export.grace == 250_000_000 && export.viewGrace == 2_000_000_000 && !export.expectTeardown)
        guard case .flowchart(let request) = try MermaidCommand(parsing: Self.parse(words, MermaidCommand.self)).diagram else {
            Issue.record("mermaid draws the tree by default")
            return
        }
        #expect(request.analysis.grace == 250_000_000 && request.analysis.viewGrace == 2_000_000_000)
        let diff = try DiffCommand(parsing: Self.parse(["g"] + words, DiffCommand.self)).analysis
        #expect(diff.grace == 250_000_000 && diff.viewGrace == 2_000_000_000)
        #expect(try Self.parse(["f"], LiveCommand.self).analysisOptions().viewGrace == TraceAnalyzer.Options.defaultViewGrace)
        #expect(Self.usageError(["f", "--view-grace", "2s"], TimelineCommand.self)?.contains("unknown option '--view-grace'") == true)
    }

    @Test("an inline value may be empty or hold '='; a later option wins")
    func inlineValues() throws {
        let parsed = try Self.parse(["f", "--node=a=b", "--width=", "--node", "c"], TimelineCommand.self)
        #expect(parsed.texts["node"] == "c")
        #expect(parsed.texts["width"] == "")
        #expect(throws: UsageError.self) { try parsed.value(TimelineCommand.Options.width) }
        let other = try Self.parse(["f", "--node=a=b"], TimelineCommand.self)
        #expect(try other.value(TimelineCommand.Options.node) == "a=b")
    }

    @Test("a value that starts with '-' is still a value (but '--' is not)")
    func dashValues() throws {
        let parsed = try Self.parse(["f", "--at", "-3"], TreeCommand.self)
        #expect(parsed.texts["at"] == "-3")
        #expect(Self.usageError(["f", "--grace", "--"], CheckCommand.self)?.contains("'--grace' needs a value") == true)
    }

    @Test("'--' hands the rest to the command, untouched")
    func command() throws {
        let parsed = try Self.parse(["--grace", "1s", "--", "swift", "test", "--filter", "X", "--", "-h"], CheckCommand.self)
        #expect(parsed.command == ["swift", "test", "--filter", "X", "--", "-h"])
        #expect(parsed.positionals.isEmpty)
        #expect(!parsed.wantsHelp, "-h after -- belongs to the command")
        #expect(parsed.texts["grace"] == "1s")
        #expect(try CheckCommand(parsing: parsed).command == ["swift", "test", "--filter", "X", "--", "-h"])
    }

    @Test("-h and --help win over missing positionals")
    func help() throws {
        #expect(try Self.parse(["-h"], TreeCommand.self).wantsHelp)
        #expect(try Self.parse(["--help", "a", "b", "c"], StatsCommand.self).wantsHelp)
    }

    @Test("short flags: -h only; other letters are unknown")
    func shortFlags() {
        #expect(Self.usageError(["f", "-v"], TreeCommand.self) == "unknown option '-v' for 'tree' (see 'napkin-inspect tree --help')")
        #expect(Self.usageError(["f", "-hv"], TreeCommand.self) == "unknown option '-h' for 'tree' (see 'napkin-inspect tree --help')")
        // A lone "-" is a positional (stdin).
        #expect((try? Self.parse(["-"], LiveCommand.self))?.positionals == ["-"])
    }

    @Test("one-letter aliases: -o FILE is --output FILE where the command has it, unknown elsewhere")
    func shortAliases() throws {
        #expect(try Self.parse(["f", "-o", "out.json"], ExportCommand.self).texts["output"] == "out.json")
        #expect(try Self.parse(["f", "--output=out.json"], ExportCommand.self).texts["output"] == "out.json")
        #expect(try Self.parse(["f", "-o", "-"], ExportCommand.self).texts["output"] == "-", "a value may start with '-'")
        #expect(Self.usageError(["f", "-o"], ExportCommand.self) == "'--output' needs a value: --output FILE")
        #expect(Self.usageError(["f", "-o", "--"], ExportCommand.self) == "'--output' needs a value: --output FILE")
        #expect(Self.usageError(["f", "-o", "x"], TreeCommand.self) == "unknown option '-o' for 'tree' (see 'napkin-inspect tree --help')")
        #expect(ExportCommand.configuration.helpText.contains("  -o, --output FILE  "))
        #expect(TreeCommand.configuration.helpText.contains("\n      --at SEQ|TIME  "))
    }

    @Test("usage errors name the problem and the fix")
    func errors() {
        #expect(Self.usageError(["f", "--bogus"], StatsCommand.self) == "unknown option '--bogus' for 'stats' (see 'napkin-inspect stats --help')")
        #expect(Self.usageError(["f", "--at"], TreeCommand.self) == "'--at' needs a value: --at SEQ|TIME")
        #expect(Self.usageError(["f", "--format", "yaml"], StatsCommand.self) == "'--format' must be one of text, json; got 'yaml'")
        #expect(Self.usageError(["f", "--markdown=yes"], MermaidCommand.self) == "'--markdown' takes no value")
        #expect(Self.usageError(["f", "--", "ls"], TreeCommand.self) == "'tree' does not run a command; remove '--' (see 'napkin-inspect tree --help')")
        #expect(Self.usageError(["--"], CheckCommand.self) == "'--' must be followed by a command to run, e.g. '-- swift test'")
        #expect(Self.usageError([], TreeCommand.self) == "missing trace file: napkin-inspect tree FILE [--at SEQ|TIME] [options]")
        #expect(Self.usageError(["a", "b"], TreeCommand.self) == "unexpected argument 'b' (see 'napkin-inspect tree --help')")
        #expect(Self.usageError(["a"], DiffCommand.self) == "missing trace file: napkin-inspect diff BEFORE AFTER [options]")
        #expect(Self.usageError(["a", "b", "c"], DiffCommand.self) == "unexpected argument 'c' (see 'napkin-inspect diff --help')")
        #expect((try? Self.parse(["a", "--threshold", "80%", "b"], DiffCommand.self))?.positionals == ["a", "b"])
        #expect(Self.usageError(["a", "b", "--threshold", "lots"], DiffCommand.self) == nil, "values are converted when the command reads them")
        #expect(Self.usageError([], LiveCommand.self) == nil, "live reads stdin without a FILE")
        #expect(Self.usageError(["--", "cmd"], CheckCommand.self) == nil)
        #expect(Self.usageError(["--repeat", "3"], CheckCommand.self)
                == "'--repeat' needs a command to run: put it after '--', e.g. 'napkin-inspect check --repeat N -- swift test'")
        #expect(Self.usageError(["f.ndjson", "--repeat=3"], CheckCommand.self)?.hasPrefix("'--repeat' needs a command to run") == true)
    }

    @Test("every option of every command parses, and its value is kept")
    func everyOption() throws {
        for command in CommandRegistry.all {
            let configuration = command.configuration
            for option in configuration.options {
                let value = option.choices?.last ?? "1s"
                let words = (option.isFlag ? ["--\(option.name)"] : ["--\(option.name)", value])
                    + (option.needsCommand ? ["--", "swift", "test"] : [])
                let traces = Array(repeating: "trace.ndjson", count: max(1, configuration.positionals.lowerBound))
                let parsed = try Self.parse((option.needsCommand ? [] : traces) + words, command)
                if option.isFlag {
                    #expect(parsed.flags.contains(option.name), "\(configuration.name) --\(option.name)")
                } else {
                    #expect(parsed.texts[option.name] == value, "\(configuration.name) --\(option.name)")
                }
            }
        }
    }

    @Test("check's baseline and repeat options: typed values, bounds, and which need a command")
    func baselineAndRepeatOptions() throws {
        let parsed = try Self.parse(["--baseline", "b.json", "--write-baseline=new.json", "--repeat", "10", "--", "swift", "test"], CheckCommand.self)
        let command = try CheckCommand(parsing: parsed)
        #expect(command.baselinePath == "b.json" && command.writeBaselinePath == "new.json" && command.repeatCount == 10)
        #expect(command.command == ["swift", "test"])
        for (text, runs) in [("1", 1), ("1000", 1_000)] {
            #expect(try Self.parse(["--repeat", text, "--", "x"], CheckCommand.self).value(CheckCommand.Options.repeatRuns) == runs)
        }
        for bad in ["0", "1001", "-1", "3.5", "ten", ""] {
            do {
                let value = try Self.parse(["--repeat", bad, "--", "x"], CheckCommand.self).value(CheckCommand.Options.repeatRuns)
                Issue.record("'\(bad)' parsed as \(String(describing: value))")
            } catch {
                #expect(error.message == "'--repeat' needs a number of runs from 1 to 1000; got '\(bad)'")
            }
        }
        let needCommand = CheckCommand.configuration.options.filter(\.needsCommand).map(\.name)
        #expect(needCommand == ["repeat"])
        #expect(CheckCommand.configuration.option(named: "repeat")?.valueName == "N")
        #expect(CheckCommand.configuration.option(named: "baseline")?.valueName == "FILE")
        #expect(CheckCommand.configuration.option(named: "write-baseline")?.valueName == "FILE")
        // --baseline and --write-baseline work on trace files too.
        #expect(Self.usageError(["f.ndjson", "--baseline", "b.json", "--write-baseline", "b.json"], CheckCommand.self) == nil)
    }

    @Test("closed choices: the parser's list is the enum's cases; --help lists them with notes and the default")
    func choices() {
        #expect(CheckCommand.configuration.option(named: "format")?.choices == ["text", "json", "junit", "github", "sarif"])
        #expect(CheckCommand.Format.helpList
            == "text (default), json, junit (JUnit XML), github (Actions annotations) or sarif (SARIF 2.1.0 for code scanning).")
        #expect(MermaidCommand.View.helpList == "tree (a flowchart, findings styled; default), timeline (a Gantt chart) or sequence.")
        #expect(TimelineCommand.Format.helpList == "text (default) or mermaid (a Gantt chart).")
        #expect(StatsCommand.Format.helpList == "text (default) or json.")
        #expect(CheckCommand.configuration.option(named: "fail-on")?.choices == ["warning", "error"])
        #expect(LiveCommand.configuration.option(named: "color")?.choices == ["auto", "always", "never"])
    }

    @Test("the registry: one command per name, the overview lists each once with its summary")
    func registry() {
        let names = CommandRegistry.all.map { $0.configuration.name }
        #expect(names == ["live", "tree", "timeline", "check", "diff", "mermaid", "stats", "report", "export"])
        #expect(CommandRegistry.names == "live, tree, timeline, check, diff, mermaid, stats, report, export")
        for command in CommandRegistry.all {
            let configuration = command.configuration
            #expect(CommandRegistry.named(configuration.name) == command)
            #expect(Overview.text.contains("\n  \(configuration.name.padded(to: 11))\(configuration.summary)\n"))
            #expect(configuration.summary.count + 13 <= 80, "the overview line of \(configuration.name) fits 80 columns")
        }
        #expect(CommandRegistry.named("frobnicate") == nil)
    }

    // MARK: - ValueParsing

    @Test("percentages, with or without %, as fractions; anything else is a usage error naming the option")
    func percentages() throws {
        #expect(try ValueParsing.percent("50%", option: "threshold") == 0.5)
        #expect(try ValueParsing.percent("12.5", option: "threshold") == 0.125)
        #expect(try ValueParsing.percent("0", option: "threshold") == 0)
        for bad in ["", "%", "-5%", "lots", "nan", "inf", "2000000%"] {
            #expect(throws: UsageError.self, "'\(bad)'") { try ValueParsing.percent(bad, option: "threshold") }
        }
        do {
            _ = try ValueParsing.percent("x", option: "threshold")
            Issue.record("'x' was taken as a percentage")
        } catch {
            #expect(error.message == "'--threshold' needs a percentage like 50% or 200%; got 'x'")
        }
    }

    @Test("durations", arguments: [
        ("1s", 1_000_000_000), ("250ms", 250_000_000), ("1.5s", 1_500_000_000), ("2m", 120_000_000_000),
        ("500us", 500_000), ("500µs", 500_000), ("100ns", 100), ("1.5", 1_500_000_000), ("0", 0), ("0.5s", 500_000_000),
    ] as [(String, UInt64)])
    func durations(_ text: String, _ nanoseconds: UInt64) throws {
        #expect(try ValueParsing.duration(text, option: "grace") == nanoseconds)
    }

    @Test("bad durations name the option and show good ones", arguments: ["", "abc", "-1s", "1e400", "ms", "1 s", "1h", "nan", "inf", "5e10m"])
    func badDurations(_ text: String) {
        do {
            let value = try ValueParsing.duration(text, option: "grace")
            Issue.record("'\(text)' parsed as \(value)")
        } catch {
            #expect(error.message == "'--grace' needs a duration like 500ms, 1s or 1.5s; got '\(text)'")
        }
    }

    @Test("moments: a sequence number or a time")
    func moments() throws {
        #expect(try ValueParsing.moment("120", option: "at") == .seq(120))
        #expect(try ValueParsing.moment("0", option: "at") == .seq(0))
        #expect(try ValueParsing.moment("1.5s", option: "at") == .time(1_500_000_000))
        #expect(try ValueParsing.moment("800ms", option: "at") == .time(800_000_000))
        #expect(try ValueParsing.moment("2m", option: "at") == .time(120_000_000_000))
        for bad in ["1.5", "-3", "soon", "", "12xs", "1e3"] {
            #expect(throws: UsageError.self, "'\(bad)'") { try ValueParsing.moment(bad, option: "at") }
        }
    }

    // MARK: - AllowList

    static func finding(_ rule: Finding.Rule, _ type: String, label: String? = nil) -> Finding {
        Finding(rule: rule, subject: label == nil ? .router : .task, type: type, id: 4, label: label, seqs: [1], time: 0, message: "m")
    }

    @Test("entries: RULE [TYPE [LABEL]], comments, blank lines, tabs and CRLF")
    func allowListEntries() throws {
        var list = try AllowList(path: "allow", contents: """
            # known issues
            not-deallocated\tOrderRouter  # retain cycle\r
            orphaned-task PitBoardInteractor pit-poller

            duplicate-child
            """)
        #expect(list.entries.map(\.rule) == ["not-deallocated", "orphaned-task", "duplicate-child"])
        #expect(list.entries.map(\.type) == ["OrderRouter", "PitBoardInteractor", "*"])
        #expect(list.entries.map(\.label) == ["*", "pit-poller", "*"])
        #expect(list.entries.map(\.line) == [2, 3, 5])
        var allowed: Bool

        allowed = list.allows(Self.finding(.notDeallocated, "OrderRouter"))
        #expect(allowed == true)
        allowed = list.allows(Self.finding(.notDeallocated, "MenuRouter"))
        #expect(allowed == false)
        allowed = list.allows(Self.finding(.orphanedTask, "PitBoardInteractor", label: "pit-poller"))
        #expect(allowed == true)
        allowed = list.allows(Self.finding(.orphanedTask, "PitBoardInteractor", label: "other"))
        #expect(allowed == false)
        allowed = list.allows(Self.finding(.orphanedTask, "PitBoardInteractor"))
        #expect(allowed == false, "a label entry does not match a finding without a label")
        #expect(list.unused.map(\.line) == [5])
        allowed = list.allows(Self.finding(.duplicateChild, "AnyRouter"))
        #expect(allowed == true)
        #expect(list.unused.isEmpty)
    }

    @Test("wildcards")
    func allowListWildcards() throws {
        var allowed: Bool
        var everything = try AllowList(path: "allow", contents: "*\n")
        allowed = everything.allows(Self.finding(.eventsDropped, "trace"))
        #expect(allowed == true)
        var anyRule = try AllowList(path: "allow", contents: "* LegacyRouter\n")
        allowed = anyRule.allows(Self.finding(.doubleAttach, "LegacyRouter"))
        #expect(allowed == true)
        allowed = anyRule.allows(Self.finding(.doubleAttach, "NewRouter"))
        #expect(allowed == false)
        var anyType = try AllowList(path: "allow", contents: "orphaned-task * poller\n")
        allowed = anyType.allows(Self.finding(.orphanedTask, "A", label: "poller"))
        #expect(allowed == true)
        allowed = anyType.allows(Self.finding(.orphanedTask, "A", label: "feed"))
        #expect(allowed == false)
    }

    @Test("bad entries: file:line and what is wrong")
    func allowListErrors() {
        do {
            _ = try AllowList(path: "ci/allow.txt", contents: "# ok\nnot-deallocated A\nnot-a-rule B\n")
            Issue.record("an unknown rule was accepted")
        } catch {
            #expect(error.message.hasPrefix("ci/allow.txt:3: unknown rule 'not-a-rule'; the rules are undetached-child, not-deallocated,"))
        }
        do {
            _ = try AllowList(path: "allow", contents: "orphaned-task A b c\n")
            Issue.record("four words were accepted")
        } catch {
            #expect(error.message == "allow:1: too many words; an entry is RULE [TYPE [LABEL]]")
        }
    }

    @Test("an empty or comment-only list allows nothing")
    func allowListEmpty() throws {
        var list = try AllowList(path: "allow", contents: "# nothing yet\n\n   \n")
        #expect(list.entries.isEmpty)
        var allowed: Bool
        allowed = list.allows(Self.finding(.notDeallocated, "OrderRouter"))
        #expect(allowed == false)
    }
}
