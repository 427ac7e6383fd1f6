import NapkinTrace

/// `check --format junit`: one test suite per trace, one test case per rule
/// (stable names across runs), failing with the rule's findings.
enum CheckJUnitReport {
    /// The report for `traces`, as JUnit XML.
    static func render(_ traces: [CheckedTrace]) -> String {
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

    /// `text` escaped for XML 1.0 attributes and text; forbidden control characters become `?`.
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
                if scalar.value < 0x20 || (0xFFFE...0xFFFF).contains(scalar.value) { out += "?" } else { out.unicodeScalars.append(scalar) }
            }
        }
        return out
    }
}
