/// `check --format text`: a header line per trace, a line per finding, then notes.
enum CheckTextReport {
    /// The report for `traces`, coloured as `style` says.
    static func render(_ traces: [CheckedTrace], style: Style) -> String {
        var out = ""
        for trace in traces {
            let errors = trace.findings.filter { $0.severity == .error }.count
            let warnings = trace.findings.count - errors
            if trace.findings.isEmpty {
                out += style.green("\(trace.path): no findings") + style.dim(" (\(trace.events) events\(trace.endedCleanly ? ", ended cleanly" : ""))") + "\n"
            } else {
                let counts = [errors > 0 ? "\(errors) error\(errors == 1 ? "" : "s")" : nil,
                              warnings > 0 ? "\(warnings) warning\(warnings == 1 ? "" : "s")" : nil].compactMap { $0 }
                out += style.bold("\(trace.path): \(trace.findings.count) finding\(trace.findings.count == 1 ? "" : "s") (\(counts.joined(separator: ", ")))") + "\n"
                for finding in trace.findings { out += "  " + FindingLine.styled(finding, style: style) + "\n" }
            }
            var notes: [String] = []
            if !trace.allowed.isEmpty { notes.append("\(trace.allowed.count) allowed by the allow-list") }
            if !trace.endedCleanly { notes.append("the trace has no end record (the app crashed, was killed, or is still running)") }
            if trace.undecided > 0 {
                notes.append("\(trace.undecided) check\(trace.undecided == 1 ? "" : "s") undecided: the trace ended less than the grace period after the event")
            }
            for note in notes { out += style.dim("  note: \(note)") + "\n" }
        }
        return out
    }
}
