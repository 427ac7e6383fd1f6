import Foundation
import Testing
import TestSupport

/// The harness the end-to-end tests rely on: the built binaries are found,
/// programs run in the repository root with the given environment and stdin,
/// and a program that hangs is killed with everything it started.
@Suite("CLI harness")
struct CLIHarnessTests {
    @Test("the built napkin-inspect and rib-house are found next to the tests")
    func binaries() {
        #expect(FileManager.default.isExecutableFile(atPath: CLIHarness.inspectPath), "\(CLIHarness.inspectPath)")
        #expect(FileManager.default.isExecutableFile(atPath: CLIHarness.ribHousePath), "\(CLIHarness.ribHousePath)")
        #expect(FileManager.default.fileExists(atPath: PackagePaths.root.appendingPathComponent("Package.swift").path))
    }

    @Test("a program is found in any directory of the search path, not only in the usual places")
    func executableOnPath() throws {
        let scratch = try ScratchDirectory("path")
        let program = try scratch.write("napkin-e2e-probe", "#!/bin/sh\n")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: program)
        #expect(CLIHarness.executable(named: "napkin-e2e-probe", searchPath: "/nonexistent:\(scratch.path)") == program)
        #expect(CLIHarness.executable(named: "napkin-e2e-probe", searchPath: "/nonexistent") == nil)
        #expect(CLIHarness.executable(named: "sh", searchPath: "") == "/usr/bin/sh" || CLIHarness.executable(named: "sh", searchPath: "") == "/bin/sh")
    }

    @Test("working directory, environment, stdin, stdout and stderr")
    func plumbing() async throws {
        let result = try await CLIHarness.run("/bin/sh", ["-c", "pwd -P; echo \"$NAPKIN_E2E_VALUE\"; cat; echo oops >&2; exit 4"],
                                              environment: ["NAPKIN_E2E_VALUE": "hello"], stdin: .data(Data("from stdin\n".utf8)))
        #expect(result.status == 4)
        let root = PackagePaths.root.resolvingSymlinksInPath().path
        #expect(result.stdoutLines == [root, "hello", "from stdin"], "\(result)")
        #expect(result.stderr == "oops\n")
    }

    @Test("NO_COLOR and NAPKIN_TRACE of the test run do not leak into the programs")
    func cleanEnvironment() async throws {
        let result = try await CLIHarness.run("/bin/sh", ["-c", "echo \"[${NO_COLOR-unset}] [${NAPKIN_TRACE-unset}]\""])
        #expect(result.stdout == "[unset] [unset]\n")
    }

    @Test("a program that outlives its timeout is killed, with what it started")
    func timeout() async throws {
        let scratch = try ScratchDirectory("timeout")
        let pidFile = scratch.file("child.pid")
        do {
            // `sleep 600`, not 60: a loaded machine running the sanitizer once held
            // this test's task back for over a minute, and the program had ended.
            _ = try await CLIHarness.run("/bin/sh", ["-c", "sleep 600 & echo $! > '\(pidFile)'; wait"], timeout: 1)
            Issue.record("no timeout")
        } catch let error as CLITimeout {
            #expect(error.command.first == "/bin/sh")
        }
        let text = try String(contentsOfFile: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        let child = try #require(pid_t(text))
        // The killed sleep is reaped by init; it may take a moment to disappear.
        var gone = false
        for _ in 0..<200 where !gone {
            gone = Self.isGone(child)
            if !gone { try await Task.sleep(for: .milliseconds(10)) }
        }
        #expect(gone, "the background child \(child) survived")
    }

    /// Whether `pid` no longer runs (gone, or a zombie waiting for its reaper).
    static func isGone(_ pid: pid_t) -> Bool {
        #if os(Linux)
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { return true }
        // "pid (comm) S ...": the state follows the last ')'.
        guard let close = stat.lastIndex(of: ")") else { return true }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).hasPrefix("Z")
        #else
        return kill(pid, 0) != 0 && errno == ESRCH
        #endif
    }
}
