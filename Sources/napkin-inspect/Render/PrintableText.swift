/// Text that came from a trace (type names, task labels, marks, the app name,
/// the end reason, unknown kind names), from a file name, or from a message
/// that quotes either, made safe to show on a terminal or in a CI log.
///
/// A trace is input, and a terminal obeys what it is sent: an escape sequence
/// in a type name could set the window title, write the clipboard (OSC 52),
/// leave the alternate screen or clear it, and a CI log reads `::` workflow
/// commands from any line. So every piece of text napkin-inspect prints that
/// it did not write itself goes through ``printable(_:)`` first (the JSON and
/// JUnit formats escape by their own rules instead).
///
/// What changes, and nothing else (a backslash is not doubled: the escapes are
/// for reading, not for turning back into the text):
///
/// | character | shown as |
/// | --- | --- |
/// | tab, line feed, carriage return | `\t`, `\n`, `\r` |
/// | escape (U+001B) | `\e` |
/// | any other C0 control (U+0000 to U+001F), DEL (U+007F), C1 control (U+0080 to U+009F) | `\u{hex}`, e.g. `\u{7}` (BEL), `\u{7f}`, `\u{9b}` (CSI) |
/// | bidi controls that reorder what follows: U+202A to U+202E, U+2066 to U+2069, and the marks U+200E, U+200F, U+061C | `\u{hex}`, e.g. `\u{202e}` |
/// | line and paragraph separators U+2028, U+2029 | `\u{2028}`, `\u{2029}` |
enum PrintableText {
    /// `text` with every control character shown as a visible escape (see the table above).
    static func printable(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: needsEscape) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            guard needsEscape(scalar) else {
                out.unicodeScalars.append(scalar)
                continue
            }
            switch scalar {
            case "\t": out += "\\t"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\u{1B}": out += "\\e"
            default: out += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return out
    }

    /// `text` made printable and cut to about `limit` characters (escapes
    /// count with their length), ending with `…` when cut. The cost follows
    /// `limit`, not the length of `text` (a trace may hold a 10 MB mark).
    static func printable(_ text: String, limit: Int) -> String {
        let limit = max(1, limit)
        var out = ""
        var length = 0
        for scalar in text.unicodeScalars {
            if length >= limit {
                out.unicodeScalars.removeLast(min(out.unicodeScalars.count, 1 + max(0, length - limit)))
                return out + "\u{2026}"
            }
            let piece = needsEscape(scalar) ? printable(String(scalar)) : String(scalar)
            out += piece
            length += piece.unicodeScalars.count
        }
        return out
    }

    /// Whether `scalar` is shown escaped: controls, bidi controls, line separators.
    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F: true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028, 0x2029: true
        default: false
        }
    }
}

extension String {
    /// The text made safe for a terminal or a log: ``PrintableText/printable(_:)``.
    var printable: String { PrintableText.printable(self) }
}
