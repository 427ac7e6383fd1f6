import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// `check --format json|junit|github`, parsed as the tools that consume them
/// would, against docs/check-output.md.
@Suite("napkin-inspect check output formats")
struct CheckFormatsTests {
    // MARK: - JSON

    static func report(_ result: CLIResult) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "not a JSON object: \(result)")
    }

    static let findingKeys: Set<String> = ["rule", "severity", "subject", "type", "id", "label", "seqs", "time_ns", "message", "fingerprint",
                                           "locations", "tests", "retainers", "runs", "of", "count", "first_run"]
    static let traceKeys: Set<String> = ["path", "app", "pid", "events", "ended_cleanly", "dropped_events", "undecided",
                                         "duration_ns", "findings", "allowed", "known", "findings_not_kept", "trace_problems"]

    /// Checks one finding object against the documented shape; returns it as an ``ExpectedFindings/Reported``.
    static func checkFinding(_ finding: [String: Any]) throws -> ExpectedFindings.Reported {
        #expect(Set(finding.keys).isSubset(of: findingKeys), "undocumented keys: \(finding.keys)")
        let rule = try #require(finding["rule"] as? String)
        let known = try #require(Finding.Rule(rawValue: rule), "unknown rule \(rule)")
        #expect(finding["severity"] as? String == known.severity.rawValue)
        let subject = try #require(finding["subject"] as? String)
        #expect(["router", "interactor", "task", "trace"].contains(subject))
        let type = try #require(finding["type"] as? String)
        let id = try #require(finding["id"] as? Int)
        let label = finding["label"] as? String
        if subject != "task" { #expect(label == nil, "label only for tasks") }
        let seqs = try #require(finding["seqs"] as? [Int])
        #expect(seqs == seqs.sorted(), "seqs oldest first")
        #expect(finding["time_ns"] is Int)
        let message = try #require(finding["message"] as? String)
        #expect(!message.isEmpty && !message.contains("\n"))
        let fingerprint = try #require(finding["fingerprint"] as? String)
        #expect(fingerprint.count == 16 && fingerprint.allSatisfy { $0.isHexDigit && !$0.isUppercase }, "\(fingerprint)")
        if let retainers = finding["retainers"] {
            let object = try #require(retainers as? [String: Any], "retainers is an object")
            #expect(Set(object.keys).isSubset(of: ["paths", "found", "total", "note", "key"]), "undocumented keys: \(object.keys)")
            #expect(object["paths"] is [String] && object["found"] is Int, "\(object)")
        }
        return ExpectedFindings.Reported(rule: rule, subject: subject, type: type, id: id, label: label, seqs: seqs)
    }

    @Test("json: every fixture gives exactly the documented findings", arguments: ExpectedFindings.allFixtureNames)
    func jsonFixture(_ name: String) async throws {
        let path = CLIHarness.fixture(name)
        let result = try await CLIHarness.inspect(["check", "--format", "json"] + ExpectedFindings.checkArguments(name) + [path])
        let expected = ExpectedFindings.fixtures[name] ?? []
        #expect(result.status == (expected.isEmpty ? 0 : 1), "\(result)")
        #expect(result.stderr.isEmpty)
        let report = try Self.report(result)
        #expect(report["tool"] as? String == "napkin-inspect")
        #expect(report["version"] as? String == NapkinInspect.version)
        #expect(report["schema"] as? Int == 1)
        #expect(report["clean"] as? Bool == expected.isEmpty)
        let traces = try #require(report["traces"] as? [[String: Any]])
        #expect(traces.count == 1)
        let trace = try #require(traces.first)
        #expect(Set(trace.keys) == Self.traceKeys)
        #expect(trace["path"] as? String == path)
        #expect(trace["app"] as? String == "fixture")
        #expect(trace["pid"] as? Int == 4242)
        let eventCount = try CheckCommandTests.eventCount(path)
        #expect(trace["events"] as? Int == eventCount)
        #expect(trace["ended_cleanly"] as? Bool == true)
        #expect(trace["dropped_events"] as? Int == (name == "events-dropped" ? 3 : 0))
        #expect(trace["undecided"] as? Int == (name == "undecided-at-end" ? 1 : 0))
        #expect((trace["allowed"] as? [Any])?.isEmpty == true)
        #expect((trace["known"] as? [Any])?.isEmpty == true)
        #expect(report["baseline"] == nil && report["repeat"] == nil, "only with --baseline and --repeat")
        let findings = try #require(trace["findings"] as? [[String: Any]])
        let items = try findings.map(Self.checkFinding)
        #expect(items == expected)

        #expect(trace["findings_not_kept"] as? Int == 0)
        #expect((trace["trace_problems"] as? [Any])?.isEmpty == true)
        let summary = try #require(report["summary"] as? [String: Int])
        let errors = items.filter { Finding.Rule(rawValue: $0.rule)?.severity == .error }.count
        #expect(summary == ["traces": 1, "findings": items.count, "errors": errors, "warnings": items.count - errors,
                            "allowed": 0, "known": 0, "undecided": name == "undecided-at-end" ? 1 : 0, "findings_not_kept": 0, "trace_problems": 0])
    }

    @Test("json: the example traces, several at once, and the allowed ones")
    func jsonSeveralTraces() async throws {
        let scratch = try ScratchDirectory("json-allow")
        let allow = try scratch.write("allow", "not-deallocated LoggedInRouter\n")
        let paths = ExpectedFindings.examples.map { CLIHarness.exampleTrace($0.name) }
        // The examples' options together (only a bug that needs rounds has any; the others have no such marks).
        let options = ExpectedFindings.examples.flatMap(\.checkArguments)
        let result = try await CLIHarness.inspect(["check", "--format=json", "--allow", allow] + options + paths)
        #expect(result.status == 1, "\(result)")
        let report = try Self.report(result)
        #expect(report["clean"] as? Bool == false)
        let traces = try #require(report["traces"] as? [[String: Any]])
        #expect(traces.map { $0["path"] as? String } == paths)
        var total = 0
        for (trace, example) in zip(traces, ExpectedFindings.examples) {
            #expect(trace["app"] as? String == "rib-house")
            #expect(trace["ended_cleanly"] as? Bool == true)
            let findings = try (trace["findings"] as? [[String: Any]] ?? []).map(Self.checkFinding)
            let allowed = try (trace["allowed"] as? [[String: Any]] ?? []).map(Self.checkFinding)
            total += findings.count
            if example.name == "bug-retain-cycle" {
                // The allow-list allows LoggedInRouter's leak (the other not-deallocated examples leak OrderRouter).
                #expect(findings.isEmpty)
                #expect(allowed.map(\.rule) == ["not-deallocated", "not-deallocated"])
                #expect(allowed.map(\.type) == ["LoggedInRouter", "LoggedInRouter"])
            } else {
                #expect(Set(findings.map(\.rule)) == Set(example.rule.map { [$0] } ?? []), "\(example.name)")
                #expect(allowed.isEmpty)
            }
        }
        let summary = try #require(report["summary"] as? [String: Int])
        #expect(summary["traces"] == paths.count)
        #expect(summary["findings"] == total)
        #expect(summary["allowed"] == 2)
        #expect((summary["errors"] ?? -1) + (summary["warnings"] ?? -1) == total)
    }

    // MARK: - JUnit

    #if canImport(FoundationXML) || os(macOS)
    @Test("junit: a suite per trace, a test case per rule, failures only for the rules found")
    func junit() async throws {
        let paths = [CLIHarness.exampleTrace("bug-retain-cycle"), CLIHarness.fixture("orphaned-task-at-end"), CLIHarness.exampleTrace("clean")]
        let expected: [[String: Int]] = [["not-deallocated": 2], ["task-started-inactive": 1, "orphaned-task": 1], [:]]
        let result = try await CLIHarness.inspect(["check", "--format", "junit"] + paths)
        #expect(result.status == 1, "\(result)")
        let document = try XMLDocument(data: Data(result.stdout.utf8), options: [])
        let root = try #require(document.rootElement())
        let rules = Finding.Rule.allCases.map(\.rawValue)
        let caseNames = [CheckJUnitReport.integrityCase] + rules
        #expect(root.name == "testsuites")
        #expect(root.attribute(forName: "name")?.stringValue == "napkin-inspect")
        #expect(root.attribute(forName: "tests")?.stringValue == "\(paths.count * caseNames.count)")
        #expect(root.attribute(forName: "failures")?.stringValue == "3")
        let suites = root.elements(forName: "testsuite")
        #expect(suites.count == paths.count)
        for (suite, (path, found)) in zip(suites, zip(paths, expected)) {
            #expect(suite.attribute(forName: "name")?.stringValue == path)
            #expect(suite.attribute(forName: "tests")?.stringValue == "\(caseNames.count)")
            #expect(suite.attribute(forName: "failures")?.stringValue == "\(found.count)")
            let cases = suite.elements(forName: "testcase")
            #expect(cases.map { $0.attribute(forName: "name")?.stringValue ?? "" } == caseNames, "one stable test case per rule, and the trace's")
            for testCase in cases {
                let rule = testCase.attribute(forName: "name")?.stringValue ?? ""
                #expect(testCase.attribute(forName: "classname")?.stringValue == "napkin-inspect." + (path.split(separator: "/").last.map(String.init) ?? ""))
                let failures = testCase.elements(forName: "failure")
                guard let count = found[rule] else {
                    #expect(failures.isEmpty, "\(path): \(rule) must pass")
                    continue
                }
                #expect(failures.count == 1, "\(path): \(rule) must fail")
                let failure = try #require(failures.first)
                #expect(failure.attribute(forName: "type")?.stringValue == rule)
                let title = try #require(Finding.Rule(rawValue: rule)).title
                #expect(failure.attribute(forName: "message")?.stringValue?.hasPrefix("\(count) \(title) finding") == true)
                // One line per finding, each followed by the code it points at (the example traces name their code).
                // Under it, what retains the object (`retained by:` and the tally), when the trace says.
                let body = (failure.stringValue ?? "").split(separator: "\n")
                let findingLines = body.filter { !$0.hasPrefix("  ") }
                #expect(findingLines.count == count)
                #expect(findingLines.allSatisfy { $0.contains("[\(rule)]") })
                #expect(body.filter { $0.hasPrefix("  at ") || $0.hasPrefix("  in ") }.count <= count, "at most one location line per finding")
            }
        }
    }

    @Test("junit: names with XML specials and control characters still parse, and round-trip")
    func junitEscaping() async throws {
        let scratch = try ScratchDirectory("junit-escape")
        // not-deallocated.ndjson with a nasty router type name.
        let nasty = #"Order<T>&"Router's""#
        let text = try String.repoFile(CLIHarness.fixture("not-deallocated"))
            .replacingOccurrences(of: "\"OrderRouter\"", with: "\"Order<T>&\\\"Router's\\\"\\u0001\"")
        let path = try scratch.write("nasty <&>.ndjson", text)
        let result = try await CLIHarness.inspect(["check", "--format", "junit", path])
        #expect(result.status == 1, "\(result)")
        let document = try XMLDocument(data: Data(result.stdout.utf8), options: [])
        let suite = try #require(document.rootElement()?.elements(forName: "testsuite").first)
        #expect(suite.attribute(forName: "name")?.stringValue == path)
        let failing = suite.elements(forName: "testcase").filter { !$0.elements(forName: "failure").isEmpty }
        #expect(failing.count == 1)
        let failure = try #require(failing.first?.elements(forName: "failure").first)
        #expect(failure.attribute(forName: "message")?.stringValue?.contains(nasty + "\\u{1}#4") == true, "\(result)")
        #expect(failure.stringValue?.contains(nasty) == true)
    }
    #endif

    // MARK: - GitHub

    @Test("github: one ::error or ::warning per finding, the count on stderr")
    func github() async throws {
        let paths = [CLIHarness.exampleTrace("bug-retain-cycle"), CLIHarness.fixture("task-started-inactive"), CLIHarness.exampleTrace("clean")]
        let result = try await CLIHarness.inspect(["check", "--format", "github"] + paths)
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines == [
            "::error file=Examples/RibHouse/LaunchNapkin/LaunchNapkinRouter.swift,line=70,title=napkin not-deallocated%3A LoggedInRouter#6::detached, but still alive 1s later: retained by a cycle through LoggedInInteractor#5.retainedRouter (Examples/traces/bug-retain-cycle.ndjson, seq 109); retained by: LoggedInRouter#6.interactor → LoggedInInteractor#5.retainedRouter (suspect) → LoggedInRouter#6 (cycle) (1 of 1 strong reference found)",
            "::error file=Examples/RibHouse/LaunchNapkin/LaunchNapkinRouter.swift,line=70,title=napkin not-deallocated%3A LoggedInRouter#22::detached, but still alive 1s later: retained by a cycle through LoggedInInteractor#21.retainedRouter (Examples/traces/bug-retain-cycle.ndjson, seq 172); retained by: LoggedInRouter#22.interactor → LoggedInInteractor#21.retainedRouter (suspect) → LoggedInRouter#22 (cycle) (1 of 1 strong reference found)",
            "::warning title=napkin task-started-inactive%3A MenuInteractor#3 'prefetch'::task 'prefetch' started while MenuInteractor#3 was inactive; it runs until the next deactivation (start it in didBecomeActive) (Tests/Fixtures/traces/task-started-inactive.ndjson, seq 8)",
        ])
        #expect(result.stderrLines == ["napkin-inspect: 3 findings"])

        let clean = try await CLIHarness.inspect(["check", "--format", "github", CLIHarness.exampleTrace("clean")])
        #expect(clean.status == 0)
        #expect(clean.stdout.isEmpty)
        #expect(clean.stderrLines == ["napkin-inspect: no findings in 1 trace"])
    }

    @Test("github: %, CR, LF, ':' and ',' are escaped; each annotation stays on one line")
    func githubEscaping() async throws {
        let scratch = try ScratchDirectory("github-escape")
        let text = try String.repoFile(CLIHarness.fixture("task-started-inactive"))
            .replacingOccurrences(of: "\"prefetch\"", with: "\"a,b:c%d\\r\\ne\"")
        let path = try scratch.write("escape.ndjson", text)
        let result = try await CLIHarness.inspect(["check", "--format", "github", path])
        #expect(result.status == 1, "\(result)")
        #expect(result.stdoutLines.count == 1, "\(result)")
        let line = try #require(result.stdoutLines.first)
        // The line break is shown (\r\n), not sent: a workflow command reads every line of the log.
        #expect(line.hasPrefix(#"::warning title=napkin task-started-inactive%3A MenuInteractor#3 'a%2Cb%3Ac%25d\r\ne'::"#), "\(line)")
        let message = try #require(line.components(separatedBy: "'::").dropFirst().first)
        #expect(message.hasPrefix(#"task 'a,b:c%25d\r\ne' started while MenuInteractor#3 was inactive"#), "\(message)")
        #expect(!line.contains("\r"))
    }

    // MARK: - Text

    @Test("text: a header per trace with counts by severity, then one line per finding")
    func text() async throws {
        let path = CLIHarness.fixture("orphaned-task-at-end")
        let result = try await CLIHarness.inspect(["check", path])
        #expect(result.stdoutLines == [
            "\(path): 2 findings (1 error, 1 warning)",
            "  warning[task-started-inactive] ImageCacheInteractor#3 'warm-up': task 'warm-up' started while ImageCacheInteractor#3 was inactive; it runs until the next deactivation (start it in didBecomeActive) (seq 8)",
            "  error[orphaned-task] ImageCacheInteractor#3 'warm-up': task 'warm-up' (#4) was still running at the end of the trace while its owner was inactive (seq 8)",
        ])
    }
}
