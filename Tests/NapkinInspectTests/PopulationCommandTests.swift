import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// `--rounds PREFIX` and `--max-alive NAME=N` (every command that analyses a
/// trace), end to end on small traces written here: `growing-population` and
/// `over-budget` findings in every format, their baselines, the usage errors;
/// and the populations `stats` lists.
@Suite("napkin-inspect --rounds, --max-alive and the populations of stats")
struct PopulationCommandTests {
    // MARK: - Traces

    /// NDJSON of `records` (the fields after `seq` and `t`): a session record
    /// first, then each record 100 ms after the one before.
    static func trace(_ records: [String]) -> String {
        let all = [#""ev":"session","v":1,"app":"shop","pid":7,"wall":1767225600000000000"#] + records + [#""ev":"end","reason":"exit""#]
        return all.enumerated().map { index, fields in
            "{\"seq\":\(index + 1),\"t\":\(UInt64(index) * 100_000_000),\(fields)}"
        }.joined(separator: "\n") + "\n"
    }

    /// A router record without an interactor, created at `src` when given.
    static func router(_ id: Int, _ type: String, src: String? = nil) -> String {
        #""ev":"router","id":\#(id),"type":"\#(type)","interactor":0,"itype":"""# + (src.map { #","src":"\#($0)""# } ?? "")
    }

    /// Four rounds (`round 1` ... `round 4`), each creating a `CacheRouter`
    /// that is never attached; `released`: each is deallocated in its round.
    static func rounds(released: Bool) -> String {
        var records = [router(1, "RootRouter"), #""ev":"launch","id":1"#]
        for round in 1...4 {
            records.append(#""ev":"mark","text":"round \#(round)""#)
            records.append(router(10 + round, "CacheRouter", src: "Shop/CacheBuilder.swift:31"))
            if released { records.append(#""ev":"deinit","id":\#(10 + round)"#) }
        }
        return trace(records)
    }

    /// Two `LoggedInRouter`s alive at once: the new one is built before the
    /// old one is detached (and then deallocated, well within the grace period).
    static let twoLoggedIn = trace([
        router(1, "RootRouter"), #""ev":"launch","id":1"#,
        router(2, "LoggedInRouter", src: "Shop/RootRouter.swift:20"), #""ev":"attach","parent":1,"child":2"#,
        router(3, "LoggedInRouter", src: "Shop/RootRouter.swift:20"),
        #""ev":"detach","parent":1,"child":2"#, #""ev":"attach","parent":1,"child":3"#, #""ev":"deinit","id":2"#,
    ])

    /// An active `Store` interactor running two `poll` tasks at once, both ending.
    static let twoPolls = trace([
        router(1, "RootRouter"), #""ev":"launch","id":1"#,
        #""ev":"interactor","id":2,"type":"Store""#, #""ev":"activate","id":2"#,
        #""ev":"task_start","task":3,"owner":2,"label":"poll""#, #""ev":"task_start","task":4,"owner":2,"label":"poll""#,
        #""ev":"task_end","task":3,"outcome":"completed""#, #""ev":"task_end","task":4,"outcome":"completed""#,
    ])

    /// Writes the traces into a new scratch directory: `growing.ndjson`,
    /// `released.ndjson`, `budget.ndjson`, `tasks.ndjson`.
    static func scratch(_ name: String) throws -> ScratchDirectory {
        let scratch = try ScratchDirectory(name)
        try scratch.write("growing.ndjson", rounds(released: false))
        try scratch.write("released.ndjson", rounds(released: true))
        try scratch.write("budget.ndjson", twoLoggedIn)
        try scratch.write("tasks.ndjson", twoPolls)
        return scratch
    }

    /// The findings of `check --format json` (one trace), as objects.
    static func findings(_ result: CLIResult) throws -> [[String: Any]] {
        let json = try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result)")
        let traces = try #require(json["traces"] as? [[String: Any]])
        return traces.flatMap { $0["findings"] as? [[String: Any]] ?? [] }
    }

    // MARK: - --rounds

    @Test("--rounds PREFIX: a type left alive after every round is a growing-population finding; without it, or released, clean")
    func rounds() async throws {
        let scratch = try Self.scratch("rounds")
        defer { scratch.remove() }
        let growing = scratch.file("growing.ndjson")
        let found = try await CLIHarness.inspect(["check", growing, "--rounds", "round"])
        #expect(found.status == 1, "\(found)")
        #expect(found.stdout.hasPrefix("\(growing): 1 finding (1 error)\n"), "\(found)")
        let line = try #require(found.stdoutLines.first { $0.contains("error[growing-population]") }, "\(found)")
        #expect(line.contains("CacheRouter#14"), "the newest survivor: \(line)")
        #expect(found.stdout.contains("at the start of each round ('round'), then at the end: 0, 1, 2, 3, 4"), "\(found)")
        #expect(found.stdout.contains("Shop/CacheBuilder.swift:31"), "\(found)")

        // The inline spelling, and a prefix that is a whole mark's start.
        let inline = try await CLIHarness.inspect(["check", growing, "--rounds=round "])
        #expect(inline.status == 1 && inline.stdout.contains("growing-population"), "\(inline)")

        // No test marks and no --rounds: no rounds, no finding.
        let noRounds = try await CLIHarness.inspect(["check", growing])
        #expect(noRounds.status == 0, "\(noRounds)")
        #expect(noRounds.stdout == "\(growing): no findings (12 events, ended cleanly)\n", "\(noRounds)")
        // A prefix no mark starts with: no rounds either.
        let otherPrefix = try await CLIHarness.inspect(["check", growing, "--rounds", "step"])
        #expect(otherPrefix.status == 0, "\(otherPrefix)")

        // The clean twin: each round's router is deallocated in it.
        let released = scratch.file("released.ndjson")
        let clean = try await CLIHarness.inspect(["check", released, "--rounds", "round"])
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.stdout.contains("no findings"), "\(clean)")
    }

    // MARK: - --max-alive

    @Test("--max-alive NAME=N: more alive at once than N is an over-budget finding; within the budget, clean")
    func maxAlive() async throws {
        let scratch = try Self.scratch("max-alive")
        defer { scratch.remove() }
        let budget = scratch.file("budget.ndjson")
        let over = try await CLIHarness.inspect(["check", budget, "--max-alive", "LoggedInRouter=1"])
        #expect(over.status == 1, "\(over)")
        let line = try #require(over.stdoutLines.first { $0.contains("error[over-budget]") }, "\(over)")
        #expect(line.contains("LoggedInRouter#3"), "the creation that went over: \(line)")
        #expect(over.stdout.contains("2 alive at once (#2, #3), over the budget of 1"), "\(over)")
        #expect(over.stdout.contains("Shop/RootRouter.swift:20"), "\(over)")
        #expect(over.stdoutLines.filter { $0.contains("error[") }.count == 1, "nothing else: \(over)")

        let within = try await CLIHarness.inspect(["check", budget, "--max-alive", "LoggedInRouter=2"])
        #expect(within.status == 0, "\(within)")
        let other = try await CLIHarness.inspect(["check", budget, "--max-alive", "RootRouter=1", "--max-alive=CacheRouter=0"])
        #expect(other.status == 0, "budgets of other types: \(other)")
        let none = try await CLIHarness.inspect(["check", budget])
        #expect(none.status == 0, "no budget: \(none)")

        // Several budgets, one per type; the last '=' splits (a task population's name has spaces and quotes).
        let both = try await CLIHarness.inspect(["check", budget, "--max-alive", "RootRouter=1", "--max-alive", "LoggedInRouter=0"])
        #expect(both.status == 1 && both.stdout.contains("over the budget of 0"), "\(both)")
        let tasks = scratch.file("tasks.ndjson")
        let polls = try await CLIHarness.inspect(["check", tasks, "--max-alive", "Store 'poll'=1"])
        #expect(polls.status == 1, "\(polls)")
        #expect(polls.stdout.contains("error[over-budget]") && polls.stdout.contains("over the budget of 1"), "\(polls)")
        let pollsWithin = try await CLIHarness.inspect(["check", tasks, "--max-alive", "Store 'poll'=2"])
        #expect(pollsWithin.status == 0, "\(pollsWithin)")
    }

    @Test("the other commands that analyse a trace take both options: diff, tree, report, export")
    func otherCommands() async throws {
        let scratch = try Self.scratch("other-commands")
        defer { scratch.remove() }
        let budget = scratch.file("budget.ndjson"), growing = scratch.file("growing.ndjson")
        let options = ["--rounds", "round", "--max-alive", "LoggedInRouter=1"]
        let tree = try await CLIHarness.inspect(["tree", budget] + options)
        #expect(tree.status == 0 && tree.stdout.contains("over-budget"), "\(tree)")
        let report = try await CLIHarness.inspect(["report", growing, "-o", "-"] + options)
        #expect(report.status == 0 && report.stdout.contains("growing-population"), "\(report)")
        let diff = try await CLIHarness.inspect(["diff", scratch.file("released.ndjson"), growing] + options)
        #expect(diff.stdout.contains("growing-population"), "\(diff)")
        let export = try await CLIHarness.inspect(["export", budget, "-o", "-"] + options)
        #expect(export.status == 0 && export.stdout.contains("over-budget"), "\(export)")
    }

    // MARK: - Formats and baselines

    @Test("both rules in SARIF (as rules, and the findings as results) and JSON (with fingerprints); a baseline makes them known")
    func formatsAndBaseline() async throws {
        let scratch = try Self.scratch("population-formats")
        defer { scratch.remove() }
        let traces = [scratch.file("growing.ndjson"), scratch.file("budget.ndjson")]
        let options = ["--rounds", "round", "--max-alive", "LoggedInRouter=1"]

        let sarif = try await CLIHarness.inspect(["check"] + traces + options + ["--format", "sarif"])
        #expect(sarif.status == 1, "\(sarif)")
        let log = try SARIFValidation.check(sarif)
        let ruleIDs = log.rules.compactMap { $0["id"] as? String }
        #expect(ruleIDs.contains("growing-population") && ruleIDs.contains("over-budget"), "\(ruleIDs)")
        #expect(log.results.compactMap { $0["ruleId"] as? String }.sorted() == ["growing-population", "over-budget"], "\(sarif)")

        let json = try await CLIHarness.inspect(["check"] + traces + options + ["--format", "json"])
        #expect(json.status == 1, "\(json)")
        let findings = try Self.findings(json)
        #expect(findings.compactMap { $0["rule"] as? String } == ["growing-population", "over-budget"], "\(json)")
        #expect(findings.compactMap { $0["type"] as? String } == ["CacheRouter", "LoggedInRouter"], "\(json)")
        for finding in findings {
            let fingerprint = try #require(finding["fingerprint"] as? String, "\(finding)")
            #expect(fingerprint.count == 16 && fingerprint.allSatisfy(\.isHexDigit), "\(fingerprint)")
        }
        // The same run again: the same fingerprints.
        let again = try Self.findings(try await CLIHarness.inspect(["check"] + traces + options + ["--format", "json"]))
        #expect(again.compactMap { $0["fingerprint"] as? String } == findings.compactMap { $0["fingerprint"] as? String })

        // A baseline written from the first run makes the second one pass.
        let baseline = scratch.file("napkin-baseline.json")
        let write = try await CLIHarness.inspect(["check", "--write-baseline", baseline] + traces + options)
        #expect(write.status == 0, "\(write)")
        #expect(write.stderrLines.contains("napkin-inspect: wrote the baseline \(baseline): 2 entries for 2 findings"), "\(write)")
        let known = try await CLIHarness.inspect(["check", "--baseline", baseline, "--format", "json"] + traces + options)
        #expect(known.status == 0, "\(known)")
        let summary = try #require((try JSONSerialization.jsonObject(with: known.stdoutData) as? [String: Any])?["summary"] as? [String: Any])
        #expect(summary["findings"] as? Int == 0 && summary["known"] as? Int == 2, "\(known)")
        // A budget on another type: a new finding, which fails.
        let tighter = try await CLIHarness.inspect(["check", "--baseline", baseline] + traces + options + ["--max-alive", "RootRouter=0"])
        #expect(tighter.status == 1 && tighter.stdout.contains("RootRouter"), "\(tighter)")
    }

    // MARK: - Usage errors

    struct UsageCase: Sendable, CustomTestStringConvertible {
        var arguments: [String]
        /// Every fragment must appear in the one stderr line.
        var mentions: [String]
        var testDescription: String { arguments.joined(separator: " ") }
    }

    static let trace = CLIHarness.fixture("not-deallocated")

    static let usageCases: [UsageCase] = [
        UsageCase(arguments: ["check", trace, "--max-alive", "Foo"],
                  mentions: ["'--max-alive' needs NAME=N", "e.g. --max-alive LoggedInRouter=1", "got 'Foo'"]),
        UsageCase(arguments: ["check", trace, "--max-alive", "=3"],
                  mentions: ["'--max-alive' needs a type name before '='", "got '=3'"]),
        UsageCase(arguments: ["check", trace, "--max-alive", "Foo=-1"],
                  mentions: ["'--max-alive' needs a whole number from 0 after '='", "got 'Foo=-1'"]),
        UsageCase(arguments: ["check", trace, "--max-alive", "Foo=x"],
                  mentions: ["'--max-alive' needs a whole number from 0 after '='", "got 'Foo=x'"]),
        UsageCase(arguments: ["report", trace, "--max-alive", "Foo="],
                  mentions: ["'--max-alive' needs a whole number", "got 'Foo='"]),
        UsageCase(arguments: ["check", trace, "--max-alive", "Foo=99999999999999999999999"],
                  mentions: ["'--max-alive' needs a whole number", "got 'Foo=99999999999999999999999'"]),
        UsageCase(arguments: ["check", trace, "--max-alive", "Foo=1", "--max-alive=Foo=2"],
                  mentions: ["'--max-alive' gives 'Foo' two budgets (1 and 2)", "give each type one"]),
        UsageCase(arguments: ["live", trace, "--max-alive", "Store 'poll'=1", "--max-alive", "Store 'poll'=1"],
                  mentions: ["'--max-alive' gives 'Store 'poll'' two budgets (1 and 1)"]),
        UsageCase(arguments: ["check", trace, "--max-alive"], mentions: ["'--max-alive' needs a value: --max-alive NAME=N"]),
        UsageCase(arguments: ["check", trace, "--rounds", ""],
                  mentions: ["'--rounds' needs the start of the marks that begin each round", "--rounds 'round '", "got ''"]),
        UsageCase(arguments: ["diff", trace, trace, "--rounds="], mentions: ["'--rounds' needs the start of the marks", "got ''"]),
        UsageCase(arguments: ["check", trace, "--rounds"], mentions: ["'--rounds' needs a value: --rounds PREFIX"]),
        UsageCase(arguments: ["stats", trace, "--rounds", "round"], mentions: ["unknown option '--rounds'", "'stats'"]),
        UsageCase(arguments: ["timeline", trace, "--max-alive", "Foo=1"], mentions: ["unknown option '--max-alive'", "'timeline'"]),
    ]

    @Test("usage errors: exit 2, nothing on stdout, one line naming the option, the value and the fix", arguments: usageCases)
    func usageError(_ usage: UsageCase) async throws {
        let result = try await CLIHarness.inspect(usage.arguments)
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        #expect(line.hasPrefix("napkin-inspect: "))
        for fragment in usage.mentions {
            #expect(line.contains(fragment), "stderr line lacks '\(fragment)': \(line)")
        }
    }

    @Test("the options as parsed: the budgets by name (split at the last '='), the rounds' prefix; the defaults")
    func parsing() throws {
        let words = ["f", "--rounds", "round ", "--max-alive", "Store 'poll'=2", "--max-alive=a=b=0", "--max-alive", "LoggedInRouter=1"]
        let analysis = try CheckCommand(parsing: ArgumentParser.parse(words, for: CheckCommand.configuration)).analysis
        #expect(analysis.rounds == .marks(prefix: "round "))
        #expect(analysis.maxAlive == ["Store 'poll'": 2, "a=b": 0, "LoggedInRouter": 1])
        let defaults = try CheckCommand(parsing: ArgumentParser.parse(["f"], for: CheckCommand.configuration)).analysis
        #expect(defaults.rounds == .repeatedTests && defaults.maxAlive.isEmpty)
        // A later --rounds wins, as any other option with one value.
        let twice = try ArgumentParser.parse(["f", "--rounds", "a", "--rounds", "b"], for: CheckCommand.configuration)
        #expect(try twice.analysisOptions().rounds == .marks(prefix: "b"))

        // Every command that has --grace has both, and reads them into its analysis.
        for command in CommandRegistry.all {
            let configuration = command.configuration
            let analyses = configuration.option(named: "grace") != nil
            #expect((configuration.option(named: "rounds") != nil) == analyses, "\(configuration.name)")
            #expect((configuration.option(named: "max-alive") != nil) == analyses, "\(configuration.name)")
        }
        let live = try LiveCommand(parsing: ArgumentParser.parse(words, for: LiveCommand.configuration)).analysis
        #expect(live.rounds == analysis.rounds && live.maxAlive == analysis.maxAlive)
        let report = try ReportCommand(parsing: ArgumentParser.parse(words, for: ReportCommand.configuration)).analysis
        #expect(report.rounds == analysis.rounds && report.maxAlive == analysis.maxAlive)
        let diff = try DiffCommand(parsing: ArgumentParser.parse(["g"] + words, for: DiffCommand.configuration)).analysis
        #expect(diff.rounds == analysis.rounds && diff.maxAlive == analysis.maxAlive)
        let tree = try TreeCommand(parsing: ArgumentParser.parse(words, for: TreeCommand.configuration)).fold.analysis
        #expect(tree.rounds == analysis.rounds && tree.maxAlive == analysis.maxAlive)

        let rounds = try #require(CheckCommand.configuration.option(named: "rounds"))
        #expect(rounds.valueName == "PREFIX" && !rounds.repeatable)
        let maxAlive = try #require(CheckCommand.configuration.option(named: "max-alive"))
        #expect(maxAlive.valueName == "NAME=N" && maxAlive.repeatable)
    }

    @Test("check --help shows both options with their values")
    func help() async throws {
        let result = try await CLIHarness.inspect(["check", "--help"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stdoutLines
        let rounds = try #require(lines.first { $0.hasPrefix("      --rounds PREFIX ") }, "\(result)")
        #expect(rounds.contains("each mark whose text starts with PREFIX") && rounds.contains("growing-population"), "\(rounds)")
        let maxAlive = try #require(lines.first { $0.hasPrefix("      --max-alive NAME=N ") }, "\(result)")
        #expect(maxAlive.contains("At most N instances of NAME alive at once") && maxAlive.contains("over-budget")
                && maxAlive.contains("Owner 'label'"), "\(maxAlive)")
    }

    // MARK: - stats

    @Test("stats: each type's live count at the end and its peak, with when, in text and JSON")
    func stats() async throws {
        let scratch = try Self.scratch("population-stats")
        defer { scratch.remove() }
        let growing = scratch.file("growing.ndjson")
        let text = try await CLIHarness.inspect(["stats", growing])
        #expect(text.status == 0, "\(text)")
        let lines = text.stdoutLines
        let heading = try #require(lines.firstIndex { $0.hasPrefix("Populations  ") }, "\(text)")
        #expect(lines[heading] == "Populations  2 types of routers, interactors and bound tasks: alive at the end, most at once")
        // The most at once first: the 4 CacheRouters, reached at the last one's creation (seq 11, 1 s).
        #expect(lines[heading + 1] == "  CacheRouter  router      4 alive (4 created), peak 4 at 1.000s (#11)", "\(text)")
        #expect(lines[heading + 2] == "  RootRouter   router      1 alive (1 created), peak 1 at 100.000ms (#2)", "\(text)")
        #expect(lines[heading + 3] == "Events by kind:", "\(text)")

        let released = try await CLIHarness.inspect(["stats", scratch.file("released.ndjson")])
        #expect(released.stdoutLines.contains("  CacheRouter  router      0 alive (4 created), peak 1 at 400.000ms (#5)"), "\(released)")

        let tasks = try await CLIHarness.inspect(["stats", scratch.file("tasks.ndjson")])
        #expect(tasks.stdoutLines.contains("  Store 'poll'  task        0 running (2 started), peak 2 at 600.000ms (#7)"), "\(tasks)")
        #expect(tasks.stdoutLines.contains("  Store         interactor  1 alive (1 created), peak 1 at 300.000ms (#4)"), "\(tasks)")

        let json = try await CLIHarness.inspect(["stats", growing, "--format", "json"])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        let populations = try #require(object["populations"] as? [[String: Any]], "\(json)")
        #expect(populations.count == 2)
        let cache = try #require(populations.first)
        #expect(cache["kind"] as? String == "router" && cache["name"] as? String == "CacheRouter" && cache["type"] as? String == "CacheRouter")
        #expect(cache["label"] == nil)
        #expect(cache["live"] as? Int == 4 && cache["peak"] as? Int == 4 && cache["created"] as? Int == 4)
        #expect(cache["peak_seq"] as? Int == 11 && cache["peak_time_ns"] as? Int == 1_000_000_000)
        #expect(object["untracked_live_instances"] as? Int == 0)

        let taskJSON = try await CLIHarness.inspect(["stats", scratch.file("tasks.ndjson"), "--format", "json"])
        let taskPopulations = try #require((try JSONSerialization.jsonObject(with: taskJSON.stdoutData) as? [String: Any])?["populations"] as? [[String: Any]])
        let poll = try #require(taskPopulations.first { $0["kind"] as? String == "task" }, "\(taskJSON)")
        #expect(poll["name"] as? String == "Store 'poll'" && poll["type"] as? String == "Store" && poll["label"] as? String == "poll")
        #expect(poll["live"] as? Int == 0 && poll["peak"] as? Int == 2)
    }

    @Test("stats on a recorded run: the populations add up to the routers, interactors and tasks it counts")
    func statsOfRecordedRun() async throws {
        let path = CLIHarness.exampleTrace("bug-retain-cycle")
        let json = try await CLIHarness.inspect(["stats", path, "--format", "json"])
        #expect(json.status == 0, "\(json)")
        let object = try #require(try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])
        let populations = try #require(object["populations"] as? [[String: Any]])
        func total(_ kind: String, _ field: String) -> Int {
            populations.filter { $0["kind"] as? String == kind }.compactMap { $0[field] as? Int }.reduce(0, +)
        }
        #expect(total("router", "created") == object["routers_created"] as? Int)
        #expect(total("router", "live") == object["routers_alive"] as? Int)
        #expect(total("interactor", "created") == object["interactors_created"] as? Int)
        #expect(total("interactor", "live") == object["interactors_alive"] as? Int)
        #expect(total("task", "created") == object["tasks_started"] as? Int)
        #expect(total("task", "live") == object["tasks_running"] as? Int)
        // The retain cycle leaves two LoggedInRouters alive.
        let loggedIn = try #require(populations.first { $0["name"] as? String == "LoggedInRouter" })
        #expect(loggedIn["live"] as? Int == 2, "\(loggedIn)")
        // Most at once first, then the most alive at the end, then by kind and name.
        let order = populations.map { (-($0["peak"] as? Int ?? 0), -($0["live"] as? Int ?? 0)) }
        #expect(zip(order, order.dropFirst()).allSatisfy { $0 <= $1 }, "\(order)")

        let text = try await CLIHarness.inspect(["stats", path])
        #expect(text.stdoutLines.contains { $0.hasPrefix("  LoggedInRouter ") && $0.contains(" router ") && $0.contains(" 2 alive (") && $0.contains("), peak 2 at ") }, "\(text)")
    }

    @Test("stats of a trace with many types: the text lists the 20 with the most at once and says how many more; JSON lists them all")
    func statsBounded() async throws {
        let scratch = try ScratchDirectory("population-many")
        defer { scratch.remove() }
        // 30 types; type k has k + 1 alive at once (the last ones first in the list).
        var records: [String] = []
        var id = 1
        for k in 0..<30 {
            for _ in 0...k {
                records.append(Self.router(id, "Type\(k)"))
                id += 1
            }
        }
        let path = try scratch.write("many.ndjson", Self.trace(records))
        let text = try await CLIHarness.inspect(["stats", path])
        #expect(text.status == 0, "\(text)")
        let rows = text.stdoutLines.filter { $0.hasPrefix("  Type") }
        #expect(rows.count == StatsText.maxListedPopulations, "\(text)")
        #expect(rows.first?.hasPrefix("  Type29  router      30 alive (30 created), peak 30 at ") == true, "\(text)")
        #expect(rows.last?.hasPrefix("  Type10  router      11 alive (11 created), peak 11 at ") == true, "\(text)")
        #expect(text.stdoutLines.contains("  and 10 more (--format json lists them all)"), "\(text)")
        let json = try await CLIHarness.inspect(["stats", path, "--format", "json"])
        let populations = try #require((try JSONSerialization.jsonObject(with: json.stdoutData) as? [String: Any])?["populations"] as? [[String: Any]])
        #expect(populations.compactMap { $0["name"] as? String } == (0..<30).reversed().map { "Type\($0)" })
    }
}
