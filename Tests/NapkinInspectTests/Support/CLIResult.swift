import Foundation
import Testing
import TestSupport

/// What a program run by ``CLIHarness`` did.
struct CLIResult: Sendable, CustomStringConvertible {
    var command: [String]
    /// The exit code, or 128 + the signal that killed it (as a shell reports it).
    var status: Int32
    /// Standard output, as it was written.
    var stdoutData: Data
    /// Standard error, as it was written.
    var stderrData: Data
    /// Standard output as text (invalid UTF-8 shown as U+FFFD).
    var stdout: String { String(decoding: stdoutData, as: UTF8.self) }
    /// Standard error as text (invalid UTF-8 shown as U+FFFD).
    var stderr: String { String(decoding: stderrData, as: UTF8.self) }

    /// Non-empty lines of standard output.
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    /// Non-empty lines of standard error.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    /// The command, its status and (the start of) its output, for failure messages.
    var description: String {
        "`\(command.joined(separator: " "))` exited \(status)\n--- stdout:\n\(Self.excerpt(stdoutData))--- stderr:\n\(Self.excerpt(stderrData))---"
    }

    /// The first 8 KiB of `data` as text, and how much more there is.
    static func excerpt(_ data: Data) -> String {
        let limit = 8_192
        let text = String(decoding: data.prefix(limit), as: UTF8.self)
        return data.count > limit ? text + "\n[... \(data.count - limit) more bytes]\n" : text
    }
}

/// A program that did not finish in time; it and its process group were killed.
struct CLITimeout: Error, CustomStringConvertible {
    var command: [String]
    var seconds: Double
    var stdout: String
    var stderr: String

    var description: String {
        "`\(command.joined(separator: " "))` did not finish within \(seconds)s and was killed\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)---"
    }
}

/// What a program reads on standard input.
enum CLIInput: Sendable {
    /// `/dev/null`.
    case none
    /// These bytes.
    case data(Data)
    /// This file.
    case file(String)
}

extension String {
    /// Whether the text holds an ANSI escape sequence (a colour).
    var hasANSIEscape: Bool { contains("\u{1B}[") }

    /// The contents of a file under the repository root.
    static func repoFile(_ relativePath: String) throws -> String {
        try String(contentsOf: PackagePaths.root.appendingPathComponent(relativePath), encoding: .utf8)
    }
}

extension CLIResult {
    /// Expects exit status `status`, nothing on standard output when
    /// `emptyStdout`, and exactly one line on standard error; returns that line.
    @discardableResult
    func expectOneStderrLine(status: Int32, emptyStdout: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(self.status == status, "\(self)", sourceLocation: sourceLocation)
        if emptyStdout { #expect(stdout.isEmpty, "\(self)", sourceLocation: sourceLocation) }
        #expect(stderrLines.count == 1, "\(self)", sourceLocation: sourceLocation)
        return try #require(stderrLines.first, "\(self)", sourceLocation: sourceLocation)
    }
}
