import NapkinTrace

/// `check --format github`: GitHub Actions workflow commands
/// (`::error title=...::message`), and a count for standard error.
///
/// A workflow command is read from any line of the log, so every text from
/// the trace is made printable (no line break can start a command of its
/// own) before the command's own escaping. GitHub shows at most 10 error and
/// 10 warning annotations per step (50 per job), so each group of findings
/// of one rule and type gets at most ``FindingGroups/shownPerGroup``
/// annotations and one more that counts the rest; the findings not kept and
/// each trace problem get one annotation each.
enum CheckGitHubReport {
    /// The workflow commands for `traces`. A finding whose first code
    /// location that names a line is found under `sources` is annotated on
    /// that line (`file=`, `line=`), so GitHub draws it on the pull
    /// request's diff.
    ///
    /// A code location that names a function (a creation recorded on a
    /// device, where the trace has no line) has no file and no line: it is
    /// never given as `file=`/`line=` (no `line=0`), and the message names
    /// it instead, `...; at RibHouse/LoggedInBuilder.build(withListener:) (created)`
    /// (the annotation stays on the run, or on a line another location names).
    static func render(_ traces: [CheckedTrace], sources: SourceRoot? = nil) -> String {
        var out = ""
        for trace in traces {
            let path = PrintableText.printable(trace.path, limit: 300)
            for problem in trace.traceProblems {
                out += command("error", title: "napkin trace problem", message: PrintableText.printable(problem, limit: 1_000) + " (\(path))")
            }
            for group in FindingGroups(trace.findings).groups {
                for finding in group.shown {
                    let seqs = finding.seqs.isEmpty ? "" : ", seq \(finding.seqs.prefix(20).map(String.init).joined(separator: ", "))"
                    let location = finding.locations.first { !$0.location.isFunction }?.location
                    let file = location.flatMap { sources?.path(of: $0) }
                    out += command(finding.severity.rawValue, title: "napkin \(finding.rule.rawValue): \(FindingLine.subject(finding))",
                                   message: FindingLine.message(finding) + " (\(path)\(seqs)\(FindingLine.testText(finding).map { ", " + $0 } ?? ""))"
                                       + (trace.rate(of: finding).map { " (\($0.text))" } ?? "")
                                       + FindingLine.functionsText(finding)
                                       + (finding.retainers.map { "; " + RetainerText.oneLine($0) } ?? ""),
                                   at: file.map { (PrintableText.printable($0, limit: 300), location!.line) })
                }
                if group.more > 0 {
                    out += command(group.rule.severity.rawValue, title: "napkin \(group.rule.rawValue)",
                                   message: group.moreText + " in \(path); see the log of --format text or --format json for all")
                }
            }
            if trace.findingsNotKept > 0 {
                out += command("warning", title: "napkin findings not kept",
                               message: FindingLine.notKeptNote(trace.findingsNotKept) + " in \(path)")
            }
        }
        return out
    }

    /// `3 findings`, or `no findings in 2 traces`, and how many the baseline
    /// knew (`; 2 known from the baseline`): the line for standard error.
    static func count(_ traces: [CheckedTrace]) -> String {
        let count = traces.reduce(0) { $0 + $1.findings.count }
        let known = traces.reduce(0) { $0 + $1.known.count }
        let text = count == 0 ? "no findings in \(traces.count) trace\(traces.count == 1 ? "" : "s")" : NumberFormat.count(count, "finding")
        return text + (known == 0 ? "" : "; \(NumberFormat.grouped(known)) known from the baseline")
    }

    /// One workflow command line, on a line of a file when `at` says.
    private static func command(_ level: String, title: String, message: String, at place: (file: String, line: UInt)? = nil) -> String {
        let position = place.map { "file=\(property($0.file)),line=\($0.line)," } ?? ""
        return "::\(level) \(position)title=\(property(title))::\(data(message))\n"
    }

    /// Escapes a command's message.
    private static func data(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escapes a command's property value (`title=`).
    private static func property(_ s: String) -> String {
        data(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
