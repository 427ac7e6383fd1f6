import Foundation
@testable import NapkinTesting
import NapkinTrace
import TestSupport

/// `swift test` of another package, run as a user would (working directory
/// the repository root, `NAPKIN_TRACE` and `NAPKIN_DETECT` cleared), its
/// output read back: what the end-to-end tests of the XCTest support check.
struct SwiftTestRun: Sendable, CustomStringConvertible {
    /// The arguments after `swift`.
    var arguments: [String]
    /// The exit status (128 + the signal for a killed process).
    var status: Int32
    /// Standard output and standard error, one after the other (XCTest and
    /// Swift Testing do not write to the same one).
    var output: String

    /// The output's lines.
    var lines: [String] { output.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }

    /// The command, its status and its output (the last 16 KiB), for failure messages.
    var description: String {
        "`swift \(arguments.joined(separator: " "))` exited \(status)\n---\n\(output.suffix(16_384))\n---"
    }

    /// Runs `swift ARGUMENTS` from `directory` (the repository root by
    /// default) with `environment` added; killed (with everything it
    /// started) after `timeout`, which is for a hang only (a first run builds
    /// the package: minutes).
    static func run(_ arguments: [String], environment: [String: String] = [:], from directory: String? = nil,
                    timeout: Duration) async throws -> SwiftTestRun {
        guard let swift = executable(named: "swift") else { throw TestFailure("swift is not on PATH") }
        let scratch = try ScratchDirectory("swift-test")
        defer { scratch.remove() }
        let outPath = scratch.file("stdout"), errPath = scratch.file("stderr")
        let adding = environment.mapValues { Optional($0) }
        let env = ChildProcess.environment(removing: ["NAPKIN_TRACE", "NAPKIN_DETECT"], adding: adding)
        // `sh` changes to the directory (posix_spawn has no portable chdir).
        let argv = ["/bin/sh", "-c", "cd -- \"$1\" || exit 125; shift; exec \"$@\"", "sh", directory ?? PackagePaths.root.path, swift] + arguments
        let child = try ChildProcess.spawn(argv, environment: env, descriptors: [.reading("/dev/null"), .writing(outPath), .writing(errPath)],
                                           ownProcessGroup: true, defaultSignals: true)
        let status: ChildProcess.Status?
        do {
            status = try await child.wait(until: ContinuousClock.now + timeout)
        } catch {
            child.killGroup()
            _ = child.waitBlocking()
            throw error
        }
        // Nothing it started may outlive the test.
        child.killGroup()
        let output = [outPath, errPath].map { String(decoding: FileManager.default.contents(atPath: $0) ?? Data(), as: UTF8.self) }
            .joined(separator: "\n")
        guard let status else {
            _ = child.waitBlocking()
            throw TestFailure("`swift \(arguments.joined(separator: " "))` still running after \(timeout): killed\n\(output.suffix(8_192))")
        }
        return SwiftTestRun(arguments: arguments, status: status.shellStatus, output: output)
    }

    /// The first executable `name` on `PATH`.
    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    // MARK: - XCTest's output

    /// XCTest's verdict per test, by `Class.method`: `passed` or `failed`
    /// (`Test Case 'Class.method' passed (0.012 seconds).`, or
    /// `'-[Module.Class method]'` with Apple's XCTest).
    var xctestVerdicts: [String: String] {
        var verdicts: [String: String] = [:]
        for line in lines where line.hasPrefix("Test Case '") {
            let rest = line.dropFirst("Test Case '".count)
            guard let quote = rest.firstIndex(of: "'") else { continue }
            let words = rest[rest.index(after: quote)...].split(separator: " ")
            guard let verdict = words.first, verdict == "passed" || verdict == "failed" else { continue }
            let names = XCTestNames(testCaseName: String(rest[..<quote]))
            verdicts["\(names.className).\(names.methodName)"] = String(verdict)
        }
        return verdicts
    }

    /// One failure XCTest printed: `FILE:LINE: error: Class.method : TEXT`,
    /// then the text's further lines (indented by two spaces).
    struct XCTestFailure: Sendable, CustomStringConvertible {
        /// `Class.method`.
        var test: String
        var file: String
        var line: Int
        /// The failure's text, line by line.
        var text: [String]

