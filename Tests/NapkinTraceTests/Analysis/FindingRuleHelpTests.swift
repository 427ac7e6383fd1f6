import Foundation
import NapkinTrace
import Testing
import TestSupport

/// Each rule's help (``Finding/Rule/help``, declared in the rule's file) says
/// what docs/findings.md says: for each rule, the paragraph after **What it
/// means.**, **Typical cause.** and **Fix.**, each with the list or code
/// block that follows it when it ends with a colon.
@Suite("Rule help, kept in sync with docs/findings.md")
struct FindingRuleHelpTests {
    /// The lines of each rule's section of docs/findings.md, by rule id.
    static func sections() throws -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current: String?
        for line in try PackagePaths.text("docs/findings.md").components(separatedBy: "\n") {
            if line.hasPrefix("## ") {
                current = line.hasPrefix("## `") && line.hasSuffix("`") ? String(line.dropFirst(4).dropLast()) : nil
                if let current { sections[current] = [] }
            } else if let current {
                sections[current]?.append(line)
            }
        }
        return sections
    }

    /// The part of `section` that starts with `label`: its paragraph (label
    /// removed), then, when it ends with a colon, the next list or fenced block.
    static func part(_ label: String, of section: [String]) -> String? {
        guard var index = section.firstIndex(where: { $0.hasPrefix(label + " ") }) else { return nil }
        var lines: [String] = []
        while index < section.count, !section[index].isEmpty {
            lines.append(section[index])
            index += 1
        }
        lines[0] = String(lines[0].dropFirst(label.count + 1))
        guard lines.last?.hasSuffix(":") == true else { return lines.joined(separator: "\n") }
        while index < section.count, section[index].isEmpty { index += 1 }
        guard index < section.count else { return lines.joined(separator: "\n") }
        if section[index].hasPrefix("```") {
            lines.append("")
            lines.append(section[index])
            index += 1
            while index < section.count, !section[index].hasPrefix("```") {
                lines.append(section[index])
                index += 1
            }
            if index < section.count { lines.append(section[index]) }
        } else if section[index].hasPrefix("- ") {
            lines.append("")
            while index < section.count, !section[index].isEmpty {
                lines.append(section[index])
                index += 1
            }
        }
        return lines.joined(separator: "\n")
    }

    @Test("each rule's three parts are the documentation's, word for word", arguments: Finding.Rule.allCases)
    func inSync(_ rule: Finding.Rule) throws {
        let section = try #require(try Self.sections()[rule.rawValue], "docs/findings.md has no section for \(rule)")
        for (label, text) in [("**What it means.**", rule.help.meaning), ("**Typical cause.**", rule.help.cause), ("**Fix.**", rule.help.fix)] {
            let documented = try #require(Self.part(label, of: section), "docs/findings.md, \(rule): no paragraph \(label)")
            #expect(text == documented, "\(rule)'s help, \(label) differs from docs/findings.md: copy the paragraph into the rule's `static let help`")
        }
    }

    @Test("the help names a command-line option only with its command (trait users read it too)", arguments: Finding.Rule.allCases)
    func optionsWithTheirCommand(_ rule: Finding.Rule) {
        for text in [rule.summary, rule.help.meaning, rule.help.cause, rule.help.fix] {
            var rest = Substring(text)
            while let option = rest.firstRange(of: "--") {
                let before = rest[..<option.lowerBound]
                #expect(before.hasSuffix("check ") || before.hasSuffix("live ") || before.hasSuffix("report "),
                        "\(rule): an option without its command: …\(before.suffix(30))--…")
                rest = rest[option.upperBound...]
            }
        }
    }
}
