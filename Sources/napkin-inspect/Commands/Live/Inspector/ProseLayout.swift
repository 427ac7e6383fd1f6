/// Lays out a paragraph of the documentation (a finding rule's help, kept
/// as Markdown in ``NapkinTrace/Finding/Rule/Help``) for a terminal `width` columns wide:
/// prose and list items reflowed and wrapped (list items with a hanging
/// indent), code blocks kept line for line without their fences, blank
/// lines kept, links to other sections of the page reduced to their text.
enum ProseLayout {
    /// The lines of `markdown`, each at most `width` characters (code lines
    /// are left to be cut by the screen), every one after `indent`.
    static func lines(_ markdown: String, width: Int, indent: String = "") -> [String] {
        let width = max(10, width - indent.count)
        var blocks: [(text: String, hanging: String, verbatim: Bool)] = []
        var inCode = false
        var open = false  // whether the last block is prose that a following line continues
        for raw in SARIFRules.withoutPageLinks(markdown).split(separator: "\n", omittingEmptySubsequences: false) {
            let line = String(raw)
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("```") {
                inCode.toggle()
                open = false
                continue
            }
            if inCode {
                blocks.append(("  " + line, "", true))
                continue
            }
            if trimmed.isEmpty {
                blocks.append(("", "", true))
                open = false
                continue
            }
            if isListItem(trimmed) {
                let lead = String(repeating: " ", count: line.count - trimmed.count)
                blocks.append((lead + trimmed, lead + "  ", false))
                open = true
            } else if open {
                blocks[blocks.count - 1].text += " " + trimmed
            } else {
                blocks.append((String(trimmed), "", false))
                open = true
            }
        }
        var out: [String] = []
        for block in blocks {
            if block.verbatim {
                out.append(block.text.isEmpty ? "" : indent + block.text)
            } else {
                out += wrap(block.text, width: width, hanging: block.hanging).map { indent + $0 }
            }
        }
        return out
    }

    /// `text` cut at spaces into lines of at most `width` characters (a
    /// longer word is cut), every line after the first starting with `hanging`.
    static func wrap(_ text: String, width: Int, hanging: String = "") -> [String] {
        let width = max(hanging.count + 4, width)
        var lines: [String] = []
        var line = ""  // the line being filled, after its lead
        var hasWord = false
        for piece in text.split(separator: " ") {
            var word = Substring(piece)
            if hasWord && line.count + 1 + word.count <= width {
                line += " " + word
                continue
            }
            if hasWord {
                lines.append(line)
                line = hanging
            }
            while line.count + word.count > width {
                let room = width - line.count
                lines.append(line + word.prefix(room))
                word = word.dropFirst(room)
                line = hanging
            }
            line += word
            hasWord = true
        }
        if hasWord { lines.append(line) }
        return lines
    }

    /// Whether `line` starts a Markdown list item (`- `, `* `, `1. `).
    private static func isListItem(_ line: Substring) -> Bool {
        if line.hasPrefix("- ") || line.hasPrefix("* ") { return true }
        let digits = line.prefix { $0.isASCII && $0.isNumber }
        return !digits.isEmpty && line.dropFirst(digits.count).hasPrefix(". ")
    }
}
