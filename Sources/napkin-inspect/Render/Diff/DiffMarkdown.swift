import NapkinTrace
import NapkinTraceReader

/// `diff --format markdown`: a pull-request comment. A heading, the
/// summary, a table of the two traces, then each kind of change: findings
/// as list items (the rule linking to its section of `docs/findings.md`,
/// the path, the message, the code locations), routers and measures as
/// tables, and the routers alive at the end as a nested list. Everything
/// taken from the traces is escaped (``MarkdownText``).
enum DiffMarkdown {
    /// The longest message shown, in characters.
    static let maxMessage = 1_000

    /// The report as Markdown; code locations are looked up under `sources`.
    static func render(_ report: DiffReport, sources: SourceRoot) -> String {
        let c = report.comparison
        var out = heading(report)
        out += section("New findings", c.newFindings.count, c.newFindings.prefix(DiffReport.maxListed).map { item($0, sources: sources) })
        out += section("Fixed findings", c.fixedFindings.count, c.fixedFindings.prefix(DiffReport.maxListed).map { item($0, sources: sources) })
        out += presenceSection(c)
        out += changeSection(report)
        out += endSection(c.atEnd)
        return out.joined(separator: "\n") + "\n"
    }

    // MARK: - Sections

    /// The heading with the verdict, the summary, the table of the two traces and their problems.
    private static func heading(_ report: DiffReport) -> [String] {
        let c = report.comparison
        var out: [String] = []
        let verdict = c.isRegression ? "new findings" : c.hasChanges ? "changes, no new findings" : "no changes"
        out.append("## napkin-inspect diff: \(verdict)")
        out.append("")
        out.append(MarkdownText.escaped(report.summary, limit: 1_000))
        out.append("")
        out.append("| | trace | app | routers | findings |")
        out.append("| --- | --- | --- | ---: | ---: |")
        for (label, side, routers) in [("before", report.before, c.routerCounts.before), ("after", report.after, c.routerCounts.after)] {
            let app = side.overview.session.map { MarkdownText.escaped($0.heading, limit: 200) } ?? "no session record"
            out.append("| \(label) | \(escape(side.overview.path, 300)) | \(app) | \(NumberFormat.grouped(routers)) | \(NumberFormat.grouped(side.trace.findings.count)) |")
        }
        for problem in report.before.traceProblems + report.after.traceProblems {
            out.append("")
            out.append("> **Damaged trace:** " + escape(problem, 500))
        }
        return out
    }

    /// A section titled `title` with `count` items (none: no section), the
    /// first ones in `body`, and how many more there are.
    private static func section(_ title: String, _ count: Int, _ body: [String]) -> [String] {
        guard count > 0 else { return [] }
        var out = ["", "### \(title) (\(NumberFormat.grouped(count)))", ""]
        out += body
        if count > DiffReport.maxListed { out += ["", "\u{2026} and \(NumberFormat.grouped(count - DiffReport.maxListed)) more (see `--format json`)."] }
        return out
    }

    /// The table of the router paths found in one run only.
    private static func presenceSection(_ c: TraceComparison) -> [String] {
        let presence = c.appeared.map { ($0, "added") } + c.disappeared.map { ($0, "removed") }
        return section("Routers in one run only", presence.count, ["| | router path | routers of its type there (before → after) |", "| --- | --- | --- |"]
            + presence.prefix(DiffReport.maxListed).map { count, change in
                "| \(change) | \(path(count.path)) | \(DiffReport.countText(count) { MarkdownText.escaped($0, limit: DiffPathText.maxType) }) |"
            })
    }

    /// The table of the lifetimes and task counts that changed by more than the thresholds.
    private static func changeSection(_ report: DiffReport) -> [String] {
        let c = report.comparison
        return section("Lifetimes and task counts changed by \(MarkdownText.escaped(report.thresholdsText, limit: 200))", c.changes.count,
                       ["| router path | measure | before | after | change |", "| --- | --- | ---: | ---: | ---: |"]
                       + c.changes.prefix(DiffReport.maxListed).map { change in
                           "| \(path(change.path)) | \(change.measure.title) | \(DiffReport.value(change.before, of: change.measure)) "
                               + "| \(DiffReport.value(change.after, of: change.measure)) | \(DiffReport.relativeChange(change)) |"
                       })
    }

    /// The routers alive at the end (none: no section) as nested lists, the
    /// tree then those outside it, each marked **+** (only after) or **−** (only before).
    private static func endSection(_ routers: [TraceComparison.EndRouter]) -> [String] {
        guard !routers.isEmpty else { return [] }
        var out = ["", "### Alive at the end", "", "**+** only after, **−** only before."]
        for inTree in [true, false] {
            let group = routers.filter { $0.inTree == inTree }
            out += ["", inTree ? "In the tree:" : "Outside the tree:", ""]
            if group.isEmpty { out.append("- none in either run") }
            for row in DiffPathText.treeRows(Array(group.prefix(DiffReport.maxListed)), escape: { MarkdownText.escaped($0, limit: DiffPathText.maxType) }) {
                let mark: String
                switch row.router.presence {
                case .both: mark = ""
                case .after: mark = "**+** "
                case .before: mark = "**−** "
                }
                out.append(String(repeating: "  ", count: row.depth) + "- " + mark + row.label)
            }
            if group.count > DiffReport.maxListed { out.append("- \u{2026} and \(NumberFormat.grouped(group.count - DiffReport.maxListed)) more") }
        }
        return out
    }

    /// One finding as a list item: severity, the rule linked to its
    /// documentation, the path, the subject, the message, then the code locations.
    static func item(_ located: LocatedFinding, sources: SourceRoot) -> String {
        let finding = located.finding
        let rule = finding.rule
        var text = "- **\(finding.severity.rawValue)** [`\(rule.rawValue)`](\(rule.documentation)) "
        if let located = located.path { text += path(located) + " " }
        text += "(" + escape(finding.subjectName, FindingLine.maxSubject) + "): " + escape(finding.message, maxMessage)
        let locations = finding.locations.prefix(FindingLine.maxLocations).map { reference in
            escape(sources.display(reference.location), 300) + " (\(reference.role.rawValue))"
        }
        if !locations.isEmpty { text += "\n  at " + locations.joined(separator: ", ") }
        return text
    }

    /// A path, escaped for Markdown.
    static func path(_ path: TracePath) -> String {
        DiffPathText.text(path) { MarkdownText.escaped($0, limit: DiffPathText.maxType) }
    }

    /// `text` from a trace, escaped and cut to `limit` characters.
    static func escape(_ text: String, _ limit: Int) -> String {
        MarkdownText.escaped(text, limit: limit)
    }
}
