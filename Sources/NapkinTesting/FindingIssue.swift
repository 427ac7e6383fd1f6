import NapkinTrace
import Testing

/// One finding as ``NapkinLeakCheck`` reports it to Swift Testing: the
/// issue's text, and the line an IDE shows it on.
///
/// The text is the finding as `napkin-inspect check` prints it (severity,
/// rule, subject, message, event numbers in the attached trace), then the
/// lines of the app's code it names, then where the rule is explained:
///
/// ```text
/// napkin leak check: error[undetached-child] CartRouter#3: still attached to ShopRouter#1, … (seq 9)
///   at Shop/ShopRouter.swift:31 (attached)
///   at Shop/CartRouter.swift:12 (created)
///   see docs/findings.md#undetached-child
/// ```
///
/// The issue is placed on the finding's first code location (the line to
/// look at), else on the test.
struct FindingIssue: Sendable {
    /// The issue's text.
    var text: String
    /// Where the issue is shown.
    var sourceLocation: SourceLocation

    /// The issue's text, as a Swift Testing comment.
    var comment: Comment { Comment(rawValue: text) }

    /// The issue for `finding`, found by a test declared at `testLocation`;
    /// `fileExists` checks candidate paths for the code location's file (see
    /// ``IssueLocation``).
    init(_ finding: Finding, testLocation: SourceLocation,
         fileExists: (String) -> Bool = IssueLocation.fileExists) {
        var lines = ["napkin leak check: \(finding)"]
        lines += finding.locations.map { "  at \($0)" }
        lines.append("  see \(finding.rule.documentation)")
        text = lines.joined(separator: "\n")
        if let first = finding.locations.first {
            sourceLocation = IssueLocation.sourceLocation(of: first.location, testLocation: testLocation, fileExists: fileExists)
        } else {
            sourceLocation = testLocation
        }
    }
}
