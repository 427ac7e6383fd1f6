import NapkinTrace

/// A whole HTML report: one self-contained file (the style sheet and scripts
/// of ``ReportAssets`` inline, SVG drawn by the script; nothing fetched, a
/// Content-Security-Policy that forbids any network use) holding the data of
/// one or more traces (`report-meta`, then one `trace-N` each, as
/// ``ReportSchema`` names their fields) and each rule's help (``ReportHelp``).
///
/// The first `<meta name="generator">` marks a file as a napkin-inspect
/// report: ``ReportFile`` overwrites only such files.
enum ReportPage {
    /// The marker that starts every report's head, and that `-o` looks for
    /// before it overwrites a file.
    static let generatorMark = #"<meta name="generator" content="napkin-inspect report">"#

    /// The report of `traces`, code locations looked up in `sources`.
    static func html(_ traces: [ReportTrace], sources: SourceRoot) -> String {
        let title = traces.count == 1 ? traces[0].title : "\(traces.count) traces"
        var page = head(title: title) + panels() + footer(title: title, rules: rules(of: traces), traces: traces)
        for (index, trace) in traces.enumerated() {
            page += "<script type=\"application/json\" id=\"trace-\(index)\">"
            page += ReportData.json(trace, sources: sources)
            page += "</script>\n"
        }
        page += "<script>\n" + ReportAssets.script + "</script>\n</body>\n</html>\n"
        return page
    }

    /// Each rule that a finding of `traces` names (among the first
    /// ``ReportData/maxFindings`` of each), once, in order of first use.
    static func rules(of traces: [ReportTrace]) -> [Finding.Rule] {
        var rules: [Finding.Rule] = []
        for trace in traces {
            for finding in trace.findings.prefix(ReportData.maxFindings) where !rules.contains(finding.rule) { rules.append(finding.rule) }
        }
        return rules
    }

    /// `report-meta`'s JSON (``ReportSchema/Meta``): the version, the tree's words, the traces.
    static func meta(_ traces: [ReportTrace]) -> String {
        typealias Field = ReportSchema.MetaTrace
        var meta = ReportJSON()
        meta.openObject()
        meta.member(ReportSchema.Meta.version, NapkinInspect.version)
        meta.key(ReportSchema.Meta.words)
        ReportWords.write(into: &meta)
        meta.key(ReportSchema.Meta.traces)
        meta.openArray()
        for trace in traces {
            let name = PrintableText.printable(trace.title)
            let findings = trace.findings.count
            meta.openObject()
            meta.member(Field.title, name)
            meta.member(Field.label, name + (findings > 0 ? " — " + NumberFormat.count(findings, "finding")
                                                : trace.problems.isEmpty ? "" : " — damaged"))
            meta.member(Field.findings, findings)
            meta.member(Field.problems, trace.problems.count)
            meta.closeObject()
        }
        meta.closeArray()
        meta.closeObject()
        return meta.text
    }

    /// `text` made printable (``PrintableText``: controls and bidi controls
    /// shown as `\u{202e}`, cut to 300 characters), with `&`, `<`, `>`, `"`
    /// and `'` written as entities (as XML writes them, which HTML reads too),
    /// for HTML text and attribute values.
    static func escaped(_ text: String) -> String {
        CheckJUnitReport.xml(PrintableText.printable(text, limit: 300))
    }
}
