import Foundation

/// `check --format github`: GitHub Actions workflow commands, one per finding
/// (`::error title=...::message`), and a count for standard error.
enum CheckGitHubReport {
    /// The workflow commands for `traces`.
    static func render(_ traces: [CheckedTrace]) -> String {
        var out = ""
        for trace in traces {
            for finding in trace.findings {
                let level = finding.severity == .error ? "error" : "warning"
                let title = "napkin \(finding.rule.rawValue): \(finding.subjectName)"
                let seqs = finding.seqs.isEmpty ? "" : " (\(trace.path), seq \(finding.seqs.map(String.init).joined(separator: ", ")))"
                out += "::\(level) title=\(property(title))::\(data(finding.message + seqs))\n"
            }
        }
        return out
    }

    /// `3 findings`, or `no findings in 2 traces`: the line for standard error.
    static func count(_ traces: [CheckedTrace]) -> String {
        let count = traces.reduce(0) { $0 + $1.findings.count }
        return count == 0 ? "no findings in \(traces.count) trace\(traces.count == 1 ? "" : "s")" : "\(count) finding\(count == 1 ? "" : "s")"
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
