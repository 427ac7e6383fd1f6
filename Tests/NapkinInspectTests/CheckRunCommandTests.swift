import Foundation
import Testing
import TestSupport

/// `napkin-inspect check -- COMMAND`: runs the built `rib-house` (or another
/// program) with tracing on and checks what it wrote.
@Suite("napkin-inspect check -- COMMAND")
///
/// A live run that must find a bug uses rib-house's default speed and the
/// default grace (1 s), never a shorter one: in rib-house's login a task
/// holds the LoggedOut interactor until the LoggedIn subtree it asked for is
/// attached (a call that detaches its own caller keeps it alive until it
/// returns), which under the thread sanitizer on a busy machine takes longer
/// than 50 ms, and a 50 ms grace then reports that interactor. A recorded
/// trace may use any grace: its verdict does not depend on the machine.
struct CheckRunCommandTests {
    static var ribHouse: String { CLIHarness.ribHousePath }

    @Test("a leaking rib-house (--bug retain-cycle): exit 1, not-deallocated for each LoggedIn router")
    func retainCycle() async throws {
        // A live run: the default speed and grace (see `CheckRunCommandTests.liveRunGrace`).
        let result = try await CLIHarness.inspect(["check", "--", Self.ribHouse, "--quiet", "--bug", "retain-cycle"])
        #expect(result.status == 1, "\(result)")
        let findings = CheckCommandTests.findingLines(result.stdout)
        #expect(findings.count == 2, "only the leaks the bug causes: \(result)")
        let leaks = findings.filter { $0.rule == "not-deallocated" && $0.line.hasPrefix("  error[not-deallocated] LoggedInRouter#") }
        #expect(leaks.count == 2, "one per session: \(result)")
    }

    @Test("a swipe back nobody hears (--bug swipe-back): exit 1, view-gone-still-attached for the hot-links order, under LoggedIn")
    func swipeBack() async throws {
        // The order stays attached for about 1.65 s after its screen went, until
        // logout detaches LoggedIn: past the default grace (1 s).
        let result = try await CLIHarness.inspect(["check", "--", Self.ribHouse, "--quiet", "--bug", "swipe-back"])
        #expect(result.status == 1, "\(result)")
        let findings = CheckCommandTests.findingLines(result.stdout).filter { $0.rule == "view-gone-still-attached" }
        #expect(findings.count == 1, "\(result)")
        #expect(findings.first?.line.hasPrefix("  error[view-gone-still-attached] OrderRouter#") == true, "\(result)")
        #expect(findings.first?.line.contains("still attached to LoggedInRouter#") == true, "\(result)")
    }

    @Test("json, junit and sarif with a command that prints: its output goes to stderr, the report alone to stdout", arguments: ["json", "junit", "sarif"])
    func machineReadableReportStaysClean(_ format: String) async throws {
        // No --quiet: rib-house prints its [screen] lines on standard output.
        let result = try await CLIHarness.inspect(["check", "--format", format, "--", Self.ribHouse, "--speed", "20"])
        #expect(result.status == 0, "\(result)")
        #expect(!result.stdout.contains("[screen]"), "\(result)")
        #expect(result.stderr.contains("[screen] LoggedIn"), "\(result)")
        if format == "junit" {
            #expect(result.stdout.hasPrefix("<?xml"), "\(result)")
        } else {
            #expect((try? JSONSerialization.jsonObject(with: Data(result.stdout.utf8))) is [String: Any], "\(result)")
        }
    }

