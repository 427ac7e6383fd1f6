import Foundation
import Testing
import TestSupport

/// `napkin-inspect check FILE|DIR...`: exit status, the rules found, and the
/// options that change them (--expect-teardown, --grace, --fail-on, --allow).
@Suite("napkin-inspect check on trace files")
struct CheckCommandTests {
    /// The finding lines of the text format, `  SEVERITY[RULE] SUBJECT: ...`.
    static func findingLines(_ text: String) -> [(severity: String, rule: String, line: String)] {
        text.split(separator: "\n").compactMap { line in
            guard line.hasPrefix("  "), !line.hasPrefix("  note:") else { return nil }
            let body = line.dropFirst(2)
            guard let open = body.firstIndex(of: "["), let close = body.firstIndex(of: "]"), open < close else { return nil }
            let severity = String(body[..<open])
            guard severity == "error" || severity == "warning" else { return nil }
            return (severity, String(body[body.index(after: open)..<close]), String(line))
        }
    }

    static func rules(_ text: String) -> Set<String> { Set(findingLines(text).map(\.rule)) }

    @Test("every example trace: exit status and exactly its bug's rule",
          arguments: ExpectedFindings.examples.filter(\.checkArguments.isEmpty))
    func exampleTrace(_ example: ExpectedFindings.Example) async throws {
        try await Self.checkExample(example)
    }

    @Test("every example trace whose finding needs options (--rounds round): exit status and exactly its bug's rule",
          arguments: ExpectedFindings.examples.filter { !$0.checkArguments.isEmpty })
    func exampleTraceWithOptions(_ example: ExpectedFindings.Example) async throws {
        try await Self.checkExample(example)
    }

    /// `check` with the example's options on its trace: its bug's rule and nothing else.
    static func checkExample(_ example: ExpectedFindings.Example) async throws {
        let expected = example.rule.map { [$0] } ?? []
        let path = CLIHarness.exampleTrace(example.name)
        let result = try await CLIHarness.inspect(["check"] + example.checkArguments + [path])
        #expect(result.status == (expected.isEmpty ? 0 : 1), "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(Self.rules(result.stdout) == Set(expected), "\(result)")
        let header = try #require(result.stdoutLines.first)
        if expected.isEmpty {
            #expect(header == "\(path): no findings (192 events, ended cleanly)")
        } else {
            let count = Self.findingLines(result.stdout).count
            #expect(header.hasPrefix("\(path): \(count) finding\(count == 1 ? "" : "s") ("), "\(header)")
        }
    }

