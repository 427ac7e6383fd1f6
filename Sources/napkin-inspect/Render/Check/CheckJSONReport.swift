import NapkinTrace

/// `check --format json`: one object, schema version 1 (docs/check-output.md).
/// Every finding is kept; each trace is a ``CheckedTrace``, encoded as is.
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
    /// One object per trace file (with `--repeat`: one for all the runs).
    var traces: [TraceJSON]
    /// With `--baseline`: what the baseline knew, and what no longer occurs.
    var baseline: BaselineJSON?
    /// With `--repeat`: the runs made.
    var `repeat`: Repetition?

    /// The `baseline` object: the file, its entries, the findings it knew,
    /// and its entries that matched nothing (in the file's shape).
    struct BaselineJSON: Encodable {
        /// The baseline file, as given.
        var path: String
        /// Entries in the file.
        var entries: Int
        /// Findings the baseline knew, over every trace.
        var known: Int
        /// How many entries matched no finding.
        var noLongerOccurring: Int
        /// Those entries.
        var entriesNoLongerOccurring: [Baseline.Entry]

        /// The outcome of checking with `baseline`, read from `path`, over `traces`.
        init(_ baseline: Baseline, path: String, traces: [CheckedTrace]) {
            self.path = path
            entries = baseline.entries.count
            known = traces.reduce(0) { $0 + $1.known.count }
            entriesNoLongerOccurring = baseline.noLongerOccurring
            noLongerOccurring = entriesNoLongerOccurring.count
        }
    }

    /// The `repeat` object: how many runs were asked for and made, and how each ended.
    struct Repetition: Encodable {
        /// Runs made.
        var runs: Int
        /// Runs `--repeat` asked for (more than `runs` when interrupted).
        var requested: Int
        /// Runs whose command failed.
        var failedRuns: Int
        /// Each run's exit status, in order.
        var statuses: [Int32]
    }

    /// A trace as the report writes it, code locations looked up in `sources`.
    struct TraceJSON: Encodable {
        let trace: CheckedTrace
        let sources: SourceRoot?

        func encode(to encoder: any Encoder) throws {
            try trace.encode(to: encoder, sources: sources)
        }
    }

    /// Counts over every trace.
    struct Summary: Encodable {
        /// Traces checked.
        var traces: Int
        /// Findings, of both severities.
        var findings = 0
        /// Error-severity findings.
        var errors = 0
        /// Warning-severity findings.
        var warnings = 0
        /// Findings the allow-list hid.
        var allowed = 0
        /// Findings the baseline knew.
        var known = 0
        /// Checks the traces ended too early to decide.
        var undecided = 0
        /// Findings established beyond the ones the analysis keeps.
        var findingsNotKept = 0
        /// Problems with the traces themselves.
        var traceProblems = 0

        /// The counts over `traces`.
        init(_ traces: [CheckedTrace]) {
            self.traces = traces.count
            for trace in traces {
                findings += trace.findings.count
                errors += trace.findings.filter { $0.severity == .error }.count
                allowed += trace.allowed.count
                known += trace.known.count
                undecided += trace.undecided
                findingsNotKept += trace.findingsNotKept
                traceProblems += trace.traceProblems.count
            }
            warnings = findings - errors
        }
    }

    /// The report for `traces`, as JSON text; code locations get their
    /// `path` from `sources`, when it finds them; `baseline` and `repetition`
    /// when `check` had `--baseline` or `--repeat`.
    static func render(_ traces: [CheckedTrace], sources: SourceRoot? = nil, baseline: BaselineJSON? = nil,
                       repetition: Repetition? = nil) -> String {
        let summary = Summary(traces)
        return JSONOutput.text(CheckJSONReport(clean: summary.findings == 0 && summary.traceProblems == 0, summary: summary,
                                               traces: traces.map { TraceJSON(trace: $0, sources: sources) },
                                               baseline: baseline, repeat: repetition))
    }
}
