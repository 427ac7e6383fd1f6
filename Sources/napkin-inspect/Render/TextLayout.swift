/// Laying text out in columns on a terminal: padding, trimming, cutting
/// (around colour codes). Text from a trace is made printable first (PrintableText).
extension String {
    /// Pads with spaces to `width` display columns (counts characters).
    func padded(to width: Int) -> String {
        let n = count
        return n >= width ? self : self + String(repeating: " ", count: width - n)
    }

    /// The string without trailing spaces (escape codes are kept).
    func trimmingTrailingSpaces() -> String {
        var text = self
        while text.last == " " { text.removeLast() }
        return text
    }

    /// The string cut to `width` visible characters; ANSI colour codes do not
    /// count, and a cut string that has colour codes ends with a reset so its
    /// colour cannot bleed (a string without any gets none: plain stays plain).
    func truncatedVisible(to width: Int) -> String {
        var out = ""
        var visible = 0
        var inEscape = false
        var truncated = false
        var coloured = false
        for character in self {
            if inEscape {
                out.append(character)
                if character.isLetter { inEscape = false }
                continue
            }
            if character == "\u{1B}" {
                inEscape = true
                coloured = true
                out.append(character)
                continue
            }
            if visible >= width {
                truncated = true
                continue
            }
            out.append(character)
            visible += 1
        }
        if truncated && coloured { out += "\u{1B}[0m" }
        return out
    }
}
