import Foundation
import Testing
import TestSupport

/// The in-app detector in rib-house: each `--bug` run with `NAPKIN_DETECT=log`
/// (and a trace) prints on standard error what `napkin-inspect check` finds
/// on the trace the same run wrote: the same rule, subject type and
/// fingerprints, each fingerprint once. The clean run prints nothing. A bug
/// whose finding needs analysis options the detector does not take
/// (`prefetch-leak`: `check --rounds round`) is played as it is recorded
/// (`--loop 3`): neither the detector nor `check` with the detector's options
/// reports anything.
///
/// A live run at rib-house's default speed and the default grace (1 s), as
/// `CheckRunCommandTests` explains; the detector and check judge the same
/// run, so a machine slow enough to delay a release delays it for both.
@Suite("Detect: rib-house with NAPKIN_DETECT=log")
struct DetectRibHouseTests {
    /// One run of rib-house: a bug (`--bug NAME`) and the rule it breaks, or the clean app.
    struct Run: Sendable, CustomTestStringConvertible {
        var bug: String?
        var rule: String?
        /// rib-house's arguments besides `--quiet` and `--bug`.
        var arguments: [String] = []
        /// Whether the detector can find the bug: false when its finding
        /// needs `check` options (the detector takes only grace periods).
        var detectable = true
        var testDescription: String { bug.map { "--bug \($0)" } ?? "clean" }
    }

    /// The bugs of `rib-house --list-bugs` (checked by ``listedBugs()``), and the clean app.
    static let runs: [Run] = ExpectedFindings.examples.map { example in
        Run(bug: example.bug, rule: example.rule, arguments: example.appArguments, detectable: example.checkArguments.isEmpty)
    }

    @Test("the runs are every bug rib-house --list-bugs lists, with its rule")
    func listedBugs() async throws {
        let result = try await CLIHarness.run(CLIHarness.ribHousePath, ["--list-bugs"])
        #expect(result.status == 0, "\(result)")
        // "NAME  → RULE", then the summary on a line of its own.
        let listed = result.stdoutLines.filter { $0.contains("→") }.map { line -> Run in
            let parts = line.split(separator: "→").map { $0.trimmingCharacters(in: .whitespaces) }
            return Run(bug: parts.first, rule: parts.count > 1 ? parts[1] : nil)
        }
        #expect(!listed.isEmpty, "\(result)")
        let runs = Self.runs.filter { $0.bug != nil }
        #expect(listed.map(\.bug) == runs.map(\.bug), "\(result)")
        #expect(listed.map(\.rule) == runs.map(\.rule), "\(result)")
    }

    @Test("exit 0; each fingerprint check reports on the same run's trace printed exactly once, with its rule and subject type",
          arguments: runs)
    func detectsWhatCheckFinds(_ run: Run) async throws {
        let scratch = try ScratchDirectory("detect-rib-house")
        defer { scratch.remove() }
        let trace = scratch.file("run.ndjson")
        let app = try await CLIHarness.run(CLIHarness.ribHousePath, ["--quiet"] + run.arguments + (run.bug.map { ["--bug", $0] } ?? []),
                                           environment: ["NAPKIN_DETECT": "log", "NAPKIN_TRACE": trace])
        #expect(app.status == 0, "\(app)")
        let lines = DetectLine.all(in: app.stderrLines)
        let paths = DetectPathLine.all(in: app.stderrLines)
        #expect(app.stderrLines.count == lines.count + paths.count, "nothing but finding lines and their path lines: \(app)")
        #expect(Set(paths.map(\.fingerprint)).isSubset(of: Set(lines.map(\.fingerprint))), "a path line follows its finding's: \(app)")

        let check = try await CLIHarness.inspect(["check", "--format", "json", trace], environment: ["NAPKIN_DETECT": nil])
        #expect(check.status == (run.rule != nil && run.detectable ? 1 : 0), "\(check)")
        let report = try #require(try JSONSerialization.jsonObject(with: check.stdoutData) as? [String: Any], "\(check)")
        let traces = try #require(report["traces"] as? [[String: Any]], "\(check)")
        #expect(traces.count == 1, "\(check)")
        let found = try (traces.first?["findings"] as? [[String: Any]] ?? []).map { finding in
            try #require(CheckFinding(finding), "\(finding)")
        }
        // What the detector cannot decide: alive-at-end (it asks for a teardown
        // the running app cannot promise; off by default, so check reports none
        // either). A check whose grace ran past the end is undecided for both.
        let decidable = found.filter { $0.rule != "alive-at-end" }

        // Every fingerprint check reports, printed once.
        let printed = lines.map(\.fingerprint)
        #expect(Set(printed) == Set(decidable.map(\.fingerprint)), "detector: \(lines)\ncheck: \(found)")
        #expect(printed.count == Set(printed).count, "a fingerprint printed twice: \(lines)")
        // The same rule and subject: the detector names one of check's findings with that fingerprint.
        for line in lines {
            let same = decidable.filter { $0.fingerprint == line.fingerprint }
            #expect(same.contains { $0.rule == line.rule && $0.type == line.type && $0.id == line.id },
                    "\(line) is none of check's \(same)")
        }
        if let rule = run.rule, run.detectable {
            #expect(!lines.isEmpty, "\(app)")
            #expect(Set(lines.map(\.rule)) == [rule], "\(lines)")
            #expect(Set(decidable.map(\.rule)) == [rule], "\(found)")
        } else {
            #expect(lines.isEmpty, "the clean app, or a bug only check's options show: \(app)")
            #expect(found.isEmpty, "\(check)")
        }
    }

    /// One finding of `check --format json`.
    struct CheckFinding: CustomStringConvertible {
        var rule: String
        var type: String
        var id: Int
        var fingerprint: String

        init?(_ json: [String: Any]) {
            guard let rule = json["rule"] as? String, let type = json["type"] as? String,
                  let id = json["id"] as? Int, let fingerprint = json["fingerprint"] as? String else { return nil }
            self.rule = rule
            self.type = type
            self.id = id
            self.fingerprint = fingerprint
        }

        var description: String { "\(rule) \(type)#\(id) [\(fingerprint)]" }
    }
}
