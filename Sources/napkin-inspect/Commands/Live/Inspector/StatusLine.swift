import NapkinTrace

/// The last line of the inspector: what the keys do now, or the filter
/// prompt while it is open. It starts with `q quit` when live, with why the
/// input ended when it did, and says `paused` when paused; the filter in
/// force, the keys of the moment and the reader's last diagnostic follow.
extension LiveView {
    /// The status line for `facts`, as `inspector` shows them.
    func statusLine(_ facts: LiveFrame, inspector: InspectorState, columns: Int) -> String {
        if inspector.showingHelp { return style.dim("press any key to close the help") }
        if inspector.editingFilter {
            let matched = facts.matches.map { "  (\(NumberFormat.count($0.matched, "match", plural: "matches")))" } ?? ""
            return "/" + PrintableText.printable(inspector.filter, limit: columns) + "\u{2588}"
                + style.dim("  type a type name or an id; Enter keeps the filter, Esc clears it" + matched)
        }
        var status: String
        if let childStatus = facts.childStatus {
            status = "command exited with status \(childStatus); press q to quit"
        } else if facts.finished && !inspector.isPaused {
            status = "end of trace; press q to quit"
        } else if inspector.isPaused {
            status = "paused: \u{2190} \u{2192} one event  [ ] 1 s  space or l live  q quit"
        } else {
            status = "q quit"
        }
        var line = style.dim(status)
        if !inspector.filter.isEmpty {
            let matched = facts.matches.map { ", \(NumberFormat.count($0.matched, "match", plural: "matches"))" } ?? ""
            line += "  " + style.yellow("filter '\(PrintableText.printable(inspector.filter, limit: 40))'\(matched); Esc clears")
        }
        var hints = ""
        if inspector.details != nil {
            hints += "  \u{2191} \u{2193} PgUp PgDn scroll  Esc close"
        } else {
            hints += "  ? help"
            if !inspector.isPaused { hints += "  space pause  \u{2190} back" }
            hints += "  \u{2191} \u{2193} select  Enter details  / filter"
        }
        if facts.sessions.count > 1 { hints += "  Tab next process" }
        line += style.dim(hints)
        if let diagnostic = facts.diagnostic {
            line += "  " + style.yellow("(\(PrintableText.printable(diagnostic.description, limit: columns)))")
        }
        return line
    }
}
