import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import NapkinTrace
import Testing
@testable import napkin_inspect

/// What every `check` format says besides the findings: the findings the
/// analysis did not keep, and the trace's own problems (unusable, corrupt).
@Suite("check reports: findings not kept, trace problems, hostile text")
struct CheckReportSlotsTests {
    static let leak = FindingGroupsTests.leak("ItemRouter", 4)
    static let trace = FindingGroupsTests.checked([leak], notKept: 12_345, problems: ["sequence numbers go backwards at line 9"])

    @Test("text: a problem line per trace problem, and a note for the findings not kept")
    func text() {
        let text = CheckTextReport.render([Self.trace], style: .plain)
        #expect(text.contains("\n  trace problem: sequence numbers go backwards at line 9\n"))
        #expect(text.contains("  note: 12,345 more findings were established but not kept (the analysis keeps the first 10,000)"))
        let unusable = CheckTextReport.render([CheckedTrace(unreadable: "x.ndjson", problem: "x.ndjson: not a napkin trace")], style: .plain)
        #expect(unusable == "x.ndjson: 1 trace problem\n  trace problem: unusable: not a napkin trace\n  note: the trace has no end record (the app crashed, was killed, or is still running)\n")
    }

    @Test("json: trace_problems and findings_not_kept, per trace and in the summary")
    func json() throws {
        let object = try #require(JSONSerialization.jsonObject(with: Data(CheckJSONReport.render([Self.trace]).utf8)) as? [String: Any])
        let summary = try #require(object["summary"] as? [String: Int])
        #expect(summary["findings_not_kept"] == 12_345 && summary["trace_problems"] == 1)
        #expect(object["clean"] as? Bool == false)
        let trace = try #require((object["traces"] as? [[String: Any]])?.first)
        #expect(trace["trace_problems"] as? [String] == ["sequence numbers go backwards at line 9"])
        #expect(trace["findings_not_kept"] as? Int == 12_345)
    }

    @Test("junit: a trace-integrity test case failing with the problems; the findings not kept in the failure message")
    func junit() throws {
        let xml = CheckJUnitReport.render([Self.trace])
        #expect(xml.contains(#"<testcase classname="napkin-inspect.t.ndjson" name="trace-integrity" time="0">"#))
        #expect(xml.contains(#"<failure message="1 trace problem" type="trace-integrity">sequence numbers go backwards at line 9</failure>"#))
        #expect(xml.contains("12,345 more findings (of any rule) were established but not kept"))
        #if canImport(FoundationXML) || os(macOS)
        _ = try XMLDocument(data: Data(xml.utf8), options: [])
        #endif
    }

    @Test("github: an error per trace problem, a warning for the findings not kept")
    func github() {
        let lines = CheckGitHubReport.render([Self.trace]).split(separator: "\n").map(String.init)
        #expect(lines.first == "::error title=napkin trace problem::sequence numbers go backwards at line 9 (t.ndjson)")
        #expect(lines.last == "::warning title=napkin findings not kept::12,345 more findings were established but not kept (the analysis keeps the first 10,000) in t.ndjson")
    }

    @Test("sarif: a trace-integrity error per trace problem, a warning notification for the findings not kept")
    func sarif() throws {
        let log = try SARIFValidation.check(CheckSARIFReport.render([Self.trace], sources: SourceRoot(directory: "/nonexistent"), exitStatus: 2))
        #expect(log.results.map { $0["ruleId"] as? String } == ["trace-integrity", "not-deallocated"])
        #expect(SARIFValidation.messageText(log.results.first?["message"]) == "Trace problem in t.ndjson: sequence numbers go backwards at line 9")
        let notes = log.invocation["toolExecutionNotifications"] as? [[String: Any]] ?? []
        #expect(notes.map { SARIFValidation.messageText($0["message"]) }
            == ["t.ndjson: 12,345 more findings were established but not kept (the analysis keeps the first 10,000)"])
    }

    @Test("every format stays valid and printable whatever the trace's text holds")
    func hostileText() throws {
        let nasty = "N\u{0}\u{1B}]0;x\u{07}\u{9B}2J\u{7F}\u{202E}<&>\"'\n\r::error::%"
        let finding = Finding(rule: .orphanedTask, subject: .task, type: nasty, id: 3, label: nasty, seqs: [1], time: 0, message: nasty)
        var trace = FindingGroupsTests.checked([finding], problems: [nasty])
        trace.path = nasty + ".ndjson"
        let outputs = [CheckTextReport.render([trace], style: .plain), CheckJSONReport.render([trace]),
                       CheckJUnitReport.render([trace]), CheckGitHubReport.render([trace]),
                       CheckSARIFReport.render([trace], sources: SourceRoot(directory: "/nonexistent"), exitStatus: 2)]
        for output in outputs {
            #expect(OutputSafety.problem(in: Data(output.utf8)) == nil, "\(output)")
        }
        let json = try #require(JSONSerialization.jsonObject(with: Data(outputs[1].utf8)) as? [String: Any])
        let traces = try #require(json["traces"] as? [[String: Any]])
        #expect(traces.first?["path"] as? String == nasty + ".ndjson", "JSON keeps the text exactly")
        #if canImport(FoundationXML) || os(macOS)
        _ = try XMLDocument(data: Data(outputs[2].utf8), options: [])
        #endif
        // Each annotation is one line: a line break in the trace cannot start a workflow command of its own.
        #expect(outputs[3].split(separator: "\n").allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") })
        // SARIF: valid, the trace's name kept exactly, its URI encoded.
        let sarif = try SARIFValidation.check(outputs[4])
        let properties = try #require(sarif.results.first?["properties"] as? [String: Any])
        #expect(properties["trace"] as? String == nasty + ".ndjson")
    }
}
