import Foundation
import NapkinTrace

/// The result of checking one trace, as the output formats see it.
struct CheckedTrace {
    var path: String
    var session: SessionInfo?
    var events: Int
    var endedCleanly: Bool
    var droppedEvents: UInt64
    var undecided: Int
    var endTime: UInt64
    var findings: [Finding]
    var allowed: [Finding]
    var diagnostics: [TraceDiagnostic]
}

/// Renders findings as text, JSON, JUnit XML or GitHub Actions annotations.
enum FindingFormats {
    /// `error[rule] Type#id: message (seq ...)`, coloured.
    static func styled(_ finding: Finding, style: Style) -> String {
        let head = "\(finding.severity.rawValue)[\(finding.rule.rawValue)]"
        let seqText = finding.seqs.isEmpty ? "" : style.dim(" (seq \(finding.seqs.map(String.init).joined(separator: ", ")))")
        return (finding.severity == .error ? style.red(head) : style.yellow(head))
            + " " + style.bold(finding.subjectName) + ": " + finding.message + seqText
    }

    // MARK: Text

    static func text(_ traces: [CheckedTrace], style: Style) -> String {
        var out = ""
        for trace in traces {
            let errors = trace.findings.filter { $0.severity == .error }.count
            let warnings = trace.findings.count - errors
            if trace.findings.isEmpty {
                out += style.green("\(trace.path): no findings") + style.dim(" (\(trace.events) events\(trace.endedCleanly ? ", ended cleanly" : ""))") + "\n"
            } else {
                let counts = [errors > 0 ? "\(errors) error\(errors == 1 ? "" : "s")" : nil,
                              warnings > 0 ? "\(warnings) warning\(warnings == 1 ? "" : "s")" : nil].compactMap { $0 }
                out += style.bold("\(trace.path): \(trace.findings.count) finding\(trace.findings.count == 1 ? "" : "s") (\(counts.joined(separator: ", ")))") + "\n"
                for finding in trace.findings { out += "  " + styled(finding, style: style) + "\n" }
            }
            var notes: [String] = []
            if !trace.allowed.isEmpty { notes.append("\(trace.allowed.count) allowed by the allow-list") }
            if !trace.endedCleanly { notes.append("the trace has no end record (the app crashed, was killed, or is still running)") }
            if trace.undecided > 0 {
                notes.append("\(trace.undecided) check\(trace.undecided == 1 ? "" : "s") undecided: the trace ended less than the grace period after the event")
            }
            for note in notes { out += style.dim("  note: \(note)") + "\n" }
        }
        return out
    }

    // MARK: JSON

    struct JSONReport: Encodable {
        var tool = "napkin-inspect"
        var version = Commands.version
        var schema = 1
        var clean: Bool
        var summary: Summary
        var traces: [Trace]

        struct Summary: Encodable {
            var traces: Int
            var findings: Int
            var errors: Int
            var warnings: Int
            var allowed: Int
            var undecided: Int
        }

        struct Trace: Encodable {
            var path: String
            var app: String?
            var pid: Int?
            var events: Int
            var endedCleanly: Bool
            var droppedEvents: UInt64
            var undecided: Int
            var durationNs: UInt64
            var findings: [Item]
            var allowed: [Item]
        }

        struct Item: Encodable {
            var rule: String
            var severity: String
            var subject: String
            var type: String
            var id: UInt64
            var label: String?
            var seqs: [UInt64]
            var timeNs: UInt64
            var message: String
        }
    }

    static func json(_ traces: [CheckedTrace]) -> String {
        func item(_ f: Finding) -> JSONReport.Item {
            JSONReport.Item(rule: f.rule.rawValue, severity: f.severity.rawValue, subject: f.subject.rawValue, type: f.type,
                            id: f.id, label: f.label, seqs: f.seqs, timeNs: f.time, message: f.message)
        }
        let all = traces.flatMap(\.findings)
        let errors = all.filter { $0.severity == .error }.count
        let report = JSONReport(
            clean: all.isEmpty,
            summary: .init(traces: traces.count, findings: all.count, errors: errors, warnings: all.count - errors,
                           allowed: traces.reduce(0) { $0 + $1.allowed.count }, undecided: traces.reduce(0) { $0 + $1.undecided }),
            traces: traces.map { t in
                JSONReport.Trace(path: t.path, app: t.session?.app, pid: t.session?.pid, events: t.events, endedCleanly: t.endedCleanly,
                                 droppedEvents: t.droppedEvents, undecided: t.undecided, durationNs: t.endTime,
                                 findings: t.findings.map(item), allowed: t.allowed.map(item))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let data = (try? encoder.encode(report)) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }

    // MARK: JUnit

    /// One test suite per trace, one test case per rule (stable names across
    /// runs), failing with the rule's findings.
    static func junit(_ traces: [CheckedTrace]) -> String {
        let rules = Finding.Rule.allCases
        let failures = traces.reduce(0) { sum, t in sum + rules.filter { r in t.findings.contains { $0.rule == r } }.count }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"napkin-inspect\" tests=\"\(traces.count * rules.count)\" failures=\"\(failures)\" errors=\"0\">\n"
        for trace in traces {
            let suiteFailures = rules.filter { r in trace.findings.contains { $0.rule == r } }.count
            let seconds = String(format3: Double(trace.endTime) / 1e9)
            out += "  <testsuite name=\"\(xml(trace.path))\" tests=\"\(rules.count)\" failures=\"\(suiteFailures)\" errors=\"0\" skipped=\"0\" time=\"\(seconds)\">\n"
            let className = "napkin-inspect." + (trace.path.split(separator: "/").last.map(String.init) ?? trace.path)
            for rule in rules {
                let found = trace.findings.filter { $0.rule == rule }
                out += "    <testcase classname=\"\(xml(className))\" name=\"\(rule.rawValue)\" time=\"0\""
                if found.isEmpty {
                    out += "/>\n"
                    continue
                }
                out += ">\n"
                let summary = "\(found.count) \(rule.title) finding\(found.count == 1 ? "" : "s"): " + found.map(\.subjectName).joined(separator: ", ")
                out += "      <failure message=\"\(xml(summary))\" type=\"\(rule.rawValue)\">"
                out += xml(found.map(\.description).joined(separator: "\n"))
                out += "</failure>\n    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    static func xml(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n", "\t", "\r": out.unicodeScalars.append(scalar)
            default:
                // XML 1.0 forbids other control characters.
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }

    // MARK: GitHub

    /// `::error title=...::message` workflow commands, one per finding.
    static func github(_ traces: [CheckedTrace]) -> String {
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

    private static func data(_ s: String) -> String {
        s.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    private static func property(_ s: String) -> String {
        data(s).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