        var description: String { "\(file):\(line): \(test): \(text.joined(separator: "\n"))" }
    }

    /// The failures XCTest printed, in order.
    var xctestFailures: [XCTestFailure] {
        var failures: [XCTestFailure] = []
        var continues = false
        for line in lines {
            if continues, line.hasPrefix("  ") {
                // A further line of the last failure's text (a napkin failure's `at`, `see`, `trace` lines).
                failures[failures.count - 1].text.append(line)
                continue
            }
            continues = false
            guard let error = line.range(of: ": error: "), let separator = line.range(of: " : ", range: error.upperBound..<line.endIndex)
            else { continue }
            let place = line[..<error.lowerBound]
            guard let colon = place.lastIndex(of: ":"), let number = Int(place[place.index(after: colon)...]) else { continue }
            let names = XCTestNames(testCaseName: String(line[error.upperBound..<separator.lowerBound]))
            failures.append(XCTestFailure(test: "\(names.className).\(names.methodName)", file: String(place[..<colon]), line: number,
                                          text: [String(line[separator.upperBound...])]))
            continues = true
        }
        return failures
    }

    /// The failures of the test `Class.method`.
    func xctestFailures(of test: String) -> [XCTestFailure] { xctestFailures.filter { $0.test == test } }

    // MARK: - Swift Testing's output

    /// The lines of the issues Swift Testing printed for the test `name`
    /// (`leavesWithBasketOpen()`): from `recorded an issue at` to the next
    /// `see docs/findings.md#` (a leak's) or to the issue's first line, trimmed.
    func swiftTestingIssues(of name: String) -> [[String]] {
        let lines = lines
        var issues: [[String]] = []
        for (index, line) in lines.enumerated() where line.contains("Test \(name) recorded an issue at ") {
            var block = [line.trimmingCharacters(in: .whitespaces)]
            for next in lines[(index + 1)...] {
                if next.contains(" recorded an issue at ") || next.contains(" Test ") && next.contains(" after ") { break }
                block.append(next.trimmingCharacters(in: .whitespaces))
                if next.contains("see docs/findings.md#") { break }
            }
            issues.append(block)
        }
        return issues
    }
}

/// A finding as a failure's text names it: enough to compute its
/// fingerprint (the rule, the type, the code locations: `Finding.fingerprint`).
struct PrintedFinding: Sendable, Equatable, CustomStringConvertible {
    var rule: String
    var type: String
    var locations: [Finding.CodeReference]

    /// The finding in a failure's lines: `napkin leak check: error[RULE] TYPE#ID: ...`
    /// and its `at FILE:LINE (ROLE)` lines; nil if the lines hold none.
    init?(_ lines: [String]) {
        let headers = lines.compactMap { line in line.range(of: "napkin leak check: ").map { line[$0.upperBound...] } }
        guard let header = headers.first,
              let open = header.firstIndex(of: "["), let close = header.firstIndex(of: "]"), open < close,
              let hash = header[close...].firstIndex(of: "#") else { return nil }
        rule = String(header[header.index(after: open)..<close])
        type = String(header[header.index(close, offsetBy: 2)..<hash])
        locations = lines.compactMap { line in
            let text = line.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("at "), let space = text.lastIndex(of: " "), let colon = text[..<space].lastIndex(of: ":"),
                  let number = UInt(text[text.index(after: colon)..<space]),
                  let role = Finding.CodeReference.Role(rawValue: String(text[text.index(after: space)...].dropFirst().dropLast()))
            else { return nil }
            return Finding.CodeReference(role, CodeLocation(fileID: String(text.dropFirst(3)[..<colon]), line: number))
        }
    }

    /// The finding's fingerprint (`Finding.fingerprint`), from what the text says.
    var fingerprint: String? {
        guard let rule = Finding.Rule(rawValue: rule) else { return nil }
        return Finding(rule: rule, subject: .router, type: type, id: 0, seqs: [], time: 0, message: "", locations: locations).fingerprint
    }

    var description: String { "\(rule) \(type) \(locations)" }
}
