import NapkinTrace

/// Draws traces as Mermaid diagrams that mermaid.js 11 and GitHub Markdown render:
/// the tree as a flowchart (``flowchart(_:findings:)``), lifecycles as a Gantt
/// chart (``gantt(_:filter:)``), attach/detach as a sequence diagram
/// (``sequence(_:)``). This file holds what they share.
///
/// Every piece of text that comes from the trace (type names, task labels,
/// marks) goes through ``escape(_:limit:)``, ids are always `n<number>`, and every
/// diagram is capped (nodes, participants, bars, messages, characters) so that it
/// stays under mermaid's default limits (50,000 characters, 500 edges).
enum MermaidRenderer {
    /// Stop adding to a diagram once its text is this long (mermaid refuses 50,000).
    static let maxCharacters = 40_000
    /// Marks and labels longer than this are shortened.
    static let maxLabel = 80

    /// Makes `text` safe inside any label, title, section, task name, participant
    /// alias or note: letters, digits and a few harmless punctuation marks are kept;
    /// everything else (quotes, `<>`, `#`, `&`, `:`, `;`, brackets, `%`, and the
    /// characters Markdown or KaTeX would act on in a flowchart label, like `*`,
    /// `_`, backticks, `~` and `$`, and all non-ASCII) becomes a Mermaid entity code
    /// `#<decimal>;`, which mermaid turns back into the character when it renders.
    /// Line breaks and tabs become spaces; other control characters are dropped.
    /// Text longer than `limit` characters is cut with an ellipsis.
    static func escape(_ text: String, limit: Int = maxLabel) -> String {
        var source = text
        if source.count > limit { source = String(source.prefix(max(1, limit - 1))) + "\u{2026}" }
        var out = ""
        out.reserveCapacity(source.utf8.count)
        for scalar in source.unicodeScalars {
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", " ", ".", ",", "-", "'", "/", "+", "=", "!", "?", "(", ")":
                out.unicodeScalars.append(scalar)
            case "\n", "\r", "\t":
                out += " "
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || (0x80..<0xA0).contains(scalar.value) { continue }
                out += "#\(scalar.value);"
            }
        }
        return out
    }

    /// `Type #id`, escaped: how every diagram names a node.
    static func name(_ type: String, _ id: NodeID) -> String {
        escape(type) + " #35;\(id)"
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
