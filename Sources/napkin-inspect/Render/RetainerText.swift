import NapkinTrace

/// How a finding's retainers (``Finding/retainers``: what a retainer search
/// in the app found holding the object) read, wherever napkin-inspect shows
/// a finding: `retained by: PATH` once per path, then the tally and the
/// note. Every piece from the trace is made printable and cut to a bounded
/// length; at most ``maxPaths`` paths are listed.
enum RetainerText {
    /// The most paths listed under one finding (the rest are counted).
    static let maxPaths = 8
    /// The longest path shown, in characters.
    static let maxPath = 600
    /// The longest note shown, in characters.
    static let maxNote = 600

    /// What starts each path's line.
    static let label = "retained by: "

    /// `retained by: PATH` for each path shown, and `… 2 more paths` when
    /// some are not.
    static func pathLines(_ retainers: Retainers, style: Style = .plain) -> [String] {
        var lines = retainers.paths.prefix(maxPaths).map { style.dim(label) + PrintableText.printable($0, limit: maxPath) }
        if retainers.paths.count > maxPaths {
            lines.append(style.dim("\u{2026} \(NumberFormat.count(retainers.paths.count - maxPaths, "more path"))"))
        }
        return lines
    }

    /// `1 of 2 strong references found`, then the note after a colon when
    /// there is one: what was searched and what could still hold it.
    static func tally(_ retainers: Retainers) -> String {
        retainers.tally + (retainers.note.map { ": " + PrintableText.printable($0, limit: maxNote) } ?? "")
    }

    /// The path lines, then the tally: what a finding's block lists under
    /// its first line (each to be indented by the caller).
    static func lines(_ retainers: Retainers, style: Style = .plain) -> [String] {
        pathLines(retainers, style: style) + [style.dim(tally(retainers))]
    }

    /// Everything on one line, for a one-line message (a GitHub annotation,
    /// a SARIF result):
    /// `retained by: PATH; retained by: PATH (1 of 2 strong references found)`.
    static func oneLine(_ retainers: Retainers) -> String {
        let paths = pathLines(retainers)
        return paths.isEmpty ? tally(retainers) : paths.joined(separator: "; ") + " (\(tally(retainers)))"
    }

    /// The lines under `finding`'s first line, indented by two spaces and
    /// styled, or none when no search explains it.
    static func indentedLines(_ finding: Finding, style: Style) -> [String] {
        guard let retainers = finding.retainers else { return [] }
        return lines(retainers, style: style).map { "  " + $0 }
    }
}
