/// The line under the header when `live` shows more than one process: each
/// session's number (for the 1-9 keys), name, whether it is still live, and
/// its findings; the one shown highlighted (reverse video, or in brackets
/// without colours). When they do not all fit, those nearest the one shown.
///
/// Named as the on-screen bar of sessions that Tab and 1-9 switch between, one tab per ``LiveSession``.
enum SessionTabBar {
    /// What the bar says about one session.
    struct Item: Sendable {
        /// Its name: the process, or the source.
        var name: String
        /// Whether its input ended.
        var ended: Bool
        /// Its findings (kept and not kept).
        var findings: Int
    }

    /// The longest name shown, in characters.
    static let maxName = 32

    /// The bar for `items`, `current` highlighted, at most `columns` wide.
    static func line(_ items: [Item], current: Int, style: Style, columns: Int) -> String {
        let texts = items.enumerated().map { index, item in
            "\(index + 1) " + PrintableText.printable(item.name, limit: maxName) + " "
                + (item.ended ? "ended" : "live") + ", "
                + (item.findings == 0 ? "no findings" : NumberFormat.count(item.findings, "finding"))
        }
        guard !texts.isEmpty else { return "" }
        let current = min(max(0, current), texts.count - 1)
        let separator = " \u{2502} "
        // Widen around the current session while the bar fits.
        var range = current...current
        var used = texts[current].count + 2
        while true {
            var grew = false
            if range.upperBound + 1 < texts.count, used + separator.count + texts[range.upperBound + 1].count <= columns {
                used += separator.count + texts[range.upperBound + 1].count
                range = range.lowerBound...(range.upperBound + 1)
                grew = true
            }
            if range.lowerBound > 0, used + separator.count + texts[range.lowerBound - 1].count <= columns {
                used += separator.count + texts[range.lowerBound - 1].count
                range = (range.lowerBound - 1)...range.upperBound
                grew = true
            }
            if !grew { break }
        }
        let parts = range.map { index in
            index == current ? (style.enabled ? "\u{1B}[7m \(texts[index]) \u{1B}[0m" : "[\(texts[index])]") : " \(texts[index]) "
        }
        var line = parts.joined(separator: style.dim("\u{2502}"))
        if range.lowerBound > 0 { line = style.dim("\u{2026}") + line }
        if range.upperBound < texts.count - 1 { line += style.dim("\u{2026}") }
        return line
    }
}
