import NapkinTrace

/// What the report says of one trace as a whole, written here once as ready
/// text: the header's facts and verdict, the notes above the player (why the
/// trace cannot be trusted, a sample of the nodes, findings not listed), and
/// what the findings list and the stats table say when they are empty.
struct ReportSummary {
    /// The header's facts: `rib-house (pid 4242) · 4.8s of trace · 14 routers`.
    let facts: String
    /// The verdict: `no findings`, `2 findings` or `trace damaged`.
    let verdict: String
    /// The verdict's colour: `good`, `warn` or `bad`.
    let tone: String
    /// The notes, each with its tone (`problem` or `note`).
    let notes: [(tone: String, text: String)]
    /// What the findings list says when it is empty.
    let noFindings: String
    /// What the stats table says when it is empty.
    let noStats: String

    /// The summary of `trace`, whose data holds the node lives at `kept`
    /// (indices into its history's nodes) and at most `listed` findings.
    init(_ trace: ReportTrace, kept: [Int], listed: Int) {
        let nodes = trace.history?.nodes ?? []
        let routers = kept.filter { nodes[$0].kind == .router }.count
        let lone = kept.count - routers
        let sampled = kept.count < nodes.count
        var facts: [String] = []
        if let session = trace.history?.session {
            facts.append(PrintableText.printable(session.app) + " (pid \(session.pid)" + (session.part > 1 ? ", part \(session.part)" : "") + ")")
        }
        facts.append(TimeFormat.duration(trace.history?.endTime ?? 0) + " of trace")
        facts.append(NumberFormat.count(routers, "router") + (lone > 0 ? ", " + NumberFormat.count(lone, "lone interactor") : "")
                     + (sampled ? " (sampled)" : ""))
        self.facts = facts.joined(separator: " · ")

        let errors = trace.findings.prefix(listed).filter { $0.severity == .error }.count
        if !trace.problems.isEmpty {
            (verdict, tone) = ("trace damaged", "bad")
        } else if listed > 0 {
            (verdict, tone) = (NumberFormat.count(listed, "finding"), errors > 0 ? "bad" : "warn")
        } else {
            (verdict, tone) = ("no findings", "good")
        }

        var notes = trace.problems.map { (tone: "problem", text: "The trace cannot be trusted: " + PrintableText.printable($0)) }
        if sampled {
            notes.append(("note", "This report holds \(NumberFormat.grouped(kept.count)) of the trace's \(NumberFormat.grouped(nodes.count)) node lives: "
                          + "every node a finding names and every node alive at the end, then evenly spaced others."))
        }
        let notKept = trace.findingsNotKept + (trace.findings.count - listed)
        if notKept > 0 {
            notes.append(("note", "\(NumberFormat.grouped(notKept)) more findings were found than this report lists; "
                          + "run napkin-inspect check for all of them."))
        }
        self.notes = notes

        noFindings = !trace.problems.isEmpty ? "No findings, but the trace is damaged: see above."
            : "No findings." + (trace.setApart > 0 ? " (\(NumberFormat.grouped(trace.setApart)) allowed or known, not shown.)" : "")
        noStats = trace.history == nil ? "No stats: the trace could not be read."
            : "This file holds several sessions: napkin-inspect stats counts the file as a whole."
    }

    /// Writes `facts`, `verdict`, `notes`, `noFindings` and `noStats`.
    func write(into out: inout ReportJSON) {
        typealias Field = ReportSchema.Trace
        out.member(Field.facts, facts)
        out.key(Field.verdict)
        out.openObject()
        out.member(ReportSchema.Verdict.text, verdict)
        out.member(ReportSchema.Verdict.tone, tone)
        out.closeObject()
        out.key(Field.notes)
        out.openArray()
        for note in notes {
            out.openObject()
            out.member(ReportSchema.Note.tone, note.tone)
            out.member(ReportSchema.Note.text, note.text)
            out.closeObject()
        }
        out.closeArray()
        out.member(Field.noFindings, noFindings)
        out.member(Field.noStats, noStats)
    }
}
