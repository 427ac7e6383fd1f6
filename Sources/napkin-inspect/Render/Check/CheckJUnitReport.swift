import NapkinTrace

/// `check --format junit`: one test suite per trace, one test case per rule
/// (stable names across runs), failing with the rule's findings, and a
/// `trace-integrity` test case that fails with the trace's problems.
///
/// Valid XML 1.0 for any input: every text from the trace is made printable
/// first (XML 1.0 cannot carry most control characters, even as references),
/// then escaped. Every finding is listed; the findings not kept are counted
/// in each failure's message.
///
/// Code locations are text only: each finding's `  at ...` line (as the
/// text format writes it), never `file`/`line` attributes. So a location
/// that names a function (a creation recorded on a device, no line) needs
/// nothing of its own: it reads `at RibHouse/LoggedInBuilder.build(withListener:) (created)`,
/// and no attribute ever carries a line 0.
enum CheckJUnitReport {
    /// The name of the test case about the trace itself.
    static let integrityCase = "trace-integrity"

    /// The report for `traces`, as JUnit XML; each finding's line is followed
    /// by where it points in the code (looked up in `sources`).
    static func render(_ traces: [CheckedTrace], sources: SourceRoot? = nil) -> String {
        let rules = Finding.Rule.allCases
        let failing = traces.map { trace in rules.filter { r in trace.findings.contains { $0.rule == r } }.count + (trace.traceProblems.isEmpty ? 0 : 1) }
        var out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        out += "<testsuites name=\"napkin-inspect\" tests=\"\(traces.count * (rules.count + 1))\" failures=\"\(failing.reduce(0, +))\" errors=\"0\">\n"
        for (trace, suiteFailures) in zip(traces, failing) {
            let path = PrintableText.printable(trace.path)
            let seconds = String(format3: Double(trace.overview.durationNs) / 1e9)
            out += "  <testsuite name=\"\(xml(path))\" tests=\"\(rules.count + 1)\" failures=\"\(suiteFailures)\" errors=\"0\" skipped=\"0\" time=\"\(seconds)\">\n"
            let className = xml("napkin-inspect." + (path.split(separator: "/").last.map(String.init) ?? path))
            let notKept = trace.findingsNotKept == 0 ? ""
                : "; \(NumberFormat.grouped(trace.findingsNotKept)) more findings (of any rule) were established but not kept"
            out += testCase(className, integrityCase, failure: trace.traceProblems.isEmpty ? nil : (
                "\(NumberFormat.count(trace.traceProblems.count, "trace problem"))", integrityCase,
                trace.traceProblems.map { PrintableText.printable($0) }))
            for rule in rules {
                let found = trace.findings.filter { $0.rule == rule }
                let subjects = found.prefix(20).map(FindingLine.subject).joined(separator: ", ") + (found.count > 20 ? ", \u{2026}" : "")
                out += testCase(className, rule.rawValue, failure: found.isEmpty ? nil : (
                    "\(found.count) \(rule.title) finding\(found.count == 1 ? "" : "s"): \(subjects)\(notKept)", rule.rawValue,
                    found.flatMap { finding in
                        [FindingLine.styled(finding, style: .plain, rate: trace.rate(of: finding))]
                            + [FindingLine.locationLine(finding, style: .plain, sources: sources),
                               FindingLine.testLine(finding, style: .plain)].compactMap { $0 }
                            + RetainerText.indentedLines(finding, style: .plain)
                    }))
            }
            out += "  </testsuite>\n"
        }
        out += "</testsuites>\n"
        return out
    }

    /// A `<testcase>`, passing, or failing with a message, a type and one line per item.
    private static func testCase(_ className: String, _ name: String, failure: (message: String, type: String, lines: [String])?) -> String {
        var out = "    <testcase classname=\"\(className)\" name=\"\(xml(name))\" time=\"0\""
        guard let failure else { return out + "/>\n" }
        out += ">\n      <failure message=\"\(xml(failure.message))\" type=\"\(xml(failure.type))\">"
        out += xml(failure.lines.joined(separator: "\n"))
        return out + "</failure>\n    </testcase>\n"
    }

    /// `text` escaped for XML 1.0 attributes and text; a character XML 1.0
    /// forbids (most C0 controls, U+FFFE, U+FFFF) becomes `?`, so the output is
    /// well-formed even for text that did not go through ``PrintableText``.
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
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) {
                    out += "?"
                } else if PrintableText.needsEscape(scalar) {
                    out += "&#x\(String(scalar.value, radix: 16));"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
