import NapkinTrace

/// The data of one trace as the report's script reads it: one JSON object
/// whose fields ``ReportSchema`` names (and `docs/report.md`, "The embedded
/// data", lists): the node lives as tables (``ReportNodeTables``), the
/// findings, the chart of live instances per type (``ReportPopulations``),
/// the stats, and every text known before the page opens written
/// ready to show (``ReportSummary``, the findings' times); the rules' help is
/// the page's (``ReportHelp``), once per rule.
///
/// Memory and size grow with the number of nodes the trace created, not with
/// its number of events; past ``maxNodes`` nodes a sample is kept (every node
/// a finding names or that is alive at the end, then evenly spaced others)
/// and the report says how many it shows.
enum ReportData {
    /// The most node lives one trace's data holds.
    static let maxNodes = 200_000
    /// The most findings one trace's data holds.
    static let maxFindings = 2_000

    /// `trace` as the report's JSON, its code locations looked up in `sources`.
    static func json(_ trace: ReportTrace, sources: SourceRoot) -> String {
        typealias Field = ReportSchema.Trace
        let history = trace.history ?? TraceHistory()
        let kept = keptNodes(history, findings: trace.findings)
        let findings = trace.findings.prefix(maxFindings)
        var out = ReportJSON()
        out.openObject()
        out.member(Field.title, PrintableText.printable(trace.title))
        if let session = history.session {
            out.member(Field.app, PrintableText.printable(session.app))
            out.member(Field.pid, session.pid)
            out.member(Field.part, session.part)
            out.member(Field.wallMs, session.wallClock / 1_000_000)
        }
        out.member(Field.end, history.endTime)
        out.member(Field.endText, TimeFormat.point(history.endTime))
        ReportSummary(trace, kept: kept, listed: findings.count).write(into: &out)
        ReportNodeTables.write(history, kept: kept, sources: sources, into: &out)
        out.key(Field.findings)
        out.openArray()
        for finding in findings { write(finding, sources: sources, into: &out) }
        out.closeArray()
        trace.populations.write(into: &out)
        writeStats(trace.stats, into: &out)
        out.member(Field.setApart, trace.setApart)
        out.member(Field.notKept, trace.findingsNotKept + (trace.findings.count - findings.count))
        out.closeObject()
        return out.text
    }

    /// The indices of the nodes to keep, in order: all of them up to `limit`
    /// (``maxNodes``), else those findings name and those alive at the end,
    /// then evenly spaced others, `limit` in all.
    static func keptNodes(_ history: TraceHistory, findings: [Finding], limit: Int = maxNodes) -> [Int] {
        let maxNodes = limit
        let count = history.nodes.count
        guard count > maxNodes else { return Array(0..<count) }
        let named = Set(findings.map(\.id))
        var keep = [Bool](repeating: false, count: count)
        var kept = 0
        for (index, life) in history.nodes.enumerated()
        where named.contains(life.id) || (life.interactor.map(named.contains) ?? false) || life.deallocated == nil {
            if kept < maxNodes {
                keep[index] = true
                kept += 1
            }
        }
        let room = maxNodes - kept
        if room > 0 {
            let others = keep.indices.filter { !keep[$0] }
            for step in 0..<min(room, others.count) {
                keep[others[step * others.count / room]] = true
            }
        }
        return keep.indices.filter { keep[$0] }
    }

    /// One finding (``ReportSchema/Finding``).
    private static func write(_ finding: Finding, sources: SourceRoot, into out: inout ReportJSON) {
        typealias Field = ReportSchema.Finding
        out.openObject()
        out.member(Field.rule, finding.rule.rawValue)
        out.member(Field.severity, finding.severity.rawValue)
        out.member(Field.subject, finding.subject.rawValue)
        out.member(Field.name, PrintableText.printable(finding.subjectName))
        out.member(Field.id, finding.id)
        out.member(Field.time, finding.time)
        out.member(Field.at, TimeFormat.point(finding.time))
        out.key(Field.seqs)
        out.openArray()
        for seq in finding.seqs { out.number(seq) }
        out.closeArray()
        out.member(Field.message, PrintableText.printable(finding.message))
        out.key(Field.locations)
        out.openArray()
        for reference in finding.locations {
            out.openObject()
            out.member(ReportSchema.Location.role, reference.role.rawValue)
            out.member(ReportSchema.Location.place, PrintableText.printable(sources.display(reference.location)))
            out.closeObject()
        }
        out.closeArray()
        out.key(Field.tests)
        out.strings(finding.tests.map(PrintableText.printable))
        out.key(Field.retainers)
        out.strings(finding.retainers.map { RetainerText.lines($0) } ?? [])
        out.closeObject()
    }

    /// `stats` (``ReportSchema/Stat`` rows) and `kinds` (``ReportSchema/Kind``
    /// rows), as `stats` prints them.
    private static func writeStats(_ stats: TraceStats?, into out: inout ReportJSON) {
        var rows: [(label: String, value: String)] = []
        var kinds: [(kind: String, count: String)] = []
        if let stats {
            for line in StatsText.render(stats, style: .plain).split(separator: "\n").map(String.init) {
                if line.hasPrefix("  ") {
                    let words = line.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
                    if words.count >= 2 { kinds.append((words[0], words[1])) }
                } else if !line.hasSuffix(":") {
                    rows.append((String(line.prefix(13)).trimmingTrailingSpaces(), String(line.dropFirst(13))))
                }
            }
        }
        out.key(ReportSchema.Trace.stats)
        out.openArray()
        for row in rows {
            out.openObject()
            out.member(ReportSchema.Stat.label, row.label)
            out.member(ReportSchema.Stat.value, row.value)
            out.closeObject()
        }
        out.closeArray()
        out.key(ReportSchema.Trace.kinds)
        out.openArray()
        for row in kinds {
            out.openObject()
            out.member(ReportSchema.Kind.kind, row.kind)
            out.member(ReportSchema.Kind.count, row.count)
            out.closeObject()
        }
        out.closeArray()
    }
}
