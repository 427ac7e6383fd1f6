import NapkinTrace

/// `check --format json`: one object, schema version 1 (docs/check-output.md).
struct CheckJSONReport: Encodable {
    /// Always `napkin-inspect`.
    var tool = "napkin-inspect"
    /// The tool's version.
    var version = NapkinInspect.version
    /// The version of this layout.
    var schema = 1
    /// True when no trace has a finding (allowed ones do not count).
    var clean: Bool
    /// Counts over every trace.
    var summary: Summary
    /// One object per trace file.
    var traces: [Trace]

    /// Counts over every trace.
    struct Summary: Encodable {
        var traces: Int
        var findings: Int
        var errors: Int
        var warnings: Int
        var allowed: Int
        var undecided: Int
    }

    /// One trace file.
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

    /// One finding.
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

        /// The JSON form of `finding`.
        init(_ finding: Finding) {
            rule = finding.rule.rawValue
            severity = finding.severity.rawValue
            subject = finding.subject.rawValue
            type = finding.type
            id = finding.id
            label = finding.label
            seqs = finding.seqs
            timeNs = finding.time
            message = finding.message
        }
    }

    /// The report for `traces`, as JSON text.
    static func render(_ traces: [CheckedTrace]) -> String {
        let all = traces.flatMap(\.findings)
        let errors = all.filter { $0.severity == .error }.count
        let report = CheckJSONReport(
            clean: all.isEmpty,
            summary: Summary(traces: traces.count, findings: all.count, errors: errors, warnings: all.count - errors,
                             allowed: traces.reduce(0) { $0 + $1.allowed.count }, undecided: traces.reduce(0) { $0 + $1.undecided }),
            traces: traces.map { t in
                Trace(path: t.path, app: t.session?.app, pid: t.session?.pid, events: t.events, endedCleanly: t.endedCleanly,
                      droppedEvents: t.droppedEvents, undecided: t.undecided, durationNs: t.endTime,
                      findings: t.findings.map(Item.init), allowed: t.allowed.map(Item.init))
            })
        return JSONOutput.text(report)
    }
}
