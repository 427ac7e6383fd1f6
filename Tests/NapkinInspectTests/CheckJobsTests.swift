import Foundation
import Testing
import TestSupport

/// `check --jobs N`: traces are analysed on several threads at once, and
/// everything `check` writes (standard output in every format, the lines on
/// standard error, the exit status, the files of `--report` and
/// `--write-baseline`) is byte for byte what `--jobs 1`, one trace after the
/// other, writes. No timing is asserted.
@Suite("napkin-inspect check --jobs")
struct CheckJobsTests {
    static let formats = ["text", "json", "junit", "github", "sarif"]

    /// A directory of good traces, damaged ones, empty ones and files that are
    /// not traces, in an order where they alternate, so that the threads finish
    /// out of order.
    static func mixedDirectory() throws -> ScratchDirectory {
        let scratch = try ScratchDirectory("jobs-mixed")
        let files = FileManager.default
        let examples = PackagePaths.root.appendingPathComponent("Examples/traces")
        for name in try files.contentsOfDirectory(atPath: examples.path) where name.hasSuffix(".ndjson") {
            try files.copyItem(at: examples.appendingPathComponent(name), to: scratch.url.appendingPathComponent("b-" + name))
        }
        let hostile = PackagePaths.root.appendingPathComponent("Tests/Fixtures/hostile")
        let damaged = ["empty.ndjson", "seq-backwards.ndjson", "time-backwards.ndjson", "first-line-broken.ndjson", "nul-bytes.ndjson",
                       "truncated-mid-escape.ndjson", "two-sessions.ndjson", "many-findings-one-type.ndjson", "no-session.ndjson",
                       "ctl-everywhere.ndjson", "invalid-utf8.ndjson", "only-blank-lines.ndjson", "not-a-trace.txt"]
        for (index, name) in damaged.enumerated() {
            // Interleaved with the good ones by name: a-, c-, ... sort between b- files.
            let target = "\(index % 2 == 0 ? "a" : "c")-\(index)-" + (name.hasSuffix(".txt") ? name + ".ndjson" : name)
            try files.copyItem(at: hostile.appendingPathComponent(name), to: scratch.url.appendingPathComponent(target))
        }
        try scratch.write("a-zero-bytes.ndjson", "")
        return scratch
    }