    @Test("text with a command: the command's output stays on stdout, before the report")
    func textKeepsTheCommandsOutput() async throws {
        let result = try await CLIHarness.inspect(["check", "--", Self.ribHouse, "--speed", "20"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout.contains("[screen] LoggedIn"), "\(result)")
    }

    @Test("a clean rib-house: exit 0, no findings, even expecting a full teardown")
    func clean() async throws {
        // The default grace (1 s): a slow deinit on a loaded machine is not a leak.
        let result = try await CLIHarness.inspect(["check", "--expect-teardown", "--", Self.ribHouse, "--speed", "20", "--quiet"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdoutLines.count == 1, "\(result)")
        #expect(result.stdout.contains(": no findings ("))
        #expect(result.stdout.contains("ended cleanly"))
    }

    @Test("--format json with a command: one trace, from rib-house")
    func jsonWithCommand() async throws {
        let result = try await CLIHarness.inspect(["check", "--format", "json", "--", Self.ribHouse, "--quiet", "--bug", "forgotten-detach"])
        #expect(result.status == 1, "\(result)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
        let traces = try #require(report["traces"] as? [[String: Any]])
        #expect(traces.count == 1)
        #expect(traces.first?["app"] as? String == "rib-house")
        let rules = (traces.first?["findings"] as? [[String: Any]] ?? []).compactMap { $0["rule"] as? String }
        #expect(Set(rules) == ["view-gone-still-attached"], "\(result)")
    }

    @Test("a command that fails and writes no trace: its exit status, and a line saying so")
    func commandWithoutTrace() async throws {
        let result = try await CLIHarness.inspect(["check", "--", "/bin/sh", "-c", "exit 3"])
        let line = try result.expectOneStderrLine(status: 3, emptyStdout: true)
        #expect(line.contains("'/bin/sh -c exit 3' wrote no trace"), "\(result)")
        // A command that succeeds without a trace is unusable input.
        let quiet = try await CLIHarness.inspect(["check", "--", "/bin/sh", "-c", "exit 0"])
        #expect(quiet.status == 2, "\(quiet)")
        #expect(quiet.stderr.contains("wrote no trace"))
    }

    @Test("the command's own failure is passed on even when its trace is clean")
    func failingCommandStatusPassedOn() async throws {
        let scratch = try ScratchDirectory("fail-status")
        let script = try scratch.write("run.sh", "\"$1\" --speed 20 --quiet\nexit 7\n")
        let result = try await CLIHarness.inspect(["check", "--", "/bin/sh", script, Self.ribHouse])
        #expect(result.status == 7, "\(result)")
        #expect(result.stdout.contains("no findings"), "\(result)")
    }

    @Test("--trace-dir keeps the traces, which check the same afterwards")
    func traceDirectoryKept() async throws {
        let scratch = try ScratchDirectory("trace-dir")
        let directory = scratch.file("kept/traces")
        let result = try await CLIHarness.inspect(["check", "--trace-dir", directory, "--",
                                                   Self.ribHouse, "--quiet", "--bug", "retain-cycle"])
        #expect(result.status == 1, "\(result)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0.hasSuffix(".ndjson") }
        #expect(files.count == 1, "\(files)")
        let file = try #require(files.first)
        #expect(result.stdout.hasPrefix("\(directory)/\(file): "), "\(result)")
        #expect(result.stdout.contains("error[not-deallocated] LoggedInRouter#"), "\(result)")
        let again = try await CLIHarness.inspect(["check", "\(directory)/\(file)"])
        #expect(again.status == 1)
        #expect(again.stdout == result.stdout, "the kept trace checks the same")
    }

    @Test("--trace-dir refuses a directory that already holds traces, and touches nothing")
    func traceDirectoryInUse() async throws {
        let scratch = try ScratchDirectory("trace-dir-used")
        let old = try scratch.write("old.ndjson", "{\"old\":true}\n")
        let before = try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted()
        let result = try await CLIHarness.inspect(["check", "--trace-dir", scratch.path, "--", Self.ribHouse, "--speed", "20", "--quiet"])
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        #expect(line.contains("--trace-dir \(scratch.path): already holds .ndjson traces"), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).sorted() == before)
        #expect(try String(contentsOfFile: old, encoding: .utf8) == "{\"old\":true}\n")

        // A path that is a file is refused too.
        let result2 = try await CLIHarness.inspect(["check", "--trace-dir", old, "--", "/bin/sh", "-c", "exit 0"])
        #expect(result2.status == 2)
        #expect(result2.stderr.contains("exists and is not a directory"), "\(result2)")
    }

    @Test("without --trace-dir the temporary directory is removed")
    func temporaryDirectoryRemoved() async throws {
        let scratch = try ScratchDirectory("tmpdir")
        let result = try await CLIHarness.inspect(["check", "--", Self.ribHouse, "--speed", "20", "--quiet"],
                                                  environment: ["TMPDIR": scratch.path])
        #expect(result.status == 0, "\(result)")
        // The trace file is gone afterwards, so the report names the process instead.
        #expect(result.stdout.hasPrefix("rib-house (pid "), "\(result)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.path).isEmpty)
    }
}
