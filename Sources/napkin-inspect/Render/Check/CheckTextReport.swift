import NapkinTrace

/// `check --format text`: a header line per trace, its trace problems, its
/// findings grouped by rule and type (``FindingGroups``), then notes.
enum CheckTextReport {
    /// The report for `traces`, coloured as `style` says, code locations looked up in `sources`.
    static func render(_ traces: [CheckedTrace], style: Style, sources: SourceRoot? = nil) -> String {
        var out = ""
        for trace in traces {
            let path = PrintableText.printable(trace.path, limit: 300)
            let errors = trace.findings.filter { $0.severity == .error }.count
            let warnings = trace.findings.count - errors
            if !trace.traceProblems.isEmpty && trace.findings.isEmpty {
                out += style.red("\(path): \(NumberFormat.count(trace.traceProblems.count, "trace problem"))") + "\n"
            } else if trace.findings.isEmpty {
                let facts = "\(trace.overview.events) events\(trace.overview.endedCleanly ? ", ended cleanly" : "")"
                out += style.green("\(path): no findings") + style.dim(" (\(facts))") + "\n"
            } else {
                let counts = [errors > 0 ? NumberFormat.count(errors, "error") : nil, warnings > 0 ? NumberFormat.count(warnings, "warning") : nil].compactMap { $0 }
                out += style.bold("\(path): \(NumberFormat.count(trace.findings.count, "finding")) (\(counts.joined(separator: ", ")))") + "\n"
            }
            for problem in trace.traceProblems {
                out += "  " + style.red("trace problem") + ": " + PrintableText.printable(problem, limit: FindingLine.maxMessage) + "\n"
            }
            for line in FindingLine.lines(trace.findings, style: style, sources: sources, rate: trace.rate(of:)) { out += "  " + line + "\n" }
            for note in notes(trace) { out += style.dim("  note: \(note)") + "\n" }
        }
        return out
    }

    /// What the reader should also know about `trace`: findings allowed,
    /// known from the baseline or not kept, a missing end record, undecided checks.
    static func notes(_ trace: CheckedTrace) -> [String] {
        var notes: [String] = []
        if trace.findingsNotKept > 0 {
            notes.append(FindingLine.notKeptNote(trace.findingsNotKept))
        }
        if !trace.allowed.isEmpty { notes.append("\(trace.allowed.count) allowed by the allow-list") }
        if !trace.known.isEmpty { notes.append("\(NumberFormat.grouped(trace.known.count)) known from the baseline (not failing)") }
        if !trace.overview.endedCleanly { notes.append("the trace has no end record (the app crashed, was killed, or is still running)") }
        if trace.undecided > 0 {
            notes.append("\(NumberFormat.count(trace.undecided, "check")) undecided: the trace ended less than a grace period (--grace, --view-grace) after the event")
        }
        return notes
    }

}
