import NapkinTrace

/// The first line of the inspector, and the rule under the header.
///
/// Live: `napkin-inspect live  [2/3] app (pid 12)  t=4.2s  1,234 events
/// (300/s)  routers 5  tasks 2  no findings  [live; history 4.1s]`; on a
/// screen too narrow for it all, the rate and then the events count are
/// left out before the findings count is cut.
/// Paused, the moment shown instead of the clock, how far the history goes
/// (from the oldest moment it can rebuild to the newest event), and the
/// counts of that moment: `… app (pid 12)  paused at seq 1,100, t=3.9s
/// [history: seq 3–1,234]  routers 5  tasks 1  no findings`.
///
/// After the findings, the populations flagged at that moment
/// (``PopulationFlag``): over their budget or growing over rounds, at most
/// two named: `⚠ OrderRouter ×7 growing, MenuRouter ×3 over 2 +1 more`;
/// fewer named when the screen is too narrow (`⚠ 3 populations flagged`).
extension LiveView {
    /// The header for `facts`, as `inspector` shows them.
    func header(_ facts: LiveFrame, inspector: InspectorState, columns: Int) -> String {
        let state = facts.analyzer.state
        let found = facts.analyzer.findings.count + facts.analyzer.findingsNotKept
        let provisional = facts.analyzer.provisionalFindings.count
        var header = style.bold("napkin-inspect live") + "  "
        if facts.sessions.count > 1 { header += "[\(facts.sessionIndex + 1)/\(facts.sessions.count)] " }
        header += state.session.map { PrintableText.printable($0.heading, limit: columns) } ?? PrintableText.printable(sourceName, limit: columns)
        let counts = "  routers \(NumberFormat.grouped(state.routerCount))  tasks \(NumberFormat.grouped(state.taskCount))"
            + "  " + (found == 0 ? style.green("no findings") : style.red(NumberFormat.count(found, "finding")))
            + (provisional == 0 ? "" : style.yellow(", \(NumberFormat.grouped(provisional)) provisional"))
        guard inspector.isPaused else {
            // The findings count matters most: on a narrow screen the rate goes first, then the events.
            let clock = "  t=" + TimeFormat.duration(state.time)
            let events = "  \(NumberFormat.grouped(facts.events)) events"
            let rate = " (\(NumberFormat.grouped(facts.rate))/s)"
            let full = header + clock + events + rate + counts
            if full.visibleCount <= columns {
                header = full
            } else if (header + clock + events + counts).visibleCount <= columns {
                header += clock + events + counts
            } else {
                header += clock + counts
            }
            header = flagged(header, facts, columns: columns)
            let history = facts.reach.map { "history " + TimeFormat.duration($0.span) } ?? "no history"
            header += style.dim("  [\(facts.finished ? "ended" : "live"); \(history)]")
            return header
        }
        let moment = state.lastSeq == 0 && state.session == nil
            ? "paused before the first event"
            : "paused at seq \(state.lastSeq), t=\(TimeFormat.point(state.time))"
        header += "  " + (style.enabled ? "\u{1B}[7m\(moment)\u{1B}[0m" : moment.uppercasedFirst())
        let newest = "\(facts.newestSeq)"
        header += style.dim("  [" + (facts.reach.map { "history: seq \($0.seq)\u{2013}\(newest)" } ?? "no history; newest seq \(newest)") + "]")
        header += counts
        return flagged(header, facts, columns: columns)
    }

    /// `header`, then the populations flagged at the moment shown, named as
    /// far as the rest of the line allows.
    private func flagged(_ header: String, _ facts: LiveFrame, columns: Int) -> String {
        let flags = PopulationFlag.flags(facts.analyzer)
        guard !flags.isEmpty else { return header }
        let room = columns - header.visibleCount - 2
        return header + "  " + style.yellow(PopulationFlag.summary(flags, fitting: room))
    }

    /// A rule across the screen; with `label`, the label in it.
    func rule(_ label: String?, columns: Int) -> String {
        guard let label else { return style.dim(String(repeating: "\u{2500}", count: columns)) }
        let lead = "\u{2500}\u{2500}\u{2500} "
        let rest = max(0, columns - lead.count - label.count - 1)
        return style.dim(lead + label + " " + String(repeating: "\u{2500}", count: rest))
    }
}

/// Text helpers of the header.
private extension String {
    /// The string with its first letter in upper case (`Paused at…` stands out without colours).
    func uppercasedFirst() -> String { prefix(1).uppercased() + dropFirst() }

    /// The characters a terminal shows (colour codes left out).
    var visibleCount: Int {
        var count = 0
        var inEscape = false
        for character in self {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                count += 1
            }
        }
        return count
    }
}
