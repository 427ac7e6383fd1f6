import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect

/// The rules' help in the report: the Markdown of docs/findings.md turned
/// into HTML once, in Swift, every piece of text escaped.
@Suite("report help")
struct ReportHelpTests {
    @Test("paragraphs, lists with continued items, code blocks, code spans, bold and emphasis")
    func markdownBlocks() {
        let markdown = """
            A *first* paragraph
            on two lines, with `a < b` and **bold**:

            - an item
              that goes on
            - [a link](#other-rule) keeps its text

            ```swift
            let x = y < z && w > 0
                indented()
            ```
            After.
            """
        #expect(ReportHelp.html(markdown) == "<p>A <em>first</em> paragraph on two lines, with <code>a &lt; b</code> and <strong>bold</strong>:</p>"
            + "<ul><li>an item that goes on</li><li>a link keeps its text</li></ul>"
            + "<pre>let x = y &lt; z &amp;&amp; w &gt; 0\n    indented()</pre><p>After.</p>")
    }

    @Test("a marker without its pair is shown as it is; HTML in the text is shown, not parsed")
    func unpairedAndHostile() {
        #expect(ReportHelp.html("a ` b * c ** d") == "<p>a ` b * c ** d</p>")
        #expect(ReportHelp.html("<img src=x onerror=alert(1)> & \"q\"") == "<p>&lt;img src=x onerror=alert(1)&gt; &amp; &quot;q&quot;</p>")
    }

    @Test("every rule's help: one template, its meaning and fix, no link and no raw markup from the text")
    func everyRule() throws {
        for rule in Finding.Rule.allCases {
            let template = ReportHelp.template(rule)
            #expect(template.hasPrefix("<template id=\"help-\(rule.rawValue)\"><details class=\"help\"><summary>"))
            #expect(template.hasSuffix("</details></template>"))
            #expect(template.contains("<h4>What it means</h4><p>"), "\(rule)")
            #expect(!template.contains("href") && !template.contains("](#") && !template.contains("```"), "\(rule)")
            // Only the elements the renderer makes.
            let tags = Set(template.components(separatedBy: "<").dropFirst().map { $0.prefix { $0 != ">" && $0 != " " } })
            #expect(tags.isSubset(of: ["template", "/template", "details", "/details", "summary", "/summary", "h4", "/h4", "p", "/p",
                                       "ul", "/ul", "li", "/li", "pre", "/pre", "code", "/code", "strong", "/strong", "em", "/em"]),
                    "\(rule): \(tags.sorted())")
        }
    }
}
