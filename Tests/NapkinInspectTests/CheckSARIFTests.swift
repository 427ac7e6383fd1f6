import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// `check --format sarif` end to end: every log checked against SARIF 2.1.0
/// and GitHub code scanning's requirements (``SARIFValidation``), results
/// that point where `--format text` points, the trace itself when the trace
/// names no code, trace problems, and fingerprints that survive a new
/// recording.
@Suite("napkin-inspect check --format sarif")
struct CheckSARIFTests {
    /// `--format text`'s first `at` line of each finding, as (path, line, role) per code location.
    static func textLocations(_ path: String, options: [String] = []) async throws -> [[(path: String, line: Int, role: String)]] {
        let text = try await CLIHarness.inspect(["check", "--color", "never"] + options + [path])
        return text.stdoutLines.filter { $0.hasPrefix("    at ") }.map { line in
            line.dropFirst("    at ".count).components(separatedBy: ", ").compactMap { item in
                // `Examples/RibHouse/LoggedIn/LoggedInRouter.swift:58 (attached)`
                let parts = item.split(separator: " ")
                guard parts.count == 2, let colon = parts[0].lastIndex(of: ":"), let number = Int(parts[0][parts[0].index(after: colon)...])
                else { return nil }
                return (String(parts[0][..<colon]), number, String(parts[1].dropFirst().dropLast()))
            }
        }
    }

    @Test("every example bug: one result per finding, at the file and line --format text prints, the other lines related", .dedicatedThread, .singleThreaded,
          arguments: ExpectedFindings.examples.filter { $0.rule != nil && $0.checkArguments.isEmpty })
    func examples(_ example: ExpectedFindings.Example) async throws {
        try await Self.checkExample(example)
    }

    @Test("every example bug whose finding needs options (--rounds round): one result per finding, at the file and line --format text prints",
          .dedicatedThread, .singleThreaded,
          arguments: ExpectedFindings.examples.filter { $0.rule != nil && !$0.checkArguments.isEmpty })
    func examplesWithOptions(_ example: ExpectedFindings.Example) async throws {
        try await Self.checkExample(example)
    }