    @Test("every fixture and clean twin: exit status and the exact rules", arguments: ExpectedFindings.allFixtureNames)
    func fixture(_ name: String) async throws {
        let expected = ExpectedFindings.fixtures[name] ?? []
        let result = try await CLIHarness.inspect(["check"] + ExpectedFindings.checkArguments(name) + [CLIHarness.fixture(name)])
        #expect(result.status == (expected.isEmpty ? 0 : 1), "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let found = Self.findingLines(result.stdout)
        #expect(found.map(\.rule).sorted() == expected.map(\.rule).sorted(), "\(result)")
        for (severity, rule, line) in found {
            let expectedSeverity = ["undetached-child", "not-deallocated", "orphaned-task", "active-after-detach", "stuck-hook",
                                    "view-gone-still-attached", "view-shown-after-detach", "growing-population", "over-budget", "alive-at-end"]
                .contains(rule) ? "error" : "warning"
            #expect(severity == expectedSeverity, "\(line)")
        }
        if name.hasSuffix("-clean") {
            let events = try Self.eventCount(CLIHarness.fixture(name))
            #expect(result.stdout == "\(CLIHarness.fixture(name)): no findings (\(events) events, ended cleanly)\n",
                    "a clean twin has no notes either: \(result)")
        }
    }

    @Test("stuck-hook: the recorded fixture fails the check naming the rule, the interactor and the hook; the same trace without its \"rev\" (an older writer) is not checked for it")
    func stuckHook() async throws {
        let path = CLIHarness.fixture("stuck-hook")
        let result = try await CLIHarness.inspect(["check", path])
        #expect(result.status == 1, "\(result)")
        let lines = Self.findingLines(result.stdout)
        #expect(lines.map(\.rule) == ["stuck-hook"], "\(result)")
        #expect(lines.first?.line.hasPrefix("  error[stuck-hook] ScoresInteractor#3: didBecomeActive has not returned 1s after it started") == true,
                "\(result)")
        #expect(lines.first?.line.hasSuffix("(seq 11, 13)") == true, "\(result)")
        let json = try await CLIHarness.inspect(["check", "--format", "json", path])
        #expect(json.status == 1 && json.stdout.contains(#""rule" : "stuck-hook""#), "\(json)")

        let scratch = try ScratchDirectory("old-writer")
        let old = try scratch.write("old.ndjson", try String.repoFile(path).replacingOccurrences(of: #","rev":1}"#, with: "}"))
        let oldResult = try await CLIHarness.inspect(["check", old])
        #expect(oldResult.status == 1, "\(oldResult)")
        #expect(Self.rules(oldResult.stdout) == ["active-after-detach", "not-deallocated"], "\(oldResult)")
    }

    @Test("every fixture file in Tests/Fixtures/traces is covered by these tests")
    func fixturesCovered() throws {
        let directory = PackagePaths.root.appendingPathComponent("Tests/Fixtures/traces")
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".ndjson") }.map { String($0.dropLast(7)) }.sorted()
        #expect(names == ExpectedFindings.allFixtureNames)
    }

    static func eventCount(_ relativePath: String) throws -> Int {
        try String.repoFile(relativePath).split(separator: "\n").filter { !$0.isEmpty }.count
    }

    @Test("a directory: every .ndjson in it, one header per trace")
    func directory() async throws {
        let result = try await CLIHarness.inspect(["check", "Tests/Fixtures/traces"])
        #expect(result.status == 1, "\(result)")
        let headers = result.stdoutLines.filter { $0.hasPrefix("Tests/Fixtures/traces/") }
        #expect(headers.count == ExpectedFindings.allFixtureNames.count)
        for name in ExpectedFindings.allFixtureNames {
            #expect(headers.contains { $0.hasPrefix("Tests/Fixtures/traces/\(name).ndjson: ") }, "no header for \(name)")
        }
        // With default options: the fixtures that need options (rounds at marks, budgets) find nothing.
        let expectedRules = Set(ExpectedFindings.fixtures.filter { ExpectedFindings.checkArguments($0.key).isEmpty }.values.flatMap { $0.map(\.rule) })
        #expect(Self.rules(result.stdout) == expectedRules)
    }

    @Test("several files: exit 1 if any has a finding, 0 if none")
    func severalFiles() async throws {
        let clean = try await CLIHarness.inspect(["check", CLIHarness.exampleTrace("clean"), CLIHarness.fixture("orphaned-task-clean")])
        #expect(clean.status == 0, "\(clean)")
        #expect(clean.stdoutLines.count == 2)
        let mixed = try await CLIHarness.inspect(["check", CLIHarness.exampleTrace("clean"), CLIHarness.fixture("orphaned-task")])
        #expect(mixed.status == 1, "\(mixed)")
        #expect(Self.rules(mixed.stdout) == ["orphaned-task"])
    }

    @Test("an unusable file among good ones: the others are checked, exit 2")
    func unusableAmongGood() async throws {
        let result = try await CLIHarness.inspect(["check", CLIHarness.fixture("not-deallocated"), "/no/such/trace.ndjson"])
        #expect(result.status == 2, "\(result)")
        #expect(Self.rules(result.stdout) == ["not-deallocated"])
        #expect(result.stderrLines == ["napkin-inspect: /no/such/trace.ndjson: cannot open: no such file (check the path)"])
    }

    // MARK: - Options

    @Test("--expect-teardown reports what is alive at the end")
    func expectTeardown() async throws {
        let plain = try await CLIHarness.inspect(["check", CLIHarness.fixture("alive-at-end")])
        #expect(plain.status == 0, "\(plain)")
        let strict = try await CLIHarness.inspect(["check", "--expect-teardown", CLIHarness.fixture("alive-at-end")])
        #expect(strict.status == 1, "\(strict)")
        let lines = Self.findingLines(strict.stdout)
        #expect(lines.count == 1)
        #expect(lines.first?.line.hasPrefix("  error[alive-at-end] RootRouter#2: still alive with 1 attached descendant") == true, "\(strict)")
        #expect(lines.first?.line.hasSuffix("(seq 3)") == true)
        for clean in [CLIHarness.fixture("alive-at-end-clean"), CLIHarness.exampleTrace("clean")] {
            let result = try await CLIHarness.inspect(["check", "--expect-teardown", clean])
            #expect(result.status == 0, "\(result)")
        }
    }

    @Test("--grace: a longer grace period leaves the check undecided, a shorter one names itself")
    func grace() async throws {
        let path = CLIHarness.fixture("not-deallocated")
        // Recorded fixtures: with any grace, their verdict does not depend on the machine.
        // Detached at 0.6 s, the trace ends at 2.6 s.
        let long = try await CLIHarness.inspect(["check", path, "--grace", "3s"])
        #expect(long.status == 0, "\(long)")
        #expect(long.stdout.contains("note: 1 check undecided"), "\(long)")
        let medium = try await CLIHarness.inspect(["check", path, "--grace=1500ms"])
        #expect(medium.status == 1, "\(medium)")
        #expect(medium.stdout.contains("still alive 1.5s later"), "\(medium)")
        let short = try await CLIHarness.inspect(["check", path, "--grace", "0.25"])
        #expect(short.status == 1)
        #expect(short.stdout.contains("still alive 250ms later"), "\(short)")
        // The undecided-at-end fixture: 200 ms before the end; a 100 ms grace decides it.
        let decided = try await CLIHarness.inspect(["check", CLIHarness.fixture("undecided-at-end"), "--grace", "100ms"])
        #expect(decided.status == 1, "\(decided)")
        #expect(Self.rules(decided.stdout) == ["not-deallocated"])
    }

    @Test("--fail-on error: warnings alone exit 0, errors still exit 1")
    func failOnError() async throws {
        let warningsOnly = try await CLIHarness.inspect(["check", CLIHarness.fixture("duplicate-child"), "--fail-on", "error"])
        #expect(warningsOnly.status == 0, "\(warningsOnly)")
        #expect(Self.rules(warningsOnly.stdout) == ["duplicate-child"], "the warning is still printed")
        let example = try await CLIHarness.inspect(["check", CLIHarness.exampleTrace("bug-early-task"), "--fail-on", "error"])
        #expect(example.status == 0, "\(example)")
        let errors = try await CLIHarness.inspect(["check", CLIHarness.fixture("orphaned-task-at-end"), "--fail-on", "error"])
        #expect(errors.status == 1, "\(errors)")
        let warningsDefault = try await CLIHarness.inspect(["check", CLIHarness.fixture("duplicate-child"), "--fail-on", "warning"])
        #expect(warningsDefault.status == 1)
    }

    // MARK: - Allow-list

    @Test("--allow: allowed findings exit 0 and are counted")
    func allowListed() async throws {
        let scratch = try ScratchDirectory("allow")
        let allow = try scratch.write("allow.txt", """
            # known, tracked elsewhere
            not-deallocated OrderRouter   # the retain cycle in checkout

            """)
        let path = CLIHarness.fixture("not-deallocated")
        let result = try await CLIHarness.inspect(["check", path, "--allow", allow])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        #expect(result.stdout.contains("\(path): no findings"))
        #expect(result.stdout.contains("note: 1 allowed by the allow-list"), "\(result)")
        #expect(Self.rules(result.stdout).isEmpty)
    }

    @Test("--allow matches a task by owner type and label; * matches anything")
    func allowTaskAndWildcard() async throws {
        let scratch = try ScratchDirectory("allow-task")
        let path = CLIHarness.fixture("orphaned-task")
        let byLabel = try scratch.write("by-label", "orphaned-task PitBoardInteractor pit-poller\n")
        let allowed = try await CLIHarness.inspect(["check", path, "--allow", byLabel])
        #expect(allowed.status == 0, "\(allowed)")

        let otherLabel = try scratch.write("other-label", "orphaned-task PitBoardInteractor other-task\n")
        let notAllowed = try await CLIHarness.inspect(["check", path, "--allow", otherLabel])
        #expect(notAllowed.status == 1, "\(notAllowed)")
        #expect(Self.rules(notAllowed.stdout) == ["orphaned-task"])

        let everything = try scratch.write("everything", "* *\n")
        let both = try await CLIHarness.inspect(["check", CLIHarness.fixture("orphaned-task-at-end"), "--allow", everything])
        #expect(both.status == 0, "\(both)")
        #expect(both.stdout.contains("note: 2 allowed by the allow-list"), "\(both)")
    }

    @Test("--allow: a file with CRLF line endings (edited on Windows) works line by line")
    func allowListCRLF() async throws {
        let scratch = try ScratchDirectory("allow-crlf")
        let allow = try scratch.write("allow.txt", "# known\r\nnot-deallocated OrderRouter # cycle\r\norphaned-task GoneInteractor\r\n")
        let result = try await CLIHarness.inspect(["check", CLIHarness.fixture("not-deallocated"), "--allow", allow])
        let note = try result.expectOneStderrLine(status: 0, emptyStdout: false)
        #expect(result.stdout.contains("note: 1 allowed by the allow-list"), "\(result)")
        #expect(note.contains("allow-list line 3 (orphaned-task GoneInteractor) matched nothing"), "\(result)")
    }

    @Test("--allow with an unknown rule: exit 2 naming file:line")
    func allowUnknownRule() async throws {
        let scratch = try ScratchDirectory("allow-bad")
        let allow = try scratch.write("allow.txt", "# comment\n\nnot-a-rule SomeRouter\n")
        let result = try await CLIHarness.inspect(["check", CLIHarness.fixture("not-deallocated"), "--allow", allow])
        let line = try result.expectOneStderrLine(status: 2, emptyStdout: true)
        #expect(line.hasPrefix("napkin-inspect: \(allow):3: unknown rule 'not-a-rule'"), "\(line)")
        #expect(line.contains("not-deallocated"), "the message lists the rules")

        let tooMany = try scratch.write("too-many.txt", "orphaned-task A b c\n")
        let result2 = try await CLIHarness.inspect(["check", CLIHarness.fixture("not-deallocated"), "--allow", tooMany])
        #expect(result2.status == 2)
        #expect(result2.stderrLines == ["napkin-inspect: \(tooMany):1: too many words; an entry is RULE [TYPE [LABEL]]"])

        let missing = scratch.file("missing.txt")
        let result3 = try await CLIHarness.inspect(["check", CLIHarness.fixture("not-deallocated"), "--allow", missing])
        let cannotRead = try result3.expectOneStderrLine(status: 2, emptyStdout: false)
        #expect(cannotRead.contains("cannot read the allow-list \(missing)"))
    }

    @Test("--allow: an entry that matched nothing gets a note on stderr")
    func allowUnused() async throws {
        let scratch = try ScratchDirectory("allow-unused")
        let allow = try scratch.write("allow.txt", "not-deallocated OrderRouter\norphaned-task GoneInteractor\n")
        let result = try await CLIHarness.inspect(["check", CLIHarness.fixture("not-deallocated"), "--allow", allow])
        let note = try result.expectOneStderrLine(status: 0, emptyStdout: false)
        #expect(note.contains("note: allow-list line 2 (orphaned-task GoneInteractor) matched nothing"), "\(note)")
        #expect(note.contains("remove it"))
    }
}
