import Foundation
import Testing
import TestSupport

/// The end of a run, as the commands show it (issue 41): `check` of a file
/// that does not exist says that and nothing else; a RibHouse visit that
/// ends inside a grace period names the checks it left undecided.
@Suite("The end of a run: check and rib-house")
struct RunEndCommandsTests {
    @Test("check of a file that does not exist: one line saying so, no report, exit 2")
    func missingFile() async throws {
        let result = try await CLIHarness.inspect(["check", "/nonexistent/trace.ndjson"])
        #expect(result.status == 2, "\(result)")
        #expect(result.stdout.isEmpty, "\(result)")
        #expect(result.stderrLines == ["napkin-inspect: /nonexistent/trace.ndjson: cannot open: no such file (check the path)"])
    }

    @Test("rib-house --detect --bug retain-cycle --speed 4: the visit ends inside the grace period and says which checks were undecided")
    func speedFourNamesUndecided() async throws {
        let result = try await CLIHarness.run(CLIHarness.ribHousePath, ["--detect", "--bug", "retain-cycle", "--speed", "4", "--quiet"])
        #expect(result.status == 0, "\(result)")
        let lines = result.stderr.split(separator: "\n").map(String.init).filter { $0.hasPrefix("napkin detect:") }
        let undecided = lines.filter { $0.contains(" undecided: the process ended less than a grace period after ") }
        #expect(undecided.count == 1, "\(result.stderr)")
        #expect(undecided.first?.contains("not-deallocated LoggedInRouter#") == true, "\(result.stderr)")
    }
}
