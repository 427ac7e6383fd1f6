import Foundation
import Testing
import TestSupport

/// `napkin-inspect diff BEFORE AFTER`, run as a user runs it: the clean
/// RibHouse run against each bug run names the bug and exits 1 (and the
/// reverse reports it fixed, exit 0); two clean runs, whatever their ids and
/// timing, report no changes; an extra screen appears; the formats; the usage errors.
@Suite("napkin-inspect diff")
struct DiffCommandTests {
    static let clean = CLIHarness.exampleTrace("clean")

    /// A bug of RibHouse, the rule of the finding it causes and the path of the router it is about.
    struct Bug: Sendable, CustomTestStringConvertible {
        var name: String
        var rule: String
        var path: String
        var testDescription: String { name }
    }

    static let bugs: [Bug] = [
        Bug(name: "early-task", rule: "task-started-inactive", path: "LaunchNapkinRouter/LoggedInRouter/PitBoardRouter"),
        Bug(name: "forgotten-detach", rule: "view-gone-still-attached", path: "LaunchNapkinRouter/LoggedInRouter/OrderRouter"),
        Bug(name: "ignore-cancel", rule: "orphaned-task", path: "LaunchNapkinRouter/LoggedInRouter/PitBoardRouter"),
        Bug(name: "retain-cycle", rule: "not-deallocated", path: "LaunchNapkinRouter/LoggedInRouter"),
        Bug(name: "service-keeps-child", rule: "undetached-child", path: "LaunchNapkinRouter/LoggedInRouter/PitBoardRouter"),
        Bug(name: "swipe-back", rule: "view-gone-still-attached", path: "LaunchNapkinRouter/LoggedInRouter/OrderRouter[2]"),
    ]

