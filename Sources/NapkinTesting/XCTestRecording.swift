import Foundation
import XCTest

// How the XCTest support records a verdict, per platform: the only code
// that differs between Apple's XCTest and swift-corelibs-xctest (Linux,
// Windows). The Apple half compiles only on a Mac (docs/apple.md).

#if canImport(Darwin)
extension XCTestCase {
    /// Records `report` with Apple's XCTest: one `XCTIssue` per finding,
    /// at its line (`XCTSourceCodeLocation`; without one, XCTest places it
    /// on the test), and the recorded trace as an `XCTAttachment` of the
    /// test (Xcode keeps it in the result bundle).
    func recordLeaks(_ report: XCTestLeakReport) {
        let attachment = XCTAttachment(string: report.trace)
        attachment.name = report.traceFileName
        add(attachment)
        // With `continueAfterFailure` false, XCTest interrupts the test at a
        // recorded issue: the verdict comes after the test, so let every
        // finding be recorded, then restore the test's setting.
        let continues = continueAfterFailure
        continueAfterFailure = true
        defer { continueAfterFailure = continues }
        for failure in report.failures {
            var issue = XCTIssue(type: .assertionFailure, compactDescription: failure.text)
            if let file = failure.file {
                issue.sourceCodeContext = XCTSourceCodeContext(location: XCTSourceCodeLocation(filePath: file, lineNumber: failure.line))
            }
            record(issue)
        }
    }
}
#else
extension XCTestCase {
    /// Records `report` with swift-corelibs-xctest, which has neither
    /// `XCTIssue` nor attachments: the trace is written to a temporary file
    /// (``XCTestLeakReport/writeTrace(to:)``) and each failure, recorded at
    /// its line, ends with that file's path. A failure without a line (a
    /// finding that names no code, in ``NapkinLeakCheckedTestCase``) is
    /// recorded at `<EXPR>:0`, as XCTest records a thrown error.
    func recordLeaks(_ report: XCTestLeakReport) {
        let trace = report.writeTrace()
        for failure in report.failures {
            recordFailure(withDescription: failure.text + "\n" + trace, inFile: failure.file ?? "<EXPR>",
                          atLine: failure.file == nil ? 0 : failure.line, expected: true)
        }
    }
}
#endif

extension XCTestLeakReport {
    /// Writes the trace to `directory` (the temporary directory by default)
    /// as `napkin-trace-CLASS-METHOD-PID.ndjson` (the process id keeps
    /// parallel test processes apart) and says where, as the failure's last
    /// line: `  trace: PATH`, or why it could not.
    func writeTrace(to directory: URL = FileManager.default.temporaryDirectory) -> String {
        let name = traceFileName.replacingOccurrences(of: ".ndjson", with: "-\(ProcessInfo.processInfo.processIdentifier).ndjson")
        let url = directory.appendingPathComponent(name)
        do {
            try trace.write(to: url, atomically: true, encoding: .utf8)
            return "  trace: \(url.path)"
        } catch {
            return "  trace: not written to \(url.path): \(error)"
        }
    }
}
