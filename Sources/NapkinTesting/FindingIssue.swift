import NapkinTrace
import Testing

/// One finding as ``NapkinLeakCheck`` reports it to Swift Testing: the
/// issue's text (``FindingMessage``'s), and the line an IDE shows it on as
/// a `SourceLocation`: the finding's first code location that names a line,
/// else the test (a function, recorded on a device, has no line: the text
/// names it).
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
        self.init(FindingMessage(finding, test: TestSource(testLocation), fileExists: fileExists), testLocation: testLocation)
    }

    /// The issue for `message`, of a test declared at `testLocation`.
    init(_ message: FindingMessage, testLocation: SourceLocation) {
        text = message.text
        if let location = message.location {
            sourceLocation = SourceLocation(fileID: location.fileID, filePath: message.filePath ?? location.fileID,
                                            line: Int(clamping: location.line), column: 1)
        } else {
            sourceLocation = testLocation
        }
    }

    /// The path of `location`'s file: `SourceLocation.filePath`, public from
    /// Swift 6.3 (Xcode 26.4); Swift 6.2's Testing has it as `_filePath`.
    static func path(of location: SourceLocation) -> String {
        #if compiler(>=6.3)
        return location.filePath
        #else
        return location._filePath
        #endif
    }
}

extension TestSource {
    /// Where a Swift Testing test is declared.
    init(_ location: SourceLocation) {
        self.init(fileID: location.fileID, filePath: FindingIssue.path(of: location))
    }
}
