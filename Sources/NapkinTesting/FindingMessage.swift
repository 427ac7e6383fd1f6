import NapkinTrace

/// One finding as a test failure, whatever the test library: its text, and
/// the line of the app's code to show it on.
///
/// The text is the finding as `napkin-inspect check` prints it (severity,
/// rule, subject, message, event numbers in the attached trace), then the
/// lines of the app's code it names, then where the rule is explained:
///
/// ```text
/// napkin leak check: error[undetached-child] CartRouter#3: still attached to ShopRouter#1, … (seq 9)
///   at Shop/ShopRouter.swift:31 (attached)
///   at Shop/CartRouter.swift:12 (created)
///   retained by: ShopInteractor#2.cart (suspect) → CartRouter#3
///   1 of 1 strong reference found
///   see docs/findings.md#undetached-child
/// ```
///
/// The `retained by` lines come from the retainer search the check runs
/// for a finding about an object still alive (``Finding/retainers``): one
/// per path, then the tally, and the note after it when the paths do not
/// account for every reference (as `napkin-inspect check` prints them).
///
/// The failure belongs on the finding's first code location that names a
/// line (the line to look at); with none, on the test itself (each
/// library's glue knows where that is). A location that names a function
/// (a creation recorded where only its symbol could be had, an iOS device:
/// `RibHouse/LoggedInBuilder.build(withListener:)`, no line) has no file
/// and line to show a failure on: it is never ``location``, so a finding
/// that names only functions falls back to the test, as one that names no
/// code; its text still names them (`  at RibHouse/LoggedInBuilder.build(withListener:) (created)`).
struct FindingMessage: Sendable, Equatable {
    /// The failure's text.
    var text: String
    /// The line to show the failure on: the finding's first code location
    /// that names a line; nil when the finding names no code, or only
    /// functions.
    var location: CodeLocation?
    /// The full path of ``location``'s file, when one was found (see
    /// ``IssueLocation``); nil otherwise: the failure then names the file id.
    var filePath: String?

    /// The failure for `finding`, found by a test declared in `test` (nil:
    /// the library does not say where) of a package that may be in one of
    /// `packageRoots`; `fileExists` checks candidate paths.
    init(_ finding: Finding, test: TestSource?, packageRoots: [String] = [],
         fileExists: (String) -> Bool = IssueLocation.fileExists) {
        var lines = ["napkin leak check: \(finding)"]
        lines += finding.locations.map { "  at \($0)" }
        if let retainers = finding.retainers {
            lines += retainers.paths.map { "  retained by: \($0)" }
            lines.append("  " + retainers.tally + (retainers.note.map { ": " + $0 } ?? ""))
        }
        lines.append("  see \(finding.rule.documentation)")
        text = lines.joined(separator: "\n")
        location = finding.locations.first { !$0.location.isFunction }?.location
        filePath = location.flatMap { IssueLocation.filePath(of: $0, test: test, packageRoots: packageRoots, fileExists: fileExists) }
    }

    /// The path to name the failure's file by: the full path when found, else the file id.
    var path: String? { location.map { filePath ?? $0.fileID } }
}

/// Where a test is declared, as its library tells: where the search for the
/// app's files starts.
struct TestSource: Sendable, Equatable {
    /// `#fileID` of the test's file: `ShopTests/ShopTests.swift`.
    var fileID: String
    /// `#filePath` of the test's file.
    var filePath: String

    /// The test's module: `ShopTests`.
    var moduleName: String? { CodeLocation(fileID: fileID, line: 1).module }
}