    /// The JSON object `diff --format json` printed.
    static func json(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: result.stdoutData) as? [String: Any], "\(result)")
    }

    /// The `key` list of `object`, as objects.
    static func list(_ object: [String: Any], _ key: String) throws -> [[String: Any]] {
        try #require(object[key] as? [[String: Any]], "no list '\(key)' in \(object.keys.sorted())")
    }

    @Test("clean → bug run: the new finding, its rule and router path; exit 1", arguments: bugs)
    func regression(_ bug: Bug) async throws {
        let result = try await CLIHarness.inspect(["diff", Self.clean, CLIHarness.exampleTrace("bug-\(bug.name)")], environment: ["NO_COLOR": "1"])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("New findings ("), "\(result)")
        #expect(result.stdout.contains("[\(bug.rule)] "), "\(result)")
        #expect(result.stdout.contains("\n    path \(bug.path)\n"), "\(result)")
        #expect(!result.stdout.contains("Fixed findings"))
        #expect(!result.stdout.contains("Routers in one run only"), "the bug changes no screen: \(result)")

        let json = try Self.json(try await CLIHarness.inspect(["diff", Self.clean, CLIHarness.exampleTrace("bug-\(bug.name)"), "--format", "json"]))
        let new = try Self.list(json, "new_findings")
        #expect(!new.isEmpty && new.allSatisfy { $0["rule"] as? String == bug.rule })
        #expect(new.contains { $0["path"] as? String == bug.path }, "\(new)")
        #expect(json["regression"] as? Bool == true)
        #expect(json["exit_status"] as? Int == 1)
    }

    @Test("bug run → clean: the finding is fixed; exit 0", arguments: bugs)
    func fixed(_ bug: Bug) async throws {
        let result = try await CLIHarness.inspect(["diff", CLIHarness.exampleTrace("bug-\(bug.name)"), Self.clean], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Fixed findings ("), "\(result)")
        #expect(result.stdout.contains("[\(bug.rule)] "))
        #expect(result.stdout.contains("\n    path \(bug.path)\n"), "\(result)")
        #expect(!result.stdout.contains("New findings"))
        #expect(result.stdout.contains("0 new findings, "))
    }

    /// The records of an NDJSON trace, as objects.
    static func records(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    /// `records` as an NDJSON trace, keys sorted.
    static func ndjson(_ records: [[String: Any]]) throws -> String {
        try records.map { record in
            String(decoding: try JSONSerialization.data(withJSONObject: record, options: [.sortedKeys]), as: UTF8.self)
        }.joined(separator: "\n") + "\n"
    }

    /// `clean.ndjson` with every node and task id moved (`id * 7 + 1000`: all
    /// different, none the same as before) and every time multiplied by `scale`.
    static func rewritten(_ text: String, scale: Double) throws -> String {
        let idFields = ["id", "parent", "child", "interactor", "owner", "task"]
        return try ndjson(try records(text).map { record in
            var record = record
            for field in idFields where record["ev"] as? String != "session" {
                if let id = record[field] as? Int { record[field] = id * 7 + 1000 }
            }
            if let time = record["t"] as? Int { record["t"] = Int(Double(time) * scale) }
            return record
        })
    }

    @Test("the clean run against itself with other ids and 30% slower: no changes, exit 0", arguments: [1.0, 1.3, 0.8])
    func cleanRewritten(_ scale: Double) async throws {
        let scratch = try ScratchDirectory("diff-ids")
        let original = try String(contentsOf: PackagePaths.root.appendingPathComponent(Self.clean), encoding: .utf8)
        let other = try scratch.write("other.ndjson", try Self.rewritten(original, scale: scale))
        #expect(!original.contains("\"id\":1007,"), "the ids really change")
        for (before, after) in [(Self.clean, other), (other, Self.clean)] {
            let result = try await CLIHarness.inspect(["diff", before, after], environment: ["NO_COLOR": "1"])
            #expect(result.status == 0, "\(result)")
            #expect(result.stdout.hasSuffix("\nNo changes: the same findings (0) and routers; no lifetime or task count changed by 50% and 250ms, or 50% and 1 task.\n"),
                    "\(result)")
            #expect(result.stderr.isEmpty, "\(result)")
        }
    }

    @Test("thresholds: the same run made 3 times slower reports its long lifetimes, unless the thresholds are raised")
    func thresholds() async throws {
        let scratch = try ScratchDirectory("diff-slow")
        let original = try String(contentsOf: PackagePaths.root.appendingPathComponent(Self.clean), encoding: .utf8)
        let slow = try scratch.write("slow.ndjson", try Self.rewritten(original, scale: 3))
        let result = try await CLIHarness.inspect(["diff", Self.clean, slow, "--format", "json"])
        #expect(result.status == 0, "lifetimes alone never fail: \(result)")
        let changes = try Self.list(try Self.json(result), "changes")
        #expect(changes.contains { $0["path"] as? String == "LaunchNapkinRouter" && $0["measure"] as? String == "time_alive" }, "\(changes)")
        #expect(!changes.contains { $0["measure"] as? String == "tasks" }, "the task counts are the same")
        let raised = try await CLIHarness.inspect(["diff", Self.clean, slow, "--threshold", "250%", "--format", "json"])
        #expect(try Self.list(try Self.json(raised), "changes").isEmpty, "\(raised)")
        let long = try await CLIHarness.inspect(["diff", Self.clean, slow, "--threshold-time", "60s", "--format", "json"])
        #expect(try Self.list(try Self.json(long), "changes").isEmpty, "\(long)")
    }

    @Test("a clean run recorded now with rib-house: no new or fixed findings, the same routers, exit 0")
    func cleanRecordedNow() async throws {
        let scratch = try ScratchDirectory("diff-record")
        let trace = scratch.file("now.ndjson")
        let run = try await CLIHarness.run(CLIHarness.ribHousePath, ["--quiet"], environment: ["NAPKIN_TRACE": trace])
        #expect(run.status == 0, "\(run)")
        let result = try await CLIHarness.inspect(["diff", Self.clean, trace, "--format", "json"])
        #expect(result.status == 0, "\(result)")
        let json = try Self.json(result)
        for key in ["new_findings", "fixed_findings", "appeared", "disappeared", "at_end"] {
            #expect(try Self.list(json, key).isEmpty, "\(key): \(result.stdout)")
        }
        #expect(json["regression"] as? Bool == false)
    }

    /// `clean.ndjson` with a `GiftCardRouter` (and interactor) attached under
    /// the first `LoggedInRouter` after seq `after`, detached and deallocated
    /// 100 events later; sequence numbers renumbered.
    static func withExtraScreen(_ text: String, after: Int) throws -> String {
        var lines = try Self.records(text)
        func insert(_ extra: [[String: Any]], afterSeq seq: Int) throws {
            let index = try #require(lines.firstIndex { $0["seq"] as? Int == seq })
            let time = try #require(lines[index]["t"] as? Int)
            lines.insert(contentsOf: extra.map { $0.merging(["t": time]) { $1 } }, at: index + 1)
        }
        try insert([["ev": "detach", "parent": 6, "child": 901], ["ev": "deactivate", "id": 900],
                    ["ev": "deinit", "id": 901], ["ev": "deinit", "id": 900]], afterSeq: after + 40)
        try insert([["ev": "interactor", "id": 900, "type": "GiftCardInteractor"],
                    ["ev": "router", "id": 901, "type": "GiftCardRouter", "interactor": 900, "itype": "GiftCardInteractor"],
                    ["ev": "attach", "parent": 6, "child": 901], ["ev": "activate", "id": 900]], afterSeq: after)
        return try ndjson(lines.enumerated().map { index, record in record.merging(["seq": index + 1]) { $1 } })
    }

    @Test("a run with one more screen: its path appears (with the count under its parent), exit 0")
    func extraScreen() async throws {
        let scratch = try ScratchDirectory("diff-extra")
        let original = try String(contentsOf: PackagePaths.root.appendingPathComponent(Self.clean), encoding: .utf8)
        let extra = try scratch.write("extra.ndjson", try Self.withExtraScreen(original, after: 47))
        let check = try await CLIHarness.inspect(["check", extra])
        #expect(check.status == 0, "the edited trace is a clean, intact trace: \(check)")

        let result = try await CLIHarness.inspect(["diff", Self.clean, extra], environment: ["NO_COLOR": "1"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("Routers in one run only (1):\n  + LaunchNapkinRouter/LoggedInRouter/GiftCardRouter"
                                       + "  (GiftCardRouter under LaunchNapkinRouter/LoggedInRouter: 0 \u{2192} 1)\n"), "\(result)")
        #expect(result.stdout.contains("1 router appeared, 0 disappeared"))

        let reverse = try await CLIHarness.inspect(["diff", extra, Self.clean, "--format", "json"])
        #expect(reverse.status == 0)
        let gone = try Self.list(try Self.json(reverse), "disappeared")
        #expect(gone.count == 1)
        #expect(gone.first?["path"] as? String == "LaunchNapkinRouter/LoggedInRouter/GiftCardRouter")
        #expect(gone.first?["parent"] as? String == "LaunchNapkinRouter/LoggedInRouter")
        #expect(gone.first?["before"] as? Int == 1 && gone.first?["after"] as? Int == 0)
    }

    @Test("--format json: every field, parseable")
    func jsonFields() async throws {
        let result = try await CLIHarness.inspect(["diff", Self.clean, CLIHarness.exampleTrace("bug-retain-cycle"), "--format", "json"])
        #expect(result.status == 1)
        let json = try Self.json(result)
        #expect(Set(json.keys) == ["before", "after", "thresholds", "new_findings", "fixed_findings", "kept_findings", "appeared",
                                   "disappeared", "changes", "at_end", "regression", "changed", "summary", "exit_status"])
        let before = try #require(json["before"] as? [String: Any])
        #expect(before["path"] as? String == Self.clean)
        #expect(before["routers"] as? Int == 14 && before["findings"] as? Int == 0)
        let thresholds = try #require(json["thresholds"] as? [String: Any])
        #expect(thresholds["relative"] as? Double == 0.5 && thresholds["time_ns"] as? Int == 250_000_000 && thresholds["tasks"] as? Int == 1)
        let finding = try #require(try Self.list(json, "new_findings").first)
        for key in ["rule", "severity", "subject", "type", "id", "seqs", "time_ns", "message", "fingerprint", "locations", "path"] {
            #expect(finding[key] != nil, "new finding lacks \(key)")
        }
        let end = try Self.list(json, "at_end")
        #expect(end.contains { $0["path"] as? String == "LaunchNapkinRouter/LoggedInRouter[2]" && $0["in_tree"] as? Bool == false
                && $0["presence"] as? String == "after" }, "\(end)")
        let change = try #require(try Self.list(json, "changes").first)
        #expect(Set(change.keys) == ["path", "measure", "before", "after"])
    }

    @Test("--format markdown: a heading, the summary, the tables, rule links and code locations")
    func markdown() async throws {
        let result = try await CLIHarness.inspect(["diff", Self.clean, CLIHarness.exampleTrace("bug-retain-cycle"), "--format", "markdown"])
        #expect(result.status == 1)
        let text = result.stdout
        #expect(text.hasPrefix("## napkin-inspect diff: new findings\n\n2 new findings, 0 fixed;"), "\(result)")
        #expect(text.contains("\n| | trace | app | routers | findings |\n| --- | --- | --- | ---: | ---: |\n| before | Examples/traces/clean.ndjson | rib-house (pid "))
        #expect(text.contains("\n- **error** [`not-deallocated`](docs/findings.md#not-deallocated) LaunchNapkinRouter/LoggedInRouter\\[2\\] (LoggedInRouter\\#22): "))
        #expect(text.contains("\n  at Examples/RibHouse/LaunchNapkin/LaunchNapkinRouter.swift:70 (detached), "))
        #expect(text.contains("\n| router path | measure | before | after | change |\n"))
        #expect(text.contains("\n- **+** LaunchNapkinRouter/LoggedInRouter\\[2\\]\n  - **+** MenuRouter\n"))
    }

    @Test("hostile type names: printable in text, escaped in Markdown")
    func hostileTypes() async throws {
        let scratch = try ScratchDirectory("diff-hostile")
        let original = try String(contentsOf: PackagePaths.root.appendingPathComponent(Self.clean), encoding: .utf8)
        let hostile = try scratch.write("hostile.ndjson", original.replacingOccurrences(
            of: "\"type\":\"MenuRouter\"", with: "\"type\":\"Menu\\u001b]0;pwned\\u0007|`<img src=x>Router\""))
        let text = try await CLIHarness.inspect(["diff", Self.clean, hostile, "--color", "always"])
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("Menu\\e]0;pwned\\u{7}|`<img src=x>Router"), "\(text)")
        #expect(!text.stdout.contains("\u{1B}]"), "an OSC sequence reached the terminal")
        let markdown = try await CLIHarness.inspect(["diff", Self.clean, hostile, "--format", "markdown"])
        #expect(OutputSafety.problem(in: markdown.stdoutData) == nil)
        #expect(markdown.stdout.contains("Menu\\\\e\\]0;pwned\\\\u{7}\\|\\`&lt;img src=x&gt;Router"), "\(markdown)")
        #expect(!markdown.stdout.contains("<img"))
    }

    @Test("usage errors and unreadable input: exit 2, one line naming the problem", arguments: [
        (["diff", "Examples/traces/clean.ndjson"], "missing trace file: napkin-inspect diff BEFORE AFTER"),
        (["diff", "a.ndjson", "b.ndjson", "c.ndjson"], "unexpected argument 'c.ndjson'"),
        (["diff", "Examples/traces/clean.ndjson", "/no/such/after.ndjson"], "/no/such/after.ndjson"),
        (["diff", "/no/such/before.ndjson", "Examples/traces/clean.ndjson"], "/no/such/before.ndjson"),
        (["diff", "-", "-"], "BEFORE and AFTER cannot both be standard input"),
        (["diff", "a", "b", "--threshold", "much"], "'--threshold' needs a percentage"),
        (["diff", "a", "b", "--threshold-tasks", "0"], "'--threshold-tasks' needs a number of tasks from 1"),
    ])
    func usageErrors(_ arguments: [String], _ fragment: String) async throws {
        let result = try await CLIHarness.inspect(arguments)
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        #expect(line.contains(fragment), "\(line)")
    }

    @Test("a file that is not a trace: exit 2, one line naming it")
    func notATrace() async throws {
        let scratch = try ScratchDirectory("diff-garbage")
        let garbage = try scratch.write("notes.ndjson", "shopping list\nbrisket\n")
        let result = try await CLIHarness.inspect(["diff", Self.clean, garbage])
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        #expect(line.contains(garbage), "\(line)")
    }
}
