import NapkinTrace

/// The result of checking one trace, as every report format sees it; in
/// `check --format json` it is one element of `traces` (docs/check-output.md).
struct CheckedTrace: Encodable {
    /// The file, the app, the events, whether it is complete.
    var overview: TraceOverview
    /// Checks the end of the trace left undecided.
    var undecided: Int
    /// The findings the allow-list does not allow.
    var findings: [Finding]
    /// The findings the allow-list allows.
    var allowed: [Finding]
    /// The findings the baseline knows (`--baseline`): they do not fail the check.
    var known: [Finding] = []
    /// Findings the analysis established beyond the ones it keeps (``TraceAnalyzer/maxKeptFindings``).
    var findingsNotKept: Int
    /// Why the trace itself cannot be trusted (unusable, or damaged as
    /// NapkinTrace's ``TraceIntegrity`` says), one line each, starting with
    /// the kind of damage; every format shows these lines, and a trace with
    /// any fails `check` with exit status 2.
    var traceProblems: [String] = []
    /// With `--repeat`: how often each finding occurred over the runs, by
    /// fingerprint (empty for a single run).
    var rates: [String: FindingRate] = [:]

    /// The file as given, or the process it came from.
    var path: String {
        get { overview.path }
        set { overview.path = newValue }
    }

    private enum CodingKeys: String, CodingKey {
        case undecided, findings, allowed, known, findingsNotKept, traceProblems
    }

    /// How often `finding` occurred over repeated runs, when this is their report.
    func rate(of finding: Finding) -> FindingRate? {
        rates.isEmpty ? nil : rates[finding.fingerprint]
    }

    /// The overview's fields, then the findings (as ``FindingJSON``) and counts beside them.
    func encode(to encoder: any Encoder) throws {
        try encode(to: encoder, sources: nil)
    }

    /// The same, with the paths of code locations looked up in `sources`.
    func encode(to encoder: any Encoder, sources: SourceRoot?) throws {
        try overview.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(undecided, forKey: .undecided)
        try container.encode(findings.map { FindingJSON(finding: $0, sources: sources, rate: rate(of: $0)) }, forKey: .findings)
        try container.encode(allowed.map { FindingJSON(finding: $0, sources: sources) }, forKey: .allowed)
        try container.encode(known.map { FindingJSON(finding: $0, sources: sources) }, forKey: .known)
        try container.encode(findingsNotKept, forKey: .findingsNotKept)
        try container.encode(traceProblems, forKey: .traceProblems)
    }
}

extension CheckedTrace {
    /// Reads and analyses the trace at `path`, every finding in ``findings``
    /// (the allow-list and the baseline set theirs apart later). The reader's
    /// lines for standard error go to `errorOutput`. A large file is read
    /// ahead on a second thread if `readAhead` (``TraceInput/readAhead``).
    init(analysing path: String, options: TraceAnalyzer.Options, readAhead: Bool = true,
         errorOutput: @escaping (String) -> Void) throws(CommandFailure) {
        var analyzer = TraceAnalyzer(options: options)
        var input = TraceInput(path: path, errorOutput: errorOutput)
        input.readAhead = readAhead
        let summary = try input.read { event in
            analyzer.consume(event)
            return true
        }
        analyzer.finish()
        let integrity = summary.integrity.including(analyzer.state)
        self.init(overview: TraceOverview(path: path, reading: summary, state: analyzer.state), undecided: analyzer.undecided,
                  findings: analyzer.findings, allowed: [], findingsNotKept: analyzer.findingsNotKept,
                  traceProblems: integrity.problems.map { "\($0.kind.rawValue): \($0)" })
    }
}

extension CheckedTrace {
    /// A file that could not be read as a trace: no events, and `problem`
    /// (without the path it may start with) as its one trace problem.
    init(unreadable path: String, problem: String) {
        let reason = problem.hasPrefix(path + ": ") ? String(problem.dropFirst(path.count + 2)) : problem
        self.init(overview: TraceOverview(unreadable: path), undecided: 0, findings: [], allowed: [], findingsNotKept: 0,
                  traceProblems: ["unusable: " + reason])
    }
}

/// A finding as `check --format json` writes it: `rule`, `severity`,
/// `subject`, `type`, `id`, `label` (tasks only), `seqs`, `time_ns`,
/// `message`, `fingerprint`, `locations` (when the trace names code):
/// `role`, `file_id`, `line`, and `path` when it was found under
/// `--source-root`; for a location that names a function (a creation
/// recorded on a device), `role` and `function`
/// (`RibHouse/LoggedInBuilder.build(withListener:)`, as the trace's `fn`
/// field) instead: no `file_id`, `line` or `path`, as it has no file and
/// no line (a `line` of 0 would read as a line); `tests` (when the trace marks its tests); `retainers`
/// (when a retainer search explains it: `paths`, `found`, `total`, `note`,
/// `key`). With
/// `--repeat`, also `runs`, `of`, `count` and `first_run` (``FindingRate``).
struct FindingJSON: Encodable {
    /// The finding written.
    let finding: Finding
    /// Where the files are looked up.
    let sources: SourceRoot?
    /// How often it occurred over repeated runs, if it comes from them.
    var rate: FindingRate? = nil

    private enum CodingKeys: String, CodingKey {
        case rule, severity, subject, type, id, label, seqs, timeNs, message, fingerprint, locations, tests, retainers, runs, of, count, firstRun
    }

    /// What a retainer search found holding the object (``Retainers``):
    /// `paths`, `found`, and `total`, `note` and `key` when known.
    private struct RetainersJSON: Encodable {
        let paths: [String]
        let found: Int
        let total: Int?
        let note: String?
        let key: String?
    }

    /// One code location of a finding: a line (`file_id`, `line`, `path`
    /// when found) or a function (`function`).
    private struct LocationJSON: Encodable {
        let role: String
        let fileId: String?
        let line: UInt?
        let path: String?
        let function: String?

        init(_ reference: Finding.CodeReference, sources: SourceRoot?) {
            role = reference.role.rawValue
            let location = reference.location
            if location.isFunction {
                fileId = nil
                line = nil
                path = nil
                function = location.description
            } else {
                fileId = location.fileID
                line = location.line
                path = sources?.path(of: location)
                function = nil
            }
        }
    }

    /// Writes the finding's fields.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(finding.rule.rawValue, forKey: .rule)
        try container.encode(finding.severity.rawValue, forKey: .severity)
        try container.encode(finding.subject.rawValue, forKey: .subject)
        try container.encode(finding.type, forKey: .type)
        try container.encode(finding.id, forKey: .id)
        try container.encodeIfPresent(finding.label, forKey: .label)
        try container.encode(finding.seqs, forKey: .seqs)
        try container.encode(finding.time, forKey: .timeNs)
        try container.encode(finding.message, forKey: .message)
        try container.encode(finding.fingerprint, forKey: .fingerprint)
        if let rate {
            try container.encode(rate.runs, forKey: .runs)
            try container.encode(rate.of, forKey: .of)
            try container.encode(rate.count, forKey: .count)
            try container.encode(rate.firstRun, forKey: .firstRun)
        }
        if !finding.locations.isEmpty {
            try container.encode(finding.locations.map { LocationJSON($0, sources: sources) }, forKey: .locations)
        }
        if !finding.tests.isEmpty { try container.encode(finding.tests, forKey: .tests) }
        if let retainers = finding.retainers {
            try container.encode(RetainersJSON(paths: retainers.paths, found: retainers.found, total: retainers.total,
                                                note: retainers.note, key: retainers.key), forKey: .retainers)
        }
    }
}
