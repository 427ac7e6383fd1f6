import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect

/// The rules of `check --format sarif` (``SARIFRules``): each rule's help
/// (``NapkinTrace/Finding/Rule/help``, which `FindingRuleHelpTests` keeps in
/// sync with docs/findings.md) as SARIF shows it.
@Suite("SARIF rules and their help")
struct SARIFRulesTests {
    @Test("the help as written: labels, the three parts, links to the page's own sections as text, the documentation last")
    func rendered() throws {
        let rule = Finding.Rule.notDeallocated
        let descriptor = SARIFRules.descriptor(rule)
        let markdown = try #require(descriptor.help.markdown)
        let help = rule.help
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
