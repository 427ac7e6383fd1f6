import Foundation
import Testing
import TestSupport

/// `rib-house --detect`: the in-app detector switched on in code
/// (`NapkinDetector.bootstrap(.log)`), as an app would, rather than with
/// `NAPKIN_DETECT` (whose runs `DetectRibHouseTests` checks bug by bug).
@Suite("rib-house --detect")
struct RibHouseDetectFlagTests {
    @Test("--help names --detect and NAPKIN_DETECT")
    func help() async throws {
        let result = try await CLIHarness.run(CLIHarness.ribHousePath, ["--help"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("--detect"), "\(result.stdout)")
        #expect(result.stdout.contains("NAPKIN_DETECT=log | assert | off"), "\(result.stdout)")
    }

    @Test("--detect --bug retain-cycle prints the leak once while the app runs, and the app exits 0")
    func retainCycle() async throws {
        let result = try await CLIHarness.run(CLIHarness.ribHousePath, ["--detect", "--bug", "retain-cycle", "--quiet"])
        #expect(result.status == 0, "\(result)")
        let all = result.stderr.split(separator: "\n").filter { $0.hasPrefix("napkin detect:") }
        let lines = all.filter { $0.hasPrefix("napkin detect: error[") }
        // Two logouts leak the same router from the same lines: one fingerprint, one line;
        // then what retains it, in a second line with the same fingerprint.
        #expect(lines.count == 1, "\(result.stderr)")
        #expect(all.count == 2 && all.last?.contains(" retained by: ") == true, "\(result.stderr)")
        #expect(lines.first?.hasPrefix("napkin detect: error[not-deallocated] LoggedInRouter#") == true, "\(result.stderr)")
        #expect(lines.first?.contains("RibHouse/LoggedInBuilder.swift:21 (created)") == true, "\(result.stderr)")
        #expect(lines.first?.contains("[fingerprint ") == true, "\(result.stderr)")
    }

    @Test("--detect on the clean run prints nothing of the detector")
    func clean() async throws {
        let result = try await CLIHarness.run(CLIHarness.ribHousePath, ["--detect", "--quiet"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stderr.contains("napkin detect"), "\(result.stderr)")
    }

    @Test("--detect takes no value: a usage error naming the fix")
    func takesNoValue() async throws {
        let result = try await CLIHarness.run(CLIHarness.ribHousePath, ["--detect=assert"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stderr == "rib-house: --detect takes no value; write just --detect\n", "\(result.stderr)")
    }
}
