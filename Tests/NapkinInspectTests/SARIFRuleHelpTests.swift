import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect

/// The rule help of `check --format sarif` (``SARIFRuleHelp``) says what
/// docs/findings.md says: for each rule, the paragraph after **What it
/// means.**, **Typical cause.** and **Fix.**, each with the list or code
/// block that follows it when it ends with a colon.
@Suite("SARIF rule help, kept in sync with docs/findings.md")
struct SARIFRuleHelpTests {
    /// The lines of each rule's section of docs/findings.md, by rule id.
    static func sections() throws -> [String: [String]] {
        var sections: [String: [String]] = [:]
        var current: String?
        for line in try String.repoFile("docs/findings.md").components(separatedBy: "\n") {
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

    @Test("the table has one entry per rule, in registry order")
    func entries() {
        #expect(SARIFRuleHelp.table.map(\.rule) == Finding.Rule.allCases.map(\.rawValue))
    }

    @Test("each rule's three parts are the documentation's, word for word", arguments: Finding.Rule.allCases.map(\.rawValue))
    func inSync(_ rule: String) throws {
        let section = try #require(try Self.sections()[rule], "docs/findings.md has no section for \(rule)")
        let help = try #require(SARIFRuleHelp.paragraphs(rule), "SARIFRuleHelp has no entry for \(rule): copy its section's paragraphs")
        for (label, text) in [("**What it means.**", help.meaning), ("**Typical cause.**", help.cause), ("**Fix.**", help.fix)] {
            let documented = try #require(Self.part(label, of: section), "docs/findings.md, \(rule): no paragraph \(label)")
            #expect(text == documented, "SARIFRuleHelp, \(rule), \(label) differs from docs/findings.md")
        }
    }

    @Test("the help as written: labels, the three parts, links to the page's own sections as text, the documentation last")
    func rendered() throws {
        let rule = Finding.Rule.notDeallocated
        let descriptor = SARIFRules.descriptor(rule)
        let markdown = try #require(descriptor.help.markdown)
        let help = try #require(SARIFRuleHelp.paragraphs(rule.rawValue))
        #expect(markdown.hasPrefix("**What it means.** One of two things"))
        #expect(markdown.contains("\n\n**Typical cause.** " + help.cause + "\n\n**Fix.** "))
        #expect(markdown.hasSuffix("More, with an example trace: `docs/findings.md#not-deallocated` in napkin-inspect's documentation."))
        #expect(descriptor.help.text.hasPrefix("What it means. One of two things"))
        #expect(!descriptor.help.text.contains("**"))
        #expect(descriptor.shortDescription.text == rule.title && descriptor.fullDescription.text == rule.summary)
        #expect(descriptor.name == "NotDeallocated" && descriptor.id == "not-deallocated")
        // double-attach and event-after-deinit link to other rules' sections (`[...](#view-shown-after-detach)`).
        let withLinks = SARIFRules.descriptors.map { $0.help.markdown ?? "" }.joined()
        #expect(!withLinks.contains("](#"))
    }

    @Test("links to the page's own anchors keep their text; other brackets and links stay")
    func pageLinks() {
        #expect(SARIFRules.withoutPageLinks("an [`orphaned-task`](#orphaned-task) instead") == "an `orphaned-task` instead")
        #expect(SARIFRules.withoutPageLinks("{ [weak self] in }, then [a](#b) and [c](https://x.y/#d)") == "{ [weak self] in }, then a and [c](https://x.y/#d)")
        #expect(SARIFRules.withoutPageLinks("[unclosed](#x") == "[unclosed](#x")
        #expect(SARIFRules.withoutPageLinks("no links") == "no links")
    }
}
