import NapkinTrace
import Testing
import TestSupport

/// The registry of finding rules, and everything a rule must come with: a
/// new rule that is half done (no fixture, no documentation, no tests)
/// fails here, naming what is missing.
@Suite("Finding rules")
struct FindingRulesTests {
    /// `not-deallocated` → `NotDeallocated`.
    static func typeName(_ rule: Finding.Rule) -> String {
        rule.rawValue.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
    }

    /// `not-deallocated` → `notDeallocated`, the name of the rule's `Finding.Rule` constant.
    static func memberName(_ rule: Finding.Rule) -> String {
        let name = typeName(rule)
        return name.prefix(1).lowercased() + name.dropFirst()
    }

    @Test("rule ids are unique, lowercase words joined by hyphens, and each finds its rule again")
    func identifiers() {
        let ids = Finding.Rule.allCases.map(\.rawValue)
        #expect(Set(ids).count == ids.count, "\(ids)")
        for rule in Finding.Rule.allCases {
            #expect(rule.rawValue.allSatisfy { $0 == "-" || ("a"..."z").contains($0) }, "\(rule)")
            #expect(!rule.rawValue.hasPrefix("-") && !rule.rawValue.hasSuffix("-") && !rule.rawValue.contains("--"))
            #expect(Finding.Rule(rawValue: rule.rawValue) == rule)
            #expect(rule.documentation == "docs/findings.md#\(rule.rawValue)")
            #expect(!rule.title.isEmpty && !rule.summary.isEmpty, "\(rule)")
        }
        #expect(Finding.Rule(rawValue: "no-such-rule") == nil)
    }

    @Test("every rule has a fixture named after it in expected-findings.json that shows it")
    func everyRuleHasAFixture() throws {
        let expected = try ExpectedFindings.load()
        for rule in Finding.Rule.allCases {
            let shown = expected.cases.filter { $0.fixture == rule.rawValue }.flatMap(\.findings).map(\.rule)
            #expect(shown.contains(rule.rawValue), "no case for \(rule.rawValue).ndjson showing \(rule.rawValue) in expected-findings.json")
            #expect(ExpectedFindings.rule(writtenFor: rule.rawValue) == rule)
        }
    }

    @Test("every rule has a section in docs/findings.md, under its id")
    func everyRuleIsDocumented() throws {
        let headings = Set(try PackagePaths.text("docs/findings.md").split(separator: "\n").filter { $0.hasPrefix("## ") }.map(String.init))
        for rule in Finding.Rule.allCases {
            #expect(headings.contains("## `\(rule.rawValue)`"), "docs/findings.md has no section \"## `\(rule.rawValue)`\"")
        }
    }

    @Test("the table at the top of docs/findings.md lists every rule, in registry order, with its severity and summary")
    func tableOfRules() throws {
        let rows = try PackagePaths.text("docs/findings.md").split(separator: "\n").filter { $0.hasPrefix("| [`") }.map(String.init)
        let expected = Finding.Rule.allCases.map { "| [`\($0.rawValue)`](#\($0.rawValue)) | \($0.severity.rawValue) | \($0.summary) |" }
        #expect(rows == expected)
    }

    @Test("every rule has a test file named after it that tests it, and every rule test file has its rule's source file")
    func everyRuleHasTests() throws {
        let testFiles = try PackagePaths.files(in: "Tests/NapkinTraceTests/Analysis/Rules", endingIn: "RuleTests.swift")
        let sourceFiles = try PackagePaths.files(in: "Sources/NapkinTrace/Analysis/Rules", endingIn: "Rule.swift")
        for rule in Finding.Rule.allCases {
            let file = Self.typeName(rule) + "RuleTests.swift"
            guard testFiles.contains(file) else {
                Issue.record("no Tests/NapkinTraceTests/Analysis/Rules/\(file) for \(rule.rawValue)")
                continue
            }
            let text = try PackagePaths.text("Tests/NapkinTraceTests/Analysis/Rules/" + file)
            #expect(text.contains("cases(writtenFor: .\(Self.memberName(rule)))"), "\(file) does not check the fixtures of \(rule.rawValue)")
        }
        #expect(testFiles.map { $0.replacingOccurrences(of: "RuleTests.swift", with: "Rule.swift") } == sourceFiles)
        let registered = Set(Finding.Rule.allCases.map { Self.typeName($0) + "Rule.swift" })
        #expect(Set(sourceFiles).subtracting(registered).isEmpty,
                "rule files with no case in RuleID (Analysis/RuleID.swift): \(Set(sourceFiles).subtracting(registered).sorted())")
        #expect(registered.subtracting(sourceFiles).isEmpty,
                "rules in RuleID without their file in Analysis/Rules: \(registered.subtracting(sourceFiles).sorted())")
    }
}
