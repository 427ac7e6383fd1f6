import Foundation
import Testing
import TestSupport

/// What `check -- COMMAND` puts in the command's environment: the trace
/// directory under `NAPKIN_TRACE`, and under the prefixes that xcodebuild
/// (`TEST_RUNNER_`) and simctl (`SIMCTL_CHILD_`) strip and hand on to the
/// processes they start, which do not inherit the command's environment.
@Suite("check -- COMMAND: the environment it gives")
struct CheckCommandEnvironmentTests {
    @Test("the command sees NAPKIN_TRACE, TEST_RUNNER_NAPKIN_TRACE and SIMCTL_CHILD_NAPKIN_TRACE, all the same directory")
    func threeVariables() async throws {
        let result = try await CLIHarness.inspect(["check", "--", "sh", "-c", "env | grep NAPKIN_TRACE= | sort"])
        // The command writes no trace: a usage problem, but its output is there.
        #expect(result.status == 2, "\(result)")
        let lines = result.stdoutLines.filter { $0.contains("NAPKIN_TRACE=") }
        let names = lines.map { String($0.prefix { $0 != "=" }) }
        #expect(names == ["NAPKIN_TRACE", "SIMCTL_CHILD_NAPKIN_TRACE", "TEST_RUNNER_NAPKIN_TRACE"], "\(result)")
        let values = Set(lines.map { String($0.drop { $0 != "=" }.dropFirst()) })
        #expect(values.count == 1, "\(lines)")
        #expect(values.first?.hasSuffix("/") == true, "a directory, one trace per process: \(lines)")
    }

    @Test("a process that only reads TEST_RUNNER_NAPKIN_TRACE (as xcodebuild's test host gets it) is traced and checked")
    func testRunnerStandIn() async throws {
        // Like xcodebuild: NAPKIN_TRACE does not reach the process; the prefixed variable, stripped, does.
        let script = #"unset NAPKIN_TRACE SIMCTL_CHILD_NAPKIN_TRACE; NAPKIN_TRACE="$TEST_RUNNER_NAPKIN_TRACE" exec "$0" --quiet --speed 10 --bug retain-cycle"#
        let result = try await CLIHarness.inspect(["check", "--grace", "100ms", "--", "sh", "-c", script, CLIHarness.ribHousePath])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdout.contains("error[not-deallocated] LoggedInRouter#"), "\(result)")
    }

    @Test("a process that only reads SIMCTL_CHILD_NAPKIN_TRACE (as simctl launch hands it on) is traced and checked")
    func simctlStandIn() async throws {
        let script = #"unset NAPKIN_TRACE TEST_RUNNER_NAPKIN_TRACE; NAPKIN_TRACE="$SIMCTL_CHILD_NAPKIN_TRACE" exec "$0" --quiet --speed 10"#
        let result = try await CLIHarness.inspect(["check", "--", "sh", "-c", script, CLIHarness.ribHousePath])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("no findings"), "\(result)")
    }

    @Test("with a relative --trace-dir, the command gets it from the root: a process that starts elsewhere still writes there")
    func relativeTraceDirectory() async throws {
        // CLIHarness runs from the repository root; `.build-*/` is ignored by git.
        let relative = ".build-check-env/\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: PackagePaths.root.path + "/" + relative) }
        // Like a test host on a simulator: it starts in another directory.
        let script = #"cd / && NAPKIN_TRACE="$TEST_RUNNER_NAPKIN_TRACE" exec "$0" --quiet --speed 10"#
        let result = try await CLIHarness.inspect(["check", "--trace-dir", relative, "--", "sh", "-c", script, CLIHarness.ribHousePath])
        #expect(result.status == 0, "\(result)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: PackagePaths.root.path + "/" + relative)
        #expect(kept.count == 1 && kept.first?.hasSuffix(".ndjson") == true, "\(kept)")
    }
}
