import NapkinTrace

/// Draws traces as Mermaid diagrams that mermaid.js 11 and GitHub Markdown render:
/// the tree as a flowchart (``flowchart(_:findings:)``), lifecycles as a Gantt
/// chart (``gantt(_:filter:)``), attach/detach as a sequence diagram
/// (``sequence(_:)``). This file holds what they share.
///
/// Every piece of text that comes from the trace (type names, task labels,
/// marks, the app name) goes through ``label(_:limit:)`` (or ``statement(_:limit:)``
/// where it starts a statement), ids are always
/// `n<number>`, and every diagram is capped (nodes, participants, bars,
/// messages, characters) so that it stays under mermaid's default limits
/// (50,000 characters, 500 edges).
enum MermaidRenderer {
    /// Stop adding to a diagram once its text is this long (mermaid refuses 50,000).
    static let maxCharacters = 40_000
    /// Marks and labels longer than this are shortened.
    static let maxLabel = 80
    /// What an empty (or blank) text from the trace is shown as.
    static let emptyText = "(empty)"

    /// Trace text made safe inside a label, a title, a section, a participant
    /// alias or a note (after its colon): ``escape(_:limit:)``, without leading
    /// or trailing blanks, and blank text shown as ``emptyText`` (an empty
    /// note or name would not parse).
    static func label(_ text: String, limit: Int = maxLabel) -> String {
        let trimmed = text.trimmingSpaces(limit: limit)
        return trimmed.isEmpty ? emptyText : escape(trimmed, limit: limit)
    }

    /// Trace text that starts a statement (a Gantt task name): a ``label(_:limit:)``
    /// whose leading letter or digit is an entity code too, so that no text can
    /// start with a keyword (`click`, `title`, `section`, `excludes`, a date such
    /// as `2024-01-01`, ...) and be read as that statement. Mermaid turns entity
    /// codes back into the characters when it draws, so the text reads as written.
    static func statement(_ text: String, limit: Int = maxLabel) -> String {
        let safe = label(text, limit: limit)
        guard let first = safe.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic || ("0"..."9").contains(first) else {
            return safe
        }
        return "#\(first.value);" + String(safe.unicodeScalars.dropFirst())
    }

    /// Makes `text` safe inside a diagram statement: letters, digits and a few
    /// harmless punctuation marks are kept; everything else (quotes, `<>`, `#`,
    /// `&`, `:`, `;`, brackets, `%`, and the characters Markdown or KaTeX would
    /// act on in a flowchart label, like `*`, `_`, backticks, `~` and `$`, and all
    /// non-ASCII) becomes a Mermaid entity code `#<decimal>;`, which mermaid turns
    /// back into the character when it renders. Line breaks and tabs become
    /// spaces; other control characters are dropped. Text longer than `limit`
    /// characters is cut with an ellipsis (the cost follows `limit`, not the text).
    static func escape(_ text: String, limit: Int = maxLabel) -> String {
        var out = ""
        var taken = 0
        var lastLength = 0
        for scalar in text.unicodeScalars {
            if taken >= limit {
                out.unicodeScalars.removeLast(min(out.unicodeScalars.count, lastLength))
                out += "#8230;"
                break
            }
            let before = out.unicodeScalars.count
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", " ", ".", ",", "-", "'", "/", "+", "=", "!", "?", "(", ")":
                out.unicodeScalars.append(scalar)
            case "\n", "\r", "\t":
                out += " "
            default:
                if PrintableText.needsEscape(scalar) { continue }
                out += "#\(scalar.value);"
            }
            taken += 1
            lastLength = out.unicodeScalars.count - before
        }
        return out
    }

    /// `Type #id`, safe: how every diagram names a node.
    static func name(_ type: String, _ id: NodeID) -> String {
        label(type) + " #35;\(id)"
    }

    /// Wraps a diagram in a ```mermaid fence for Markdown.
    static func markdown(_ diagram: String) -> String {
        "```mermaid\n" + diagram + (diagram.hasSuffix("\n") ? "" : "\n") + "```\n"
    }

    /// The size `lines` add to a diagram (each with its newline).
    static func size(of lines: [String]) -> Int {
        lines.reduce(0) { $0 + $1.utf8.count + 1 }
    }
}

extension String {
    /// The first `limit` + 1 characters' worth of the text, without leading or
    /// trailing white space (enough for a label cut to `limit`).
    func trimmingSpaces(limit: Int) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in unicodeScalars.drop(while: { $0.properties.isWhitespace || PrintableText.needsEscape($0) }) {
            scalars.append(scalar)
            if scalars.count > limit { break }
        }
        while let last = scalars.last, last.properties.isWhitespace || PrintableText.needsEscape(last) { scalars.removeLast() }
        return String(scalars)
    }
}
