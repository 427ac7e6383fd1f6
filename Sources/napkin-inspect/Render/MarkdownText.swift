/// Text from a trace (type names, messages, file names) made safe inside
/// Markdown: a table cell, a list item or a heading of a pull-request comment.
///
/// The text is first made printable (``PrintableText``) and cut to a
/// length; then every character Markdown (or the HTML a comment may hold)
/// acts on is neutralised: `\`, backticks, `*`, `_`, `[`, `]`, `|`, `#`, `~`,
/// `!` and `$` get a backslash, `<`, `>` and `&` become `&lt;`, `&gt;` and
/// `&amp;`. So a type name holding a backtick, a bar or an HTML tag neither
/// breaks a table nor renders anything.
enum MarkdownText {
    /// `text`, printable, cut to about `limit` characters, and escaped for Markdown.
    static func escaped(_ text: String, limit: Int) -> String {
        var out = ""
        for character in PrintableText.printable(text, limit: limit) {
            switch character {
            case "\\", "`", "*", "_", "[", "]", "|", "#", "~", "!", "$": out += "\\" + String(character)
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            default: out.append(character)
            }
        }
        return out
    }
}
