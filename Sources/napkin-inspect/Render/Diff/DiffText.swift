import NapkinTrace
import NapkinTraceReader

/// `diff --format text`: the two traces, then a section for each kind of
/// change (only those that have any), then the summary line. Everything
/// taken from the traces is printable (``PrintableText``); lists longer than
/// ``DiffReport/maxListed`` are cut, with how many more there are.
enum DiffText {
    /// The report as text, coloured with `style`; code locations are looked up under `sources`.
    static func render(_ report: DiffReport, style: Style, sources: SourceRoot) -> String {
        let c = report.comparison
        var lines: [String] = []
        for (label, side, routers) in [("BEFORE", report.before, c.routerCounts.before), ("AFTER ", report.after, c.routerCounts.after)] {
            lines.append(style.bold(label) + " " + PrintableText.printable(side.overview.path, limit: 300) + ": "
                         + PrintableText.printable(DiffReport.sideText(side, routers: routers)))
            for problem in side.traceProblems { lines.append("  " + style.red("damaged: " + PrintableText.printable(problem, limit: 500))) }
        }

        func section(_ title: String, _ count: Int, _ body: [String]) {
            guard count > 0 else { return }
            lines.append("")
            lines.append(style.bold("\(title) (\(NumberFormat.grouped(count))):"))
            lines += body
            if count > DiffReport.maxListed { lines.append(style.dim("  \u{2026} and \(NumberFormat.grouped(count - DiffReport.maxListed)) more")) }
        }

        section("New findings", c.newFindings.count, findingLines(c.newFindings, style: style, sources: sources))
        section("Fixed findings", c.fixedFindings.count, findingLines(c.fixedFindings, style: style, sources: sources))
        let presence = c.appeared.map { ($0, true) } + c.disappeared.map { ($0, false) }
        section("Routers in one run only", presence.count, presence.prefix(DiffReport.maxListed).map { count, added in
            "  " + (added ? style.green("+ ") : style.red("- ")) + DiffPathText.text(count.path)
                + style.dim("  (" + DiffReport.countText(count) + ")")
        })
        if !c.changes.isEmpty {
            lines.append("")
            lines.append(style.bold("Lifetimes and task counts changed by \(report.thresholdsText) (\(NumberFormat.grouped(c.changes.count))):"))
            lines += changeLines(c.changes, style: style)
        }
        if !c.atEnd.isEmpty {
            lines.append("")
            lines.append(style.bold("At the end") + style.dim(" (+ only AFTER, - only BEFORE):"))
            lines += endLines(c.atEnd, style: style)
        }
        lines.append("")
        lines.append(c.isRegression ? style.red(report.summary) : c.hasChanges ? style.yellow(report.summary) : style.green(report.summary))
        return lines.joined(separator: "\n") + "\n"
    }

    /// Each finding's line, its path and where it points in the code.
    static func findingLines(_ findings: [LocatedFinding], style: Style, sources: SourceRoot) -> [String] {
        var lines: [String] = []
        for located in findings.prefix(DiffReport.maxListed) {
            lines.append("  " + FindingLine.styled(located.finding, style: style))
            if let path = located.path { lines.append("    " + style.dim("path ") + DiffPathText.text(path)) }
            if let location = FindingLine.locationLine(located.finding, style: style, sources: sources) { lines.append("  " + location) }
        }
        return lines
    }

    /// One line per router: `  LaunchRouter/LoggedInRouter  time alive 2.9s → 4.7s (+63%), tasks 1 → 3 (+200%)`, paths aligned.
    static func changeLines(_ changes: [TraceComparison.MeasureChange], style: Style) -> [String] {
        var rows: [(path: TracePath, changes: [TraceComparison.MeasureChange])] = []
        for change in changes {
            if rows.last?.path == change.path { rows[rows.count - 1].changes.append(change) } else { rows.append((change.path, [change])) }
        }
        let shown = rows.prefix(DiffReport.maxListed)
        let paths = shown.map { DiffPathText.text($0.path) }
        let width = min(paths.map(\.count).max() ?? 0, 80)
        var lines = zip(shown, paths).map { row, path in
            "  " + path.padded(to: width) + "  " + row.changes.map { change in
                let values = DiffReport.value(change.before, of: change.measure) + " \u{2192} " + DiffReport.value(change.after, of: change.measure)
                return change.measure.title + " " + (change.after > change.before ? style.yellow(values) : style.cyan(values))
                    + style.dim(" (" + DiffReport.relativeChange(change) + ")")
            }.joined(separator: ", ")
        }
        if rows.count > shown.count { lines.append(style.dim("  \u{2026} and \(NumberFormat.grouped(rows.count - shown.count)) more routers")) }
        return lines
    }

    /// The routers alive at the end: the tree, then those outside it, each
    /// row marked `+` (only AFTER), `-` (only BEFORE) or blank (both).
    static func endLines(_ routers: [TraceComparison.EndRouter], style: Style) -> [String] {
        var lines: [String] = []
        for inTree in [true, false] {
            let group = routers.filter { $0.inTree == inTree }
            lines.append("  " + (inTree ? "in the tree:" : "alive outside the tree:") + (group.isEmpty ? style.dim(" none in either run") : ""))
            for row in DiffPathText.treeRows(Array(group.prefix(DiffReport.maxListed))) {
                let mark: String
                switch row.router.presence {
                case .both: mark = "  "
                case .after: mark = style.green("+ ")
                case .before: mark = style.red("- ")
                }
                lines.append("  " + mark + String(repeating: "  ", count: row.depth) + row.label)
            }
            if group.count > DiffReport.maxListed {
                lines.append(style.dim("    \u{2026} and \(NumberFormat.grouped(group.count - DiffReport.maxListed)) more"))
            }
        }
        return lines
    }
}