    /// Runs `check ARGUMENTS` with `--jobs 1` and `--jobs 4` and expects the same status, stdout and stderr.
    static func expectSameOutput(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws -> CLIResult {
        let one = try await CLIHarness.inspect(["check", "--jobs", "1"] + arguments)
        let four = try await CLIHarness.inspect(["check", "--jobs", "4"] + arguments)
        #expect(one.status == four.status, "\(one)\n\(four)", sourceLocation: sourceLocation)
        #expect(one.stdoutData == four.stdoutData, "stdout differs: \(arguments)\n\(one)\n\(four)", sourceLocation: sourceLocation)
        #expect(one.stderrData == four.stderrData, "stderr differs: \(arguments)\n\(one)\n\(four)", sourceLocation: sourceLocation)
        return one
    }

    @Test("Examples/traces: --jobs 1 and --jobs 4 print the same bytes, in every format", arguments: formats)
    func examples(_ format: String) async throws {
        let result = try await Self.expectSameOutput(["Examples/traces", "--format", format])
        #expect(result.status == 1, "\(result)")
        #expect(!result.stdout.isEmpty)
        // Several FILE arguments, one of them twice and one missing: the same too.
        let files = try await Self.expectSameOutput([CLIHarness.exampleTrace("clean"), "/no/such/trace.ndjson", "Examples/traces",
                                                     CLIHarness.exampleTrace("bug-swipe-back"), "--format", format])
        #expect(files.status == 2, "\(files)")
        #expect(files.stderrLines.first?.contains("/no/such/trace.ndjson: cannot open") == true, "\(files)")
    }

    @Test("good, damaged, empty and foreign traces in one directory: the same bytes and diagnostics, in every format", arguments: formats)
    func mixed(_ format: String) async throws {
        let scratch = try Self.mixedDirectory()
        let result = try await Self.expectSameOutput([scratch.path, "--format", format])
        #expect(result.status == 2, "\(result)")
        // Each unusable file named once, in the order of the files.
        let unusable = result.stderrLines.filter {
            $0.contains(": empty: no trace records") || $0.contains(": no valid trace records") || $0.contains(": not a napkin trace")
        }
        #expect(unusable.count == 5, "\(result)")
        #expect(unusable == unusable.sorted(), "\(result)")
    }

    @Test("--allow, --baseline, --report and --write-baseline: the same report, baseline and notes")
    func withFiles() async throws {
        let scratch = try Self.mixedDirectory()
        let out = try ScratchDirectory("jobs-files")
        var written: [Int: (baseline: Data, report: Data)] = [:]
        var results: [Int: CLIResult] = [:]
        for jobs in [1, 4] {
            let baseline = out.file("baseline-\(jobs).json"), report = out.file("report-\(jobs).html")
            let write = try await CLIHarness.inspect(["check", "--jobs", "\(jobs)", "Examples/traces", "--write-baseline", baseline])
            #expect(write.status == 0, "\(write)")
            // The same baseline file for both, so that the notes naming it are the same.
            let shared = out.file("baseline.json")
            try? FileManager.default.removeItem(atPath: shared)
            try FileManager.default.copyItem(atPath: baseline, toPath: shared)
            let run = try await CLIHarness.inspect(["check", "--jobs", "\(jobs)", scratch.path, "--allow", "Examples/napkin-allow",
                                                    "--baseline", shared, "--report", report, "--format", "json"])
            results[jobs] = run
            written[jobs] = (try Data(contentsOf: URL(fileURLWithPath: baseline)), try Data(contentsOf: URL(fileURLWithPath: report)))
        }
        let one = try #require(results[1]), four = try #require(results[4])
        #expect(one.status == 2 && four.status == 2, "\(one)\n\(four)")
        #expect(one.stdoutData == four.stdoutData)
        #expect(one.stderr.replacingOccurrences(of: "report-1.html", with: "report-4.html") == four.stderr, "\(one)\n\(four)")
        #expect(written[1]?.baseline == written[4]?.baseline, "the baselines differ")
        #expect(written[1]?.report == written[4]?.report, "the reports differ")
    }

    @Test("check -- COMMAND with several processes: the same verdict on 1 and 4 jobs, and the same as checking its kept traces")
    func command() async throws {
        let scratch = try ScratchDirectory("jobs-command")
        // Four processes at once: two clean, two leaking (one leaked LoggedInRouter per session, two sessions each).
        // The leaking ones at the default speed, checked with the default grace (see `CheckRunCommandTests`).
        let script = try scratch.write("apps.sh", """
            "$1" --speed 20 --quiet & "$1" --quiet --bug retain-cycle &
            "$1" --speed 20 --quiet & "$1" --quiet --bug retain-cycle &
            wait
            """)
        for jobs in ["1", "4"] {
            let kept = scratch.file("traces-\(jobs)")
            let run = try await CLIHarness.inspect(["check", "--jobs", jobs, "--format", "json", "--trace-dir", kept,
                                                    "--", "/bin/sh", script, CLIHarness.ribHousePath], timeout: 120)
            #expect(run.status == 1, "\(run)")
            let report = try #require(try JSONSerialization.jsonObject(with: run.stdoutData) as? [String: Any])
            let traces = try #require(report["traces"] as? [[String: Any]])
            #expect(traces.count == 4, "\(run)")
            let leaking = traces.filter { trace in
                let findings = trace["findings"] as? [[String: Any]] ?? []
                return findings.filter { $0["rule"] as? String == "not-deallocated" && $0["type"] as? String == "LoggedInRouter" }.count == 2
            }
            #expect(leaking.count == 2, "\(run)")
            // The kept traces, checked again from the directory, on either number of jobs: the very same report.
            let again = try await Self.expectSameOutput([kept, "--format", "json"])
            #expect(again.status == run.status)
            #expect(again.stdoutData == run.stdoutData, "\(run)\n\(again)")
        }
    }

    @Test("--jobs 0, --jobs x, --jobs without a value: usage errors, exit 2, one line",
          arguments: [["--jobs", "0"], ["--jobs", "x"], ["--jobs", "1025"], ["--jobs=-2"], ["--jobs"]])
    func usageErrors(_ option: [String]) async throws {
        let result = try await CLIHarness.inspect(["check", "Examples/traces"] + option)
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        #expect(line.hasPrefix("napkin-inspect: '--jobs' needs "), "\(line)")
        if option.count == 2 || option[0].contains("=") {
            #expect(line.contains("a number of jobs from 1 to 1024"), "\(line)")
        }
    }

    @Test("check --help shows --jobs")
    func help() async throws {
        let result = try await CLIHarness.inspect(["check", "--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("--jobs N"), "\(result)")
        #expect(result.stdout.contains("default: one per core"), "\(result)")
    }
}