    /// SARIF and text agree on the example's findings, with its options.
    static func checkExample(_ example: ExpectedFindings.Example) async throws {
        let path = CLIHarness.exampleTrace(example.name)
        let result = try await CLIHarness.inspect(["check", "--format", "sarif"] + example.checkArguments + [path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stderr.isEmpty, "\(result)")
        let log = try SARIFValidation.check(result)
        #expect(log.invocation["executionSuccessful"] as? Bool == true)
        let expected = try await Self.textLocations(path, options: example.checkArguments)
        #expect(!expected.isEmpty && log.results.count == expected.count, "\(result)")
        for (sarif, text) in zip(log.results, expected) {
            #expect(sarif["ruleId"] as? String == example.rule)
            let first = try #require(text.first)
            #expect(first.path.hasPrefix("Examples/RibHouse/"), "the text names the app's file: \(first)")
            let place = try #require(SARIFValidation.place(sarif))
            #expect(place.uri == first.path && place.line == first.line, "\(example.name): \(place) vs \(first)")
            let primary = try #require((sarif["locations"] as? [[String: Any]])?.first)
            #expect((primary["physicalLocation"] as? [String: Any]).flatMap { ($0["artifactLocation"] as? [String: Any])?["uriBaseId"] as? String } == "%SRCROOT%")
            #expect((primary["message"] as? [String: Any])?["text"] as? String == first.role)
            let related = (sarif["relatedLocations"] as? [[String: Any]] ?? []).compactMap { location in
                SARIFValidation.place(of: location).map { ($0.uri, $0.line, (location["message"] as? [String: Any])?["text"] as? String ?? "") }
            }
            #expect(related.map(\.0) == text.dropFirst().map(\.path))
            #expect(related.map(\.1) == text.dropFirst().map(\.line))
            #expect(related.map(\.2) == text.dropFirst().map(\.role))
            let message = try #require((sarif["message"] as? [String: Any])?["text"] as? String)
            #expect(message.contains("#") && message.contains(": "), "subject: message: \(message)")
        }
    }

    @Test("the README's example: the swipe-back leak points at LoggedInRouter.swift line 58")
    func swipeBack() async throws {
        let result = try await CLIHarness.inspect(["check", "--format", "sarif", CLIHarness.exampleTrace("bug-swipe-back")])
        let log = try SARIFValidation.check(result)
        #expect(log.results.count == 1)
        let place = try #require(log.results.first.flatMap(SARIFValidation.place))
        #expect(place.uri == "Examples/RibHouse/LoggedIn/LoggedInRouter.swift" && place.line == 58)
        #expect(log.results.first?["ruleIndex"] as? Int == Finding.Rule.allCases.firstIndex(of: .viewGoneStillAttached))
        let root = try #require((log.run["originalUriBaseIds"] as? [String: [String: Any]])?["%SRCROOT%"]?["uri"] as? String)
        #expect(URL(string: root)?.standardizedFileURL.path == PackagePaths.root.standardizedFileURL.path, "\(root)")
    }

    @Test("a clean trace: no results, a successful invocation, exit 0")
    func clean() async throws {
        let result = try await CLIHarness.inspect(["check", "--format", "sarif", CLIHarness.exampleTrace("clean")])
        #expect(result.status == 0, "\(result)")
        let log = try SARIFValidation.check(result)
        #expect(log.results.isEmpty)
        #expect(log.invocation["executionSuccessful"] as? Bool == true)
        #expect((log.invocation["toolExecutionNotifications"] as? [Any])?.isEmpty == true)
    }

    /// The 1-based line of the record with sequence number `seq` in the file at `path`, read as JSON.
    static func line(of seq: Int, in path: String) throws -> Int? {
        let lines = try String.repoFile(path).components(separatedBy: "\n")
        return lines.firstIndex { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["seq"] as? Int == seq
        }.map { $0 + 1 }
    }

    @Test("a trace without code locations: each result points at its first event's line in the trace",
          arguments: ExpectedFindings.fixtures.filter { !$0.value.isEmpty }.keys.sorted().filter { name in
              // The population fixtures name the lines that created what piles up (`src`).
              (try? String.repoFile(CLIHarness.fixture(name)).contains(#""src":"#)) == false
          })
    func fixtures(_ name: String) async throws {
        let path = CLIHarness.fixture(name)
        let expected = try #require(ExpectedFindings.fixtures[name])
        let result = try await CLIHarness.inspect(["check", "--format", "sarif"] + ExpectedFindings.checkArguments(name) + [path])
        #expect(result.status == 1, "\(result)")
        let log = try SARIFValidation.check(result)
        #expect(log.results.map { $0["ruleId"] as? String ?? "" } == expected.map(\.rule))
        for (sarif, item) in zip(log.results, expected) {
            let place = try #require(SARIFValidation.place(sarif))
            #expect(place.uri == path, "the trace, relative to the source root: \(place.uri)")
            // A finding without events (events-dropped) points at the trace's first line.
            let line = try item.seqs.first.map { try Self.line(of: $0, in: path) } ?? 1
            #expect(place.line == line, "\(item)")
            #expect(sarif["relatedLocations"] == nil)
            let properties = try #require(sarif["properties"] as? [String: Any])
            #expect(properties["trace"] as? String == path)
            #expect(properties["seqs"] as? [Int] == item.seqs)
            #expect(properties["codeLocations"] == nil)
        }
    }

    @Test("a damaged trace: exit 2, an unsuccessful invocation and a trace-integrity error at the trace (outside the source root: a file URI); a missing file told on standard error only")
    func damaged() async throws {
        let scratch = try ScratchDirectory("sarif-damaged")
        // not-deallocated.ndjson without its seq 12: a sequence gap.
        let lines = try String.repoFile(CLIHarness.fixture("not-deallocated")).components(separatedBy: "\n")
        let path = try scratch.write("damaged trace #1.ndjson", lines.filter { !$0.hasPrefix(#"{"seq":12,"#) }.joined(separator: "\n"))
        let result = try await CLIHarness.inspect(["check", "--format", "sarif", path, "no-such-trace.ndjson"])
        #expect(result.status == 2, "\(result)")
        let log = try SARIFValidation.check(result)
        #expect(log.invocation["executionSuccessful"] as? Bool == false)
        let problems = log.results.filter { $0["ruleId"] as? String == "trace-integrity" }
        // The damaged trace's problems (the gap, and what follows from it), then the missing file's.
        #expect(problems.count >= 2, "\(result)")
        #expect(problems.allSatisfy { $0["ruleIndex"] as? Int == Finding.Rule.allCases.count && $0["level"] as? String == "error" })
        let damaged = try #require(problems.first)
        let message = try #require((damaged["message"] as? [String: Any])?["text"] as? String)
        #expect(message.hasPrefix("Trace problem in \(path): sequence-gap"), "\(message)")
        let place = try #require(SARIFValidation.place(damaged))
        let encoded = "file://" + path.replacingOccurrences(of: " ", with: "%20").replacingOccurrences(of: "#", with: "%23")
        #expect(place.uri == encoded && place.line == 1, "\(place)")
        // A file that does not exist is told on standard error, alone (issue 41), and has no result.
        #expect(problems.allSatisfy { SARIFValidation.place($0)?.uri != "no-such-trace.ndjson" }, "\(result)")
        #expect(result.stderr.contains("no-such-trace.ndjson: cannot open: no such file (check the path)"), "\(result)")
    }

    @Test("one bug, different recordings and ids: one fingerprint; different bugs: different fingerprints")
    func fingerprints() async throws {
        var byExample: [String: Set<String>] = [:]
        for example in ExpectedFindings.examples where example.rule != nil {
            let result = try await CLIHarness.inspect(["check", "--format", "sarif"] + example.checkArguments + [CLIHarness.exampleTrace(example.name)])
            let log = try SARIFValidation.check(result)
            let prints = log.results.compactMap(SARIFValidation.fingerprint)
            #expect(prints.count == log.results.count && prints.count >= 1)
            byExample[example.name] = Set(prints)
        }
        // Each example has two findings of one bug (different routers, ids and seqs) and one fingerprint,
        // except swipe-back (one finding), which is the forgotten detach's own line of code.
        for (name, prints) in byExample { #expect(prints.count == 1, "\(name): \(prints)") }
        #expect(byExample["bug-swipe-back"] == byExample["bug-forgotten-detach"])
        // closure-keeps-order and tab-keeps-order leak the same router at the same lines: one
        // fingerprint (it never includes what retains the object, docs/findings.md), two causes,
        // told apart by the retainer key SARIF carries beside it.
        #expect(byExample["bug-closure-keeps-order"] == byExample["bug-tab-keeps-order"])
        var keys: [String] = []
        for name in ["bug-closure-keeps-order", "bug-tab-keeps-order"] {
            let log = try SARIFValidation.check(try await CLIHarness.inspect(["check", "--format", "sarif", CLIHarness.exampleTrace(name)]))
            keys += log.results.compactMap { ($0["partialFingerprints"] as? [String: Any])?["napkinRetainer/v1"] as? String }
        }
        #expect(keys.count == 2 && Set(keys).count == 2, "\(keys)")
        let others = byExample.filter { $0.key != "bug-swipe-back" && $0.key != "bug-tab-keeps-order" }.values.flatMap { $0 }
        #expect(Set(others).count == others.count, "different bugs, different fingerprints: \(byExample)")
        // The fingerprint is NapkinTrace's, as `check --baseline` computes it.
        let finding = Finding(rule: .viewGoneStillAttached, subject: .router, type: "OrderRouter", id: 1, seqs: [], time: 0, message: "",
                              locations: [.init(.attached, CodeLocation(fileID: "RibHouse/LoggedInRouter.swift", line: 58)),
                                          .init(.created, CodeLocation(fileID: "RibHouse/OrderBuilder.swift", line: 32))])
        #expect(byExample["bug-swipe-back"] == [finding.fingerprint])
    }

    @Test("two new recordings of rib-house --bug retain-cycle: the recorded example's fingerprint, every time")
    func fingerprintsAcrossRecordings() async throws {
        let recorded = try SARIFValidation.check(try await CLIHarness.inspect(["check", "--format", "sarif", CLIHarness.exampleTrace("bug-retain-cycle")]))
        let expected = Set(recorded.results.compactMap(SARIFValidation.fingerprint))
        #expect(expected.count == 1)
        for _ in 0..<2 {
            // The default speed and grace: see `CheckRunCommandTests` for why not a shorter one.
            let result = try await CLIHarness.inspect(["check", "--format", "sarif", "--",
                                                       CLIHarness.ribHousePath, "--quiet", "--bug", "retain-cycle"])
            #expect(result.status == 1, "\(result)")
            let log = try SARIFValidation.check(result)
            #expect(!log.results.isEmpty)
            #expect(Set(log.results.compactMap(SARIFValidation.fingerprint)) == expected, "\(result)")
            // The traces were temporary, but their code is found: results point at it.
            #expect(log.results.allSatisfy { SARIFValidation.place($0)?.uri == "Examples/RibHouse/LaunchNapkin/LaunchNapkinRouter.swift" })
        }
    }

    @Test("allowed findings are not results (GitHub ignores suppressions) but a note; undecided checks a note")
    func notifications() async throws {
        let scratch = try ScratchDirectory("sarif-allow")
        let allow = try scratch.write("allow", "not-deallocated LoggedInRouter\n")
        let result = try await CLIHarness.inspect(["check", "--format", "sarif", "--allow", allow,
                                                   CLIHarness.exampleTrace("bug-retain-cycle"), CLIHarness.fixture("undecided-at-end")])
        #expect(result.status == 0, "\(result)")
        let log = try SARIFValidation.check(result)
        #expect(log.results.isEmpty)
        let notes = (log.invocation["toolExecutionNotifications"] as? [[String: Any]] ?? []).map {
            "\($0["level"] as? String ?? ""): \(($0["message"] as? [String: Any])?["text"] as? String ?? "")"
        }
        #expect(notes == [
            "note: Examples/traces/bug-retain-cycle.ndjson: 2 findings allowed by the allow-list (--allow), not written as results",
            "note: Tests/Fixtures/traces/undecided-at-end.ndjson: 1 check undecided: the trace ended less than a grace period after their event",
        ])
    }

    @Test("--source-root elsewhere: paths relative to it, and a trace outside it as a file URI")
    func sourceRoot() async throws {
        let result = try await CLIHarness.inspect(["check", "--format", "sarif", "--source-root", "Examples/RibHouse",
                                                   CLIHarness.exampleTrace("bug-swipe-back")])
        let log = try SARIFValidation.check(result)
        let place = try #require(log.results.first.flatMap(SARIFValidation.place))
        #expect(place.uri == "LoggedIn/LoggedInRouter.swift" && place.line == 58)
        let root = try #require((log.run["originalUriBaseIds"] as? [String: [String: Any]])?["%SRCROOT%"]?["uri"] as? String)
        #expect(root.hasSuffix("/Examples/RibHouse/"))

        // A fixture has no code: its results point at the trace, outside Examples/RibHouse.
        let fixture = try SARIFValidation.check(try await CLIHarness.inspect(["check", "--format", "sarif", "--source-root", "Examples/RibHouse",
                                                                              CLIHarness.fixture("not-deallocated")]))
        let trace = try #require(fixture.results.first.flatMap(SARIFValidation.place))
        #expect(trace.uri == "file://" + PackagePaths.root.appendingPathComponent(CLIHarness.fixture("not-deallocated")).standardizedFileURL.path)
    }
}
