// What the in-app detector (NapkinDetector) writes, read back by the tests
// that run a detecting child process: its finding lines on standard error,
// and the statistics line TraceProbe prints on standard output.
import Foundation

/// One `napkin detect:` finding line:
///
///     napkin detect: error[not-deallocated] LoggedInRouter#7: … at RibHouse/LoggedInRouter.swift:57 (attached) [fingerprint 3f0c…]
public struct DetectLine: Sendable, Hashable, CustomStringConvertible {
    /// What every line of the detector starts with.
    public static let prefix = "napkin detect: "

    /// `error` or `warning`.
    public var severity: String
    /// The rule's identifier, e.g. `not-deallocated`.
    public var rule: String
    /// The subject's type name (before `#`).
    public var type: String
    /// The subject's id (after `#`).
    public var id: Int
    /// The 16 hex digits of `[fingerprint …]`.
    public var fingerprint: String
    /// The whole line.
    public var line: String

    /// Parses a finding line; nil for any other line (another notice of the
    /// detector included: "the handler threw", "not reported").
    public init?(_ line: some StringProtocol) {
        let line = String(line)
        guard line.hasPrefix(Self.prefix) else { return nil }
        let rest = line.dropFirst(Self.prefix.count)
        guard let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") else { return nil }
        severity = String(rest[..<open])
        guard severity == "error" || severity == "warning" else { return nil }
        rule = String(rest[rest.index(after: open)..<close])
        let subject = rest[rest.index(after: close)...].drop { $0 == " " }
        guard let hash = subject.firstIndex(of: "#") else { return nil }
        type = String(subject[..<hash])
        guard let id = Int(subject[subject.index(after: hash)...].prefix { $0.isNumber }) else { return nil }
        self.id = id
        let marker = " [fingerprint "
        guard line.hasSuffix("]"), let range = line.range(of: marker, options: .backwards) else { return nil }
        fingerprint = String(line[range.upperBound..<line.index(before: line.endIndex)])
        guard fingerprint.count == 16, fingerprint.allSatisfy(\.isHexDigit) else { return nil }
        self.line = line
    }

    /// The finding lines among `lines` (in order).
    public static func all(in lines: [String]) -> [DetectLine] {
        lines.compactMap(DetectLine.init)
    }

    public var description: String { line }
}

/// The line that follows a finding's with what holds its object, tied to it
/// by the fingerprint (a path, or why there is none):
///
///     napkin detect: LoggedInRouter#7 retained by: … (1 of 1 strong reference found) [fingerprint 3f0c…]
///     napkin detect: LoggedInRouter#7 no retainer path (0 strong references found): Not searched: … [fingerprint 3f0c…]
public struct DetectPathLine: Sendable, Hashable, CustomStringConvertible {
    /// `LoggedInRouter#7`.
    public var subject: String
    /// Whether it names a path (`retained by:`).
    public var hasPath: Bool
    /// The 16 hex digits of `[fingerprint …]`.
    public var fingerprint: String
    /// The whole line.
    public var line: String

    /// Parses a path line; nil for any other line.
    public init?(_ line: some StringProtocol) {
        let line = String(line)
        guard line.hasPrefix(DetectLine.prefix), DetectLine(line) == nil else { return nil }
        let rest = line.dropFirst(DetectLine.prefix.count)
        guard let space = rest.firstIndex(of: " ") else { return nil }
        subject = String(rest[..<space])
        let what = rest[rest.index(after: space)...]
        guard subject.contains("#"), what.hasPrefix("retained by: ") || what.hasPrefix("no retainer path") else { return nil }
        hasPath = what.hasPrefix("retained by: ")
        let marker = " [fingerprint "
        guard line.hasSuffix("]"), let range = line.range(of: marker, options: .backwards) else { return nil }
        fingerprint = String(line[range.upperBound..<line.index(before: line.endIndex)])
        self.line = line
    }

    /// The path lines among `lines` (in order).
    public static func all(in lines: [String]) -> [DetectPathLine] {
        lines.compactMap(DetectPathLine.init)
    }

    public var description: String { line }
}

/// `NapkinDetector.statistics` as TraceProbe prints it:
/// `statistics findings=F reported=R repeats=P dropped=D handlerErrors=E`.
public struct PrintedDetectorStatistics: Sendable, Hashable, CustomStringConvertible {
    public var findings: Int
    public var reported: Int
    public var repeats: Int
    public var dropped: Int
    public var handlerErrors: Int

    public init(findings: Int, reported: Int, repeats: Int, dropped: Int, handlerErrors: Int) {
        self.findings = findings
        self.reported = reported
        self.repeats = repeats
        self.dropped = dropped
        self.handlerErrors = handlerErrors
    }

    /// The last statistics line of `lines`, if any.
    public init?(lines: [String]) {
        guard let line = lines.last(where: { $0.hasPrefix("statistics ") }) else { return nil }
        var values: [String: Int] = [:]
        for field in line.split(separator: " ").dropFirst() {
            let parts = field.split(separator: "=", maxSplits: 1)
            guard parts.count == 2, let value = Int(parts[1]) else { return nil }
            values[String(parts[0])] = value
        }
        guard let findings = values["findings"], let reported = values["reported"], let repeats = values["repeats"],
              let dropped = values["dropped"], let handlerErrors = values["handlerErrors"] else { return nil }
        self.init(findings: findings, reported: reported, repeats: repeats, dropped: dropped, handlerErrors: handlerErrors)
    }

    public var description: String {
        "findings=\(findings) reported=\(reported) repeats=\(repeats) dropped=\(dropped) handlerErrors=\(handlerErrors)"
    }
}
