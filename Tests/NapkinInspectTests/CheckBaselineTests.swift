import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// `check --write-baseline FILE` and `check --baseline FILE`: known findings
/// pass, new ones fail, fixed ones are named so the baseline can shrink; the
/// file is strict to read and never overwrites anything else.
@Suite("napkin-inspect check --baseline and --write-baseline")
struct CheckBaselineTests {
    static let retainCycle = CLIHarness.exampleTrace("bug-retain-cycle")
    static let swipeBack = CLIHarness.exampleTrace("bug-swipe-back")
    static let clean = CLIHarness.exampleTrace("clean")
    /// The fingerprint of the LoggedInRouter leak of bug-retain-cycle.ndjson (FNV-1a, computed independently).
    static let retainCycleFingerprint = "d3910114aef04646"

    /// The JSON object in the file at `path`.
    static func object(_ path: String) throws -> [String: Any] {
        let data = try #require(FileManager.default.contents(atPath: path), "no file \(path)")
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any], "not a JSON object: \(path)")
    }

    /// The `findings` entries of the baseline at `path`.
    static func entries(_ path: String) throws -> [[String: Any]] {
        try #require(try object(path)["findings"] as? [[String: Any]])
    }

    /// Writes the baseline of `arguments` (after `check`) to `path`; expects exit 0.
    @discardableResult
    static func writeBaseline(_ path: String, _ arguments: [String]) async throws -> CLIResult {
        let result = try await CLIHarness.inspect(["check", "--write-baseline", path] + arguments)
        #expect(result.status == 0, "\(result)")
        return result
    }

    // MARK: - Writing

    @Test("--write-baseline: one entry per fingerprint with its count; the report as usual, exit 0, a line saying where")
    func write() async throws {
        let scratch = try ScratchDirectory("baseline-write")
        let path = scratch.file("napkin-baseline.json")
        let result = try await Self.writeBaseline(path, [Self.retainCycle])
        #expect(result.stdout.hasPrefix("\(Self.retainCycle): 2 findings (2 errors)\n"), "the report is printed as usual: \(result)")
        #expect(result.stderrLines == ["napkin-inspect: wrote the baseline \(path): 1 entry for 2 findings"], "\(result)")
        let object = try Self.object(path)
        #expect(object["tool"] as? String == "napkin-inspect")
        #expect(object["kind"] as? String == "baseline")
        #expect(object["schema"] as? Int == 1)
        #expect(Set(object.keys) == ["tool", "kind", "schema", "findings"])
        let entries = try Self.entries(path)
        #expect(entries.count == 1, "both LoggedInRouter leaks come from the same lines: one entry")
        let entry = try #require(entries.first)
        #expect(entry["fingerprint"] as? String == Self.retainCycleFingerprint)
        #expect(entry["rule"] as? String == "not-deallocated")
        #expect(entry["type"] as? String == "LoggedInRouter")
        #expect(entry["label"] == nil)
        #expect(entry["count"] as? Int == 2)
        #expect(entry["locations"] as? [String] == ["RibHouse/LaunchNapkinRouter.swift:70 (detached)",
                                                   "RibHouse/LaunchNapkinRouter.swift:50 (attached)",
                                                   "RibHouse/LoggedInBuilder.swift:21 (created)"])
        // Diff-friendly: pretty-printed, one value per line, and nothing left beside it.
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "\" : ", with: "\": ") }
        #expect(lines.contains("\"fingerprint\": \"\(Self.retainCycleFingerprint)\","), "\(text)")
        #expect(lines.contains("\"RibHouse/LoggedInBuilder.swift:21 (created)\""), "one location per line: \(text)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["napkin-baseline.json"], "no temporary file left")
    }

    @Test("--write-baseline over several traces: sorted by fingerprint, counts add up to the findings")
    func writeSeveral() async throws {
        let scratch = try ScratchDirectory("baseline-several")
        let path = scratch.file("b.json")
        // The examples' options together (only a bug that needs rounds has any; the others have no such marks).
        let paths = ExpectedFindings.examples.flatMap(\.checkArguments) + ExpectedFindings.examples.map { CLIHarness.exampleTrace($0.name) }
        let report = try await CLIHarness.inspect(["check", "--format", "json"] + paths)
        let traces = try #require(try CheckFormatsTests.report(report)["traces"] as? [[String: Any]])
        let findings = traces.flatMap { $0["findings"] as? [[String: Any]] ?? [] }
        try await Self.writeBaseline(path, paths)
        let entries = try Self.entries(path)
        let fingerprints = entries.compactMap { $0["fingerprint"] as? String }
        #expect(fingerprints == fingerprints.sorted())
        #expect(Set(fingerprints).count == fingerprints.count, "one entry per fingerprint")
        #expect(Set(fingerprints) == Set(findings.compactMap { $0["fingerprint"] as? String }))
        #expect(entries.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == findings.count)
        #expect(Set(entries.compactMap { $0["rule"] as? String }) == Set(ExpectedFindings.examples.compactMap(\.rule)))
    }

    @Test("--write-baseline takes the findings after the allow-list; with --baseline, known and new ones alike")
    func writeAfterAllowList() async throws {
        let scratch = try ScratchDirectory("baseline-allow")
        let allow = try scratch.write("allow", "not-deallocated LoggedInRouter\n")
        let path = scratch.file("b.json")
        try await Self.writeBaseline(path, [Self.retainCycle, Self.swipeBack, "--allow", allow])
        #expect(try Self.entries(path).compactMap { $0["rule"] as? String } == ["view-gone-still-attached"])

        let old = scratch.file("old.json")
        try await Self.writeBaseline(old, [Self.retainCycle])
        let both = try await Self.writeBaseline(path, [Self.retainCycle, Self.swipeBack, "--baseline", old])
        #expect(both.stderr.contains("wrote the baseline \(path): 2 entries for 3 findings"), "\(both)")
        #expect(Set(try Self.entries(path).compactMap { $0["rule"] as? String }) == ["not-deallocated", "view-gone-still-attached"])
    }

    // MARK: - Checking

    @Test("--baseline: the same trace is known (exit 0, counted); a new bug fails; a fixed one no longer occurs")
    func knownNewAndGone() async throws {
        let scratch = try ScratchDirectory("baseline-check")
        let path = scratch.file("napkin-baseline.json")
        try await Self.writeBaseline(path, [Self.retainCycle])

        let same = try await CLIHarness.inspect(["check", Self.retainCycle, "--baseline", path])
        #expect(same.status == 0, "\(same)")
        #expect(same.stdout == "\(Self.retainCycle): no findings (207 events, ended cleanly)\n  note: 2 known from the baseline (not failing)\n", "\(same)")
        #expect(same.stderr.isEmpty, "every entry still occurs: \(same)")

        let other = try await CLIHarness.inspect(["check", Self.swipeBack, "--baseline", path])
        #expect(other.status == 1, "a new finding fails: \(other)")
        #expect(CheckCommandTests.rules(other.stdout) == ["view-gone-still-attached"], "\(other)")

        let fixed = try await CLIHarness.inspect(["check", Self.clean, "--baseline", path])
        #expect(fixed.status == 0, "\(fixed)")
        #expect(fixed.stdout == "\(Self.clean): no findings (192 events, ended cleanly)\n", "\(fixed)")
        let note = try #require(fixed.stderrLines.first)
        #expect(fixed.stderrLines.count == 1, "\(fixed)")
        #expect(note == "napkin-inspect: note: 1 baseline entry no longer occurs: not-deallocated LoggedInRouter at "
                + "RibHouse/LaunchNapkinRouter.swift:70 (detached) (remove it: --write-baseline \(path))", "\(note)")
    }

    @Test("a baseline written before creation lines came from the call stack: its entry no longer occurs, the leak is new; written again, it is known (docs/check-output.md, the migration note)")
    func creationLineMigration() async throws {
        let scratch = try ScratchDirectory("baseline-migration")
        let path = scratch.file("napkin-baseline.json")
        // The entry an older recording gave: created at LoggedInRouter's own super.init line.
        let old = """
        {
          "findings" : [
            {
              "count" : 2,
              "fingerprint" : "70fd89763e17a5c1",
              "locations" : [
                "RibHouse/LaunchNapkinRouter.swift:70 (detached)",
                "RibHouse/LaunchNapkinRouter.swift:50 (attached)",
                "RibHouse/LoggedInRouter.swift:42 (created)"
              ],
              "rule" : "not-deallocated",
              "type" : "LoggedInRouter"
            }
          ],
          "kind" : "baseline",
          "schema" : 1,
          "tool" : "napkin-inspect"
        }
        """
        try old.write(toFile: path, atomically: true, encoding: .utf8)
        let before = try await CLIHarness.inspect(["check", Self.retainCycle, "--baseline", path])
        #expect(before.status == 1, "the leak's fingerprint changed with its creation line: new to the old baseline: \(before)")
        #expect(before.stderrLines.first?.hasPrefix("napkin-inspect: note: 1 baseline entry no longer occurs: not-deallocated LoggedInRouter") == true, "\(before)")
        try await Self.writeBaseline(path, [Self.retainCycle])
        #expect(try Self.entries(path).compactMap { $0["fingerprint"] as? String } == [Self.retainCycleFingerprint])
        let after = try await CLIHarness.inspect(["check", Self.retainCycle, "--baseline", path])
        #expect(after.status == 0, "\(after)")
    }

    @Test("--baseline in every format: json's baseline object and known findings; junit and github do not fail on them")
    func formats() async throws {
        let scratch = try ScratchDirectory("baseline-formats")
        let path = scratch.file("b.json")
        try await Self.writeBaseline(path, [Self.retainCycle, Self.clean])
        let json = try await CLIHarness.inspect(["check", "--format", "json", "--baseline", path, Self.retainCycle, Self.swipeBack])
        #expect(json.status == 1, "\(json)")
        let report = try CheckFormatsTests.report(json)
        #expect(report["clean"] as? Bool == false)
        let baseline = try #require(report["baseline"] as? [String: Any])
        #expect(baseline["path"] as? String == path)
        #expect(baseline["entries"] as? Int == 1)
        #expect(baseline["known"] as? Int == 2)
        #expect(baseline["no_longer_occurring"] as? Int == 0)
        #expect((baseline["entries_no_longer_occurring"] as? [Any])?.isEmpty == true)
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary["known"] == 2 && summary["findings"] == 1, "\(summary)")
        let traces = try #require(report["traces"] as? [[String: Any]])
        let known = try (traces[0]["known"] as? [[String: Any]] ?? []).map(CheckFormatsTests.checkFinding)
        #expect(known.map(\.type) == ["LoggedInRouter", "LoggedInRouter"])
        #expect((traces[0]["findings"] as? [Any])?.isEmpty == true)
        #expect((traces[0]["known"] as? [[String: Any]])?.allSatisfy { $0["fingerprint"] as? String == Self.retainCycleFingerprint } == true)

        let gone = try await CLIHarness.inspect(["check", "--format", "json", "--baseline", path, Self.clean])
        #expect(gone.status == 0, "\(gone)")
        let goneBaseline = try #require(try CheckFormatsTests.report(gone)["baseline"] as? [String: Any])
        #expect(goneBaseline["known"] as? Int == 0 && goneBaseline["no_longer_occurring"] as? Int == 1)
        let entry = try #require((goneBaseline["entries_no_longer_occurring"] as? [[String: Any]])?.first)
        #expect(entry["fingerprint"] as? String == Self.retainCycleFingerprint && entry["count"] as? Int == 2)

        let junit = try await CLIHarness.inspect(["check", "--format", "junit", "--baseline", path, Self.retainCycle])
        #expect(junit.status == 0, "\(junit)")
        #expect(junit.stdout.contains("<testsuites name=\"napkin-inspect\" tests=\"") && junit.stdout.contains("failures=\"0\""), "\(junit)")
        #expect(!junit.stdout.contains("<failure"), "\(junit)")

        let github = try await CLIHarness.inspect(["check", "--format", "github", "--baseline", path, Self.retainCycle])
        #expect(github.status == 0, "\(github)")
        #expect(github.stdout.isEmpty, "no annotation for a known finding: \(github)")
        #expect(github.stderrLines == ["napkin-inspect: no findings in 1 trace; 2 known from the baseline"], "\(github)")
    }

    @Test("the allow-list applies first: an allowed finding is not known, and its baseline entry no longer occurs")
    func allowListFirst() async throws {
        let scratch = try ScratchDirectory("baseline-allow-first")
        let path = scratch.file("b.json")
        try await Self.writeBaseline(path, [Self.retainCycle])
        let allow = try scratch.write("allow", "not-deallocated LoggedInRouter\n")
        let result = try await CLIHarness.inspect(["check", Self.retainCycle, "--allow", allow, "--baseline", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("note: 2 allowed by the allow-list"), "\(result)")
        #expect(!result.stdout.contains("known from the baseline"), "\(result)")
        #expect(result.stderr.contains("1 baseline entry no longer occurs"), "\(result)")
        #expect(!result.stderr.contains("allow-list line"), "the allow-list entry was used: \(result)")
    }

    @Test("two recordings of the same bug: the second is known")
    func twoRecordings() async throws {
        let scratch = try ScratchDirectory("baseline-recordings")
        let path = scratch.file("b.json")
        // The default speed and grace: see `CheckRunCommandTests` for why not a shorter one.
        let app = [CLIHarness.ribHousePath, "--quiet", "--bug", "retain-cycle"]
        let first = try await Self.writeBaseline(path, ["--"] + app)
        #expect(first.stderr.contains("wrote the baseline \(path): "), "\(first)")
        #expect(try Self.entries(path).contains { $0["fingerprint"] as? String == Self.retainCycleFingerprint }, "the recorded example's leak")

        let second = try await CLIHarness.inspect(["check", "--format", "json", "--baseline", path, "--"] + app)
        let trace = try #require((try CheckFormatsTests.report(second)["traces"] as? [[String: Any]])?.first, "\(second)")
        let known = (trace["known"] as? [[String: Any]] ?? []).filter { $0["type"] as? String == "LoggedInRouter" }
        let new = trace["findings"] as? [[String: Any]] ?? []
        #expect(known.count == 2, "both sessions' leaks are known: \(second)")
        #expect(new.isEmpty, "nothing new: \(second)")
        #expect(second.status == 0, "\(second)")
    }

    // MARK: - Bad files

    struct HostileCase: Sendable, CustomTestStringConvertible {
        var name: String
        var contents: String
        /// Must appear in the one stderr line.
        var mentions: String
        var testDescription: String { name }
    }

    static let fingerprint = "0123456789abcdef"
    static let hostileCases: [HostileCase] = [
        HostileCase(name: "empty", contents: "", mentions: "not a napkin baseline (not JSON)"),
        HostileCase(name: "text", contents: "not-deallocated LoggedInRouter\n", mentions: "not a napkin baseline (not JSON)"),
        HostileCase(name: "array", contents: "[1, 2]", mentions: "not a napkin baseline (not a JSON object)"),
        HostileCase(name: "a check report", contents: #"{"tool": "napkin-inspect", "schema": 1, "traces": []}"#,
                    mentions: "not a napkin baseline (it lacks \"tool\": \"napkin-inspect\" and \"kind\": \"baseline\")"),
        HostileCase(name: "another tool", contents: #"{"tool": "other", "kind": "baseline", "schema": 1, "findings": []}"#,
                    mentions: "not a napkin baseline"),
        HostileCase(name: "schema 2", contents: #"{"tool": "napkin-inspect", "kind": "baseline", "schema": 2, "findings": []}"#,
                    mentions: "schema 2 is not supported (this napkin-inspect reads schema 1)"),
        HostileCase(name: "no schema", contents: #"{"tool": "napkin-inspect", "kind": "baseline", "findings": []}"#,
                    mentions: "a baseline without a schema number is not supported"),
        HostileCase(name: "no findings", contents: #"{"tool": "napkin-inspect", "kind": "baseline", "schema": 1}"#,
                    mentions: "a damaged baseline: the top level: no \"findings\""),
        HostileCase(name: "bad fingerprint",
                    contents: #"{"tool": "napkin-inspect", "kind": "baseline", "schema": 1, "findings": [{"fingerprint": "0123456789ABCDEF", "rule": "r", "type": "T", "locations": [], "count": 1}]}"#,
                    mentions: "findings[0].fingerprint: '0123456789ABCDEF' is not 16 lowercase hex digits"),
        HostileCase(name: "missing field",
                    contents: #"{"tool": "napkin-inspect", "kind": "baseline", "schema": 1, "findings": [{"fingerprint": "\#(fingerprint)", "rule": "r", "locations": [], "count": 1}]}"#,
                    mentions: "findings[0]: no \"type\""),
        HostileCase(name: "count of the wrong type",
                    contents: #"{"tool": "napkin-inspect", "kind": "baseline", "schema": 1, "findings": [{"fingerprint": "\#(fingerprint)", "rule": "r", "type": "T", "locations": [], "count": "2"}]}"#,
                    mentions: "findings[0].count: a value of the wrong type"),
        HostileCase(name: "count 0",
                    contents: #"{"tool": "napkin-inspect", "kind": "baseline", "schema": 1, "findings": [{"fingerprint": "\#(fingerprint)", "rule": "r", "type": "T", "locations": [], "count": 0}]}"#,
                    mentions: "findings[0].count: 0 is not a number of findings"),
        HostileCase(name: "nested 100,000 deep", contents: String(repeating: "[", count: 100_000), mentions: "not a napkin baseline"),
        HostileCase(name: "control characters", contents: "\u{1B}]0;pwned\u{07}\u{9B}2J", mentions: "not a napkin baseline (not JSON)"),
    ]

    @Test("a bad baseline file: exit 2, nothing on stdout, one line naming the file and the fix", arguments: hostileCases)
    func hostile(_ hostile: HostileCase) async throws {
        let scratch = try ScratchDirectory("baseline-hostile")
        let path = try scratch.write("b.json", hostile.contents)
        let result = try await CLIHarness.inspect(["check", Self.retainCycle, "--baseline", path])
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        #expect(line.hasPrefix("napkin-inspect: \(path): "), "\(line)")
        #expect(line.contains(hostile.mentions), "\(line)")
        #expect(line.contains("--write-baseline \(path)"), "names the fix: \(line)")
        #expect(!line.hasANSIEscape && !line.contains("\u{07}"), "\(line)")
    }

    @Test("a baseline that cannot be read: missing, a directory, not a regular file")
    func unreadable() async throws {
        let scratch = try ScratchDirectory("baseline-unreadable")
        let missing = scratch.file("missing.json")
        for (path, mention) in [(missing, "cannot read the baseline \(missing): No such file or directory"),
                                (scratch.path, "cannot read the baseline \(scratch.path): a directory"),
                                ("/dev/zero", "cannot read the baseline /dev/zero: not a regular file")] {
            let result = try await CLIHarness.inspect(["check", Self.retainCycle, "--baseline", path], timeout: 20)
            let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
            #expect(line.contains(mention), "\(line)")
        }
    }

    @Test("--write-baseline never overwrites a file that is not a baseline, and fails before any work")
    func refusesToOverwrite() async throws {
        let scratch = try ScratchDirectory("baseline-refuse")
        let notes = try scratch.write("notes.txt", "keep me\n")
        let report = try scratch.write("report.json", #"{"tool": "napkin-inspect", "schema": 1, "clean": true, "traces": []}"#)
        for path in [notes, report] {
            let before = try String(contentsOfFile: path, encoding: .utf8)
            let result = try await CLIHarness.inspect(["check", Self.retainCycle, "--write-baseline", path])
            let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
            #expect(line == "napkin-inspect: refusing to overwrite \(path): it is not a napkin baseline (give another path, or delete the file first)")
            #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
        }
        // A directory, or a directory that does not exist.
        let directory = try await CLIHarness.inspect(["check", Self.retainCycle, "--write-baseline", scratch.path])
        #expect(try directory.expectOneStderrLine(status: 2, emptyStdout: true).contains("it is a directory"))
        let nowhere = try await CLIHarness.inspect(["check", Self.retainCycle, "--write-baseline", scratch.file("no/such/b.json")])
        #expect(try nowhere.expectOneStderrLine(status: 2, emptyStdout: true).contains("no directory \(scratch.file("no/such"))"))
        // Nothing is run when the path is refused.
        let marker = scratch.file("ran")
        let command = try await CLIHarness.inspect(["check", "--write-baseline", notes, "--", "/bin/sh", "-c", "touch \"$0\"", marker])
        #expect(command.status == 2, "\(command)")
        #expect(!FileManager.default.fileExists(atPath: marker), "the command ran")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == ["notes.txt", "report.json"])
    }

    @Test("--write-baseline replaces an older baseline (keeping its mode); not at all when a trace has problems")
    func overwritesBaseline() async throws {
        let scratch = try ScratchDirectory("baseline-overwrite")
        let path = scratch.file("b.json")
        try await Self.writeBaseline(path, [Self.retainCycle])
        chmod(path, 0o640)
        try await Self.writeBaseline(path, [Self.swipeBack])
        #expect(try Self.entries(path).compactMap { $0["rule"] as? String } == ["view-gone-still-attached"])
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        #expect(mode == 0o640)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path) == ["b.json"])

        let before = try String(contentsOfFile: path, encoding: .utf8)
        let garbage = try scratch.write("garbage.ndjson", "garbage\n")
        let damaged = try await CLIHarness.inspect(["check", "--write-baseline", path, Self.retainCycle, garbage])
        #expect(damaged.status == 2, "\(damaged)")
        #expect(damaged.stderr.contains("the baseline \(path) was not written: a trace has problems"), "\(damaged)")
        #expect(try String(contentsOfFile: path, encoding: .utf8) == before)
    }

    // MARK: - Units

    static func finding(_ rule: Finding.Rule, _ type: String, id: NodeID = 4, label: String? = nil, seqs: [UInt64] = [1], time: UInt64 = 0,
                        locations: [Finding.CodeReference] = []) -> Finding {
        Finding(rule: rule, subject: label == nil ? .router : .task, type: type, id: id, label: label, seqs: seqs, time: time,
                message: "m", locations: locations)
    }

    static let retainCycleLocations: [Finding.CodeReference] = [
        .init(.detached, CodeLocation(fileID: "RibHouse/LaunchNapkinRouter.swift", line: 70)),
        .init(.attached, CodeLocation(fileID: "RibHouse/LaunchNapkinRouter.swift", line: 50)),
        .init(.created, CodeLocation(fileID: "RibHouse/LoggedInBuilder.swift", line: 21)),
    ]

    @Test("fingerprint: FNV-1a 64 over rule|type|label|locations, 16 hex digits; never ids, seqs, times or messages")
    func fingerprint() {
        let leak = Self.finding(.notDeallocated, "LoggedInRouter", locations: Self.retainCycleLocations)
        #expect(leak.fingerprint == Self.retainCycleFingerprint)
        let task = Self.finding(.orphanedTask, "PitBoardInteractor", label: "pit-poller",
                                locations: [.init(.started, CodeLocation(fileID: "RibHouse/PitBoardInteractor.swift", line: 31))])
        #expect(task.fingerprint == "bd284b8860353623")
        #expect(Self.finding(.eventsDropped, "trace").fingerprint == "abb7b2ea87784e82")
        var other = Self.finding(.notDeallocated, "LoggedInRouter", id: 99, seqs: [7, 8], time: 12_345, locations: Self.retainCycleLocations)
        other.message = "another message"
        #expect(other.fingerprint == leak.fingerprint)
        let moved = Self.finding(.notDeallocated, "LoggedInRouter", locations: Array(Self.retainCycleLocations.dropFirst()))
        #expect(moved.fingerprint != leak.fingerprint)
        #expect(Self.finding(.orphanedTask, "PitBoardInteractor", label: "feed").fingerprint
                != Self.finding(.orphanedTask, "PitBoardInteractor", label: "pit-poller").fingerprint)
        #expect(Self.finding(.eventsDropped, "trace").fingerprint.count == 16)
    }

    @Test("Baseline: one entry per fingerprint, counted; knows matching findings; the rest no longer occur")
    func baselineUnits() {
        let leak = Self.finding(.notDeallocated, "LoggedInRouter", locations: Self.retainCycleLocations)
        let task = Self.finding(.orphanedTask, "PitBoardInteractor", label: "pit-poller")
        var baseline = Baseline(findings: [leak, task, Self.finding(.notDeallocated, "LoggedInRouter", id: 22, locations: Self.retainCycleLocations)])
        #expect(baseline.entries.map(\.fingerprint) == [leak.fingerprint, task.fingerprint].sorted())
        #expect(baseline.entries.map(\.count) == (leak.fingerprint < task.fingerprint ? [2, 1] : [1, 2]))
        #expect(baseline.findingCount == 3)
        #expect(baseline.entries.first { $0.rule == "orphaned-task" }?.label == "pit-poller")
        var known: Bool
        known = baseline.knows(Self.finding(.notDeallocated, "LoggedInRouter", id: 1_000, locations: Self.retainCycleLocations))
        #expect(known == true)
        known = baseline.knows(Self.finding(.notDeallocated, "MenuRouter", locations: Self.retainCycleLocations))
        #expect(known == false)
        #expect(baseline.noLongerOccurring.map(\.rule) == ["orphaned-task"])
        #expect(baseline.noLongerOccurringNote(path: "b.json")
                == "note: 1 baseline entry no longer occurs: orphaned-task PitBoardInteractor 'pit-poller' (remove it: --write-baseline b.json)")
        var many = Baseline(findings: (0..<7).map { Self.finding(.notDeallocated, "R\($0)") })
        let note = many.noLongerOccurringNote(path: "b.json") ?? ""
        #expect(note.hasPrefix("note: 7 baseline entries no longer occur: not-deallocated R"), "\(note)")
        #expect(note.hasSuffix("; \u{2026} and 2 more (remove them: --write-baseline b.json)"), "\(note)")
        known = many.knows(Self.finding(.notDeallocated, "R3"))
        #expect(known == true)
        #expect(many.noLongerOccurring.count == 6)
    }
}
