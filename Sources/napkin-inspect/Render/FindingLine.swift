import NapkinTrace

/// How a finding reads on one line, wherever napkin-inspect lists findings
/// (`check`, `tree`, `live`).
enum FindingLine {
    /// `error[rule] Type#id: message (seq ...)`, coloured.
    static func styled(_ finding: Finding, style: Style) -> String {
        let head = "\(finding.severity.rawValue)[\(finding.rule.rawValue)]"
        let seqText = finding.seqs.isEmpty ? "" : style.dim(" (seq \(finding.seqs.map(String.init).joined(separator: ", ")))")
        return (finding.severity == .error ? style.red(head) : style.yellow(head))
            + " " + style.bold(finding.subjectName) + ": " + finding.message + seqText
    }

    /// Prints `findings` on standard output, one indented line each.
    static func print(_ findings: [Finding], style: Style) {
        for finding in findings { Output.line("  " + styled(finding, style: style)) }
    }
}
