import Foundation
import Testing
import TestSupport

/// `check --repeat N -- COMMAND`: the command runs N times, and each distinct
/// finding is reported once with how many runs had it. Every run is live:
/// rib-house's default speed and the default grace, as `CheckRunCommandTests`
/// explains (a 50 ms grace reported a lagging LoggedOut interactor under the
/// thread sanitizer on a busy machine).
@Suite("napkin-inspect check --repeat N -- COMMAND")
struct CheckRepeatTests {
    static var ribHouse: String { CLIHarness.ribHousePath }
    static let leakingApp = ["--quiet", "--bug", "retain-cycle"]

    /// A shell script that counts its runs in `counter` and runs `rib-house`
    /// (its first argument) with the retain cycle only in run `leakyRun`, and
    /// exits `failingStatus` in run `failingRun`.
    static func flakyScript(in scratch: ScratchDirectory, leakyRun: Int, failingRun: Int = 0, failingStatus: Int = 0) throws -> [String] {
        let counter = scratch.file("counter")
        let script = try scratch.write("flaky.sh", """
            n=$(cat "$2" 2>/dev/null || echo 0)
            n=$((n + 1))
            echo "$n" > "$2"
            if [ "$n" -eq \(leakyRun) ]; then "$1" --quiet --bug retain-cycle; else "$1" --quiet; fi
            if [ "$n" -eq \(failingRun) ]; then exit \(failingStatus); fi
            exit 0

            """)
        return ["/bin/sh", script, ribHouse, counter]
    }

    /// The text finding lines about the LoggedInRouter leak.
    static func leakLines(_ result: CLIResult) -> [String] {
        CheckCommandTests.findingLines(result.stdout).map(\.line).filter { $0.hasPrefix("  error[not-deallocated] LoggedInRouter#") }
    }

    @Test("a leak in every run: reported once, 'in 3 of 3 runs'; exit 1")
    func everyRun() async throws {
        let result = try await CLIHarness.inspect(["check", "--repeat", "3", "--", Self.ribHouse] + Self.leakingApp)
        #expect(result.status == 1, "\(result)")
        let header = try #require(result.stdoutLines.first)
        #expect(header.hasPrefix("3 runs of \(Self.ribHouse) --quiet --bug retain-cycle: "), "\(result)")
        let leaks = Self.leakLines(result)
        #expect(leaks.count == 1, "two leaks per run, six in all, one fingerprint: \(result)")
        #expect(leaks.first?.hasSuffix(" (in 3 of 3 runs)") == true, "\(result)")
        #expect(!result.stdout.contains("intermittent"), "\(result)")
    }

    @Test("a leak in one run of three: 'in 1 of 3 runs: intermittent', with the run its seqs come from")
    func intermittent() async throws {
        let scratch = try ScratchDirectory("repeat-flaky")
        let command = try Self.flakyScript(in: scratch, leakyRun: 2)
        let result = try await CLIHarness.inspect(["check", "--repeat", "3", "--"] + command)
        #expect(result.status == 1, "a finding in any run fails: \(result)")
        let leaks = Self.leakLines(result)
        #expect(leaks.count == 1, "\(result)")
        #expect(leaks.first?.hasSuffix(" (in 1 of 3 runs: intermittent, first in run 2)") == true, "\(result)")
        #expect(try String(contentsOfFile: scratch.file("counter"), encoding: .utf8) == "3\n", "the command ran three times")
    }

