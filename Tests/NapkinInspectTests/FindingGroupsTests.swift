import NapkinTrace
import Testing
@testable import napkin_inspect

/// Repeated findings of one rule about one type are grouped: the first few,
/// then a count, so that one other leak is never buried.
@Suite("finding groups")
struct FindingGroupsTests {
    static func leak(_ type: String, _ id: NodeID, rule: Finding.Rule = .notDeallocated) -> Finding {
        Finding(rule: rule, subject: .router, type: type, id: id, seqs: [id], time: 0, message: "leaked")
    }

    @Test("groups by rule and type, in the order of their first finding; three shown, the rest counted")
    func grouping() {
        var findings = (0..<4_815).map { Self.leak("ItemRouter", NodeID(10 + $0)) }
        findings.insert(Self.leak("CartRouter", 5), at: 2_000)
        findings.append(Self.leak("ItemRouter", 99_999, rule: .doubleAttach))
        let groups = FindingGroups(findings).groups
        #expect(groups.map(\.type) == ["ItemRouter", "CartRouter", "ItemRouter"])
        #expect(groups.map(\.rule) == [.notDeallocated, .notDeallocated, .doubleAttach])
        #expect(groups[0].shown.map(\.id) == [10, 11, 12])
        #expect(groups[0].more == 4_812)
        #expect(groups[0].moreText == "\u{2026} and 4,812 more like it (not-deallocated ItemRouter)")
        #expect(groups[1].shown.count == 1 && groups[1].more == 0)
    }

    @Test("the text lists put the other leak on screen, right after the first three")
    func lines() {
        let findings = (0..<20).map { Self.leak("ItemRouter", NodeID($0 + 1)) } + [Self.leak("OtherRouter", 100)]
        let lines = FindingLine.lines(findings, style: .plain)
        #expect(lines.count == 5)
        #expect(lines[3] == "\u{2026} and 17 more like it (not-deallocated ItemRouter)")
        #expect(lines[4].hasPrefix("error[not-deallocated] OtherRouter#100: leaked"))
        let text = CheckTextReport.render([Self.checked(findings)], style: .plain)
        #expect(text.contains("  \u{2026} and 17 more like it (not-deallocated ItemRouter)\n  error[not-deallocated] OtherRouter#100"))
    }

    @Test("GitHub gets at most three annotations per group, and one that counts the rest")
    func github() {
        let findings = (0..<50).map { Self.leak("ItemRouter", NodeID($0 + 1)) }
        let lines = CheckGitHubReport.render([Self.checked(findings)]).split(separator: "\n")
        #expect(lines.count == 4)
        #expect(lines[3].hasPrefix("::error title=napkin not-deallocated::\u{2026} and 47 more like it (not-deallocated ItemRouter) in t.ndjson"))
    }

    @Test("JSON and JUnit keep every finding")
    func machineFormatsKeepAll() {
        let findings = (0..<50).map { Self.leak("ItemRouter", NodeID($0 + 1)) }
        let json = CheckJSONReport.render([Self.checked(findings)])
        #expect(json.components(separatedBy: "\"rule\" : \"not-deallocated\"").count == 51)
        let junit = CheckJUnitReport.render([Self.checked(findings)])
        #expect(junit.components(separatedBy: "error[not-deallocated] ItemRouter#").count == 51)
    }

    static func checked(_ findings: [Finding], notKept: Int = 0, problems: [String] = []) -> CheckedTrace {
        var overview = TraceOverview(unreadable: "t.ndjson")
        overview.events = 10
        overview.endedCleanly = true
        return CheckedTrace(overview: overview, undecided: 0, findings: findings, allowed: [], findingsNotKept: notKept, traceProblems: problems)
    }
}
