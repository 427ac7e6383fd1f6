/// Every key of the live inspector and what it does: the help overlay (`?`)
/// lists them, and docs/live.md documents each (a test checks that it does).
enum InspectorKeys {
    /// One line of the key map.
    struct Binding: Sendable {
        /// The keys, as the help shows them.
        let keys: String
        /// What they do.
        let action: String
    }

    /// The key map, in the order the help lists it.
    static let all: [Binding] = [
        Binding(keys: "q, Ctrl-C", action: "quit (the terminal is restored, the final tree printed)"),
        Binding(keys: "?", action: "this help; any key closes it"),
        Binding(keys: "space", action: "pause, or resume live"),
        Binding(keys: "↑ ↓, k j", action: "select the row above / below (in the details: scroll)"),
        Binding(keys: "PgUp PgDn", action: "a page up / down"),
        Binding(keys: "Home End", action: "the first / last row"),
        Binding(keys: "Enter", action: "open the selected node's details; Enter or Esc closes them"),
        Binding(keys: "← →", action: "one event back / forward (← pauses first)"),
        Binding(keys: "[ ]", action: "1 s of trace time back / forward ([ pauses first)"),
        Binding(keys: "l", action: "back to live"),
        Binding(keys: "/", action: "filter by type name (or id): type, Enter keeps it, Esc clears it"),
        Binding(keys: "Esc", action: "close the details; else clear the filter"),
        Binding(keys: "Tab, Shift-Tab", action: "the next / previous process"),
        Binding(keys: "1-9", action: "process number 1 to 9 of the session bar"),
    ]

    /// The help overlay's lines.
    static func helpLines(style: Style) -> [String] {
        let width = all.map(\.keys.count).max() ?? 0
        var lines = [style.bold("Keys") + style.dim("  (press any key to close)"), ""]
        lines += all.map { "  " + style.bold($0.keys.padded(to: width)) + "  " + $0.action }
        lines += ["",
                  style.dim("Paused, the tree, findings and details are those of the moment shown; the header says which."),
                  style.dim("Each process keeps its last \(NumberFormat.grouped(LiveHistory.maxEvents)) events to go back to "
                            + "(\(NumberFormat.grouped(HistoryBudget.defaultTotal)) for all processes together)."),
                  style.dim("More: docs/live.md")]
        return lines
    }
}
