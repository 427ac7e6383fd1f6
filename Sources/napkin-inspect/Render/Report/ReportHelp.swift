import NapkinTrace

/// The rules' help as the report shows it, folded under each finding: one
/// `<template id="help-RULE">` per rule in the page, holding a `<details>`
/// with the rule's title, *What it means* and *Fix* (``Finding/Rule/Help``,
/// the Markdown of `docs/findings.md`) as HTML made here, once per rule.
///
/// The Markdown is the little the help uses: paragraphs, `- ` lists (an
/// indented line goes on with the item), fenced code blocks, `` `code` ``,
/// `**bold**` and `*emphasis*`; a link keeps only its text (the page links
/// nowhere). Every piece of text is escaped (``CheckJUnitReport/xml(_:)``),
/// so a `<` in the help is shown, never parsed; a backtick or asterisk
/// without its pair is shown as it is.
enum ReportHelp {
    /// The templates of `rules`, one line each.
    static func templates(_ rules: [Finding.Rule]) -> String {
        rules.map { template($0) + "\n" }.joined()
    }

    /// One rule's template.
    static func template(_ rule: Finding.Rule) -> String {
        var out = "<template id=\"help-\(escaped(rule.rawValue))\"><details class=\"help\">"
        out += "<summary>\(escaped(rule.title)): what it means and how to fix it</summary>"
        out += "<h4>What it means</h4>" + html(rule.help.meaning)
        if !rule.help.fix.isEmpty { out += "<h4>Fix</h4>" + html(rule.help.fix) }
        return out + "</details></template>"
    }

    /// `markdown` as HTML: `<p>`, `<ul>` and `<pre>` blocks.
    static func html(_ markdown: String) -> String {
        var out = ""
        var paragraph: [String] = []
        var items: [String] = []
        var code: [String]?
        func closeParagraph() {
            if !paragraph.isEmpty { out += "<p>" + inline(paragraph.joined(separator: " ")) + "</p>" }
            paragraph = []
        }
        func closeList() {
            if !items.isEmpty { out += "<ul>" + items.map { "<li>" + inline($0) + "</li>" }.joined() + "</ul>" }
            items = []
        }
        for line in SARIFRules.withoutPageLinks(markdown).split(separator: "\n", omittingEmptySubsequences: false) {
            let text = String(line.drop { $0 == " " || $0 == "\t" }).trimmingTrailingSpaces()
            if let lines = code {
                if text.hasPrefix("```") {
                    out += "<pre>" + escaped(lines.joined(separator: "\n")) + "</pre>"
                    code = nil
                } else {
                    code = lines + [String(line)]
                }
            } else if text.hasPrefix("```") {
                closeParagraph()
                closeList()
                code = []
            } else if text.isEmpty {
                closeParagraph()
                closeList()
            } else if text.hasPrefix("- ") || text.hasPrefix("* ") {
                closeParagraph()
                items.append(String(text.dropFirst(2)))
            } else if !items.isEmpty {
                items[items.count - 1] += " " + text
            } else {
                paragraph.append(text)
            }
        }
        if let lines = code { out += "<pre>" + escaped(lines.joined(separator: "\n")) + "</pre>" }
        closeParagraph()
        closeList()
        return out
    }

    /// One paragraph's or item's text as HTML: code spans, bold, emphasis.
    static func inline(_ text: String) -> String {
        let pieces = text.split(separator: "`", omittingEmptySubsequences: false)
        guard pieces.count % 2 == 1 else { return emphasis(escaped(text)) }
        return pieces.enumerated().map { index, piece in
            index % 2 == 1 ? "<code>" + escaped(String(piece)) + "</code>" : emphasis(escaped(String(piece)))
        }.joined()
    }

    /// `html` with `**bold**` and `*emphasis*` as `<strong>` and `<em>`.
    private static func emphasis(_ html: String) -> String {
        wrap(wrap(html, in: "**", as: "strong"), in: "*", as: "em")
    }

    /// `text` with every pair of `marker`s around a piece replaced by the element `tag`;
    /// unchanged when a marker has no pair.
    private static func wrap(_ text: String, in marker: String, as tag: String) -> String {
        let pieces = text.split(separator: marker, omittingEmptySubsequences: false)
        guard pieces.count >= 3, pieces.count % 2 == 1 else { return text }
        return pieces.enumerated().map { index, piece in index % 2 == 1 ? "<\(tag)>\(piece)</\(tag)>" : String(piece) }.joined()
    }

    /// `text` escaped for HTML text and attribute values.
    private static func escaped(_ text: String) -> String {
        CheckJUnitReport.xml(text)
    }
}
