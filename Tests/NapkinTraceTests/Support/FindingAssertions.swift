// Short ways to state the findings a built trace must yield.

import NapkinTrace
import Testing

extension AnalysisReport {
    /// `rule Subject#id` of each finding, in order (`not-deallocated HomeRouter#4`).
    var ruleAndSubject: [String] {
        findings.map { "\($0.rule.rawValue) \($0.subjectName)" }
    }
}

/// Expects `report` to hold exactly one finding, `rule Subject#id` (as
/// ``AnalysisReport/ruleAndSubject`` spells it), with `seqs` when given and
/// a message containing each of `words`; returns it.
@discardableResult
func expectOnlyFinding(_ report: AnalysisReport, _ ruleAndSubject: String, seqs: [UInt64]? = nil, words: [String] = [],
                       sourceLocation: SourceLocation = #_sourceLocation) -> Finding? {
    #expect(report.ruleAndSubject == [ruleAndSubject], "\(report)", sourceLocation: sourceLocation)
    guard let finding = report.findings.first else { return nil }
    if let seqs { #expect(finding.seqs == seqs, "\(finding)", sourceLocation: sourceLocation) }
    for word in words {
        #expect(finding.message.contains(word), "\(finding.message) lacks \"\(word)\"", sourceLocation: sourceLocation)
    }
    return finding
}