    @Test("--format json: runs, of, count and first_run per finding; the repeat object; --trace-dir keeps a directory per run")
    func json() async throws {
        let scratch = try ScratchDirectory("repeat-json")
        let command = try Self.flakyScript(in: scratch, leakyRun: 3)
        let kept = scratch.file("traces")
        let result = try await CLIHarness.inspect(["check", "--repeat", "3", "--format", "json", "--trace-dir", kept, "--"] + command)
        #expect(result.status == 1, "\(result)")
        let report = try CheckFormatsTests.report(result)
        let repetition = try #require(report["repeat"] as? [String: Any])
        #expect(repetition["runs"] as? Int == 3 && repetition["requested"] as? Int == 3 && repetition["failed_runs"] as? Int == 0)
        #expect(repetition["statuses"] as? [Int] == [0, 0, 0])
        let traces = try #require(report["traces"] as? [[String: Any]])
        #expect(traces.count == 1, "one object for all the runs")
        #expect((traces.first?["path"] as? String)?.hasPrefix("3 runs of /bin/sh ") == true)
        let findings = try #require(traces.first?["findings"] as? [[String: Any]])
        let leaks = findings.filter { $0["type"] as? String == "LoggedInRouter" }
        #expect(leaks.count == 1, "\(result)")
        let leak = try #require(leaks.first)
        #expect(leak["runs"] as? Int == 1 && leak["of"] as? Int == 3 && leak["first_run"] as? Int == 3, "\(leak)")
        #expect(leak["count"] as? Int == 2, "two sessions leak in that run: \(leak)")
        #expect(leak["fingerprint"] as? String == CheckBaselineTests.retainCycleFingerprint)
        let runs = try FileManager.default.contentsOfDirectory(atPath: kept).sorted()
        #expect(runs == ["run-1", "run-2", "run-3"])
        for run in runs {
            let files = try FileManager.default.contentsOfDirectory(atPath: kept + "/" + run).filter { $0.hasSuffix(".ndjson") }
            #expect(files.count == 1, "\(run): \(files)")
        }
    }

    @Test("a command that fails in some run passes the first failing status on, with a note")
    func failingRun() async throws {
        let scratch = try ScratchDirectory("repeat-fail")
        let command = try Self.flakyScript(in: scratch, leakyRun: 0, failingRun: 2, failingStatus: 7)
        let result = try await CLIHarness.inspect(["check", "--repeat", "3", "--"] + command)
        #expect(result.status == 7, "\(result)")
        #expect(result.stdout.contains(": no findings ("), "\(result)")
        #expect(result.stderrLines == ["napkin-inspect: note: the command failed in 1 of 3 runs (first in run 2, exit status 7)"], "\(result)")
    }

    @Test("a run that writes no trace is a trace problem naming the run (exit 2), the others are still checked")
    func runWithoutTrace() async throws {
        let scratch = try ScratchDirectory("repeat-no-trace")
        let counter = scratch.file("counter")
        let script = try scratch.write("sometimes.sh", """
            n=$(cat "$2" 2>/dev/null || echo 0); n=$((n + 1)); echo "$n" > "$2"
            if [ "$n" -ne 2 ]; then exec "$1" --speed 20 --quiet; fi

            """)
        let result = try await CLIHarness.inspect(["check", "--repeat", "2", "--", "/bin/sh", script, Self.ribHouse, counter])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.contains("  trace problem: run 2: the command wrote no trace"), "\(result)")
        #expect(result.stderr.contains("run 2: '/bin/sh \(script) \(Self.ribHouse) \(counter)' wrote no trace"), "\(result)")
    }

    @Test("--write-baseline with --repeat counts every run's findings; --baseline then knows them in every run")
    func baselineOverRuns() async throws {
        let scratch = try ScratchDirectory("repeat-baseline")
        let path = scratch.file("b.json")
        let app = ["--", Self.ribHouse] + Self.leakingApp
        let written = try await CLIHarness.inspect(["check", "--repeat", "2", "--write-baseline", path] + app)
        #expect(written.status == 0, "\(written)")
        let entry = try #require(try CheckBaselineTests.entries(path).first { $0["fingerprint"] as? String == CheckBaselineTests.retainCycleFingerprint })
        #expect(entry["count"] as? Int == 4, "two per run: \(entry)")
        let checked = try await CLIHarness.inspect(["check", "--repeat", "2", "--baseline", path] + app)
        #expect(Self.leakLines(checked).isEmpty, "\(checked)")
        #expect(checked.stdout.contains("known from the baseline (not failing)"), "\(checked)")
        #expect(checked.status == (CheckCommandTests.findingLines(checked.stdout).isEmpty ? 0 : 1), "\(checked)")
    }
}
