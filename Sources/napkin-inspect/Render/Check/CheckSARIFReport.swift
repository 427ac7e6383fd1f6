import NapkinTrace

/// `check --format sarif`: one SARIF 2.1.0 log with one run, for GitHub code
/// scanning (`github/codeql-action/upload-sarif`) and SARIF viewers
/// (docs/check-output.md).
///
/// The run names the tool and its rules (``SARIFRules``), holds one result
/// per finding and per trace problem (``SARIFResults``), and one invocation:
/// `executionSuccessful` is false when a trace could not be read or trusted,
/// `exitCode` is `check`'s exit status. Allowed findings are not results
/// (GitHub would show them as open alerts: it does not honour SARIF
/// suppressions); they are counted in a notification, as are findings not
/// kept and checks left undecided. GitHub rejects a run of more than
/// ``maxResults`` results: beyond that, trace problems come first, then
/// errors, then warnings, and a notification counts the rest.
enum CheckSARIFReport {
    /// The most results in the run (GitHub code scanning's limit per run).
    static let maxResults = 25_000

    /// The log for `traces`, as JSON text; source files are looked up in
    /// `sources`, `exitStatus` is the status `check` exits with.
    static func render(_ traces: [CheckedTrace], sources: SourceRoot, exitStatus: Int32) -> String {
        let locator = SARIFLocator(sources: sources)
        var candidates: [(rank: Int, result: SARIF.Result)] = []
        var notes: [SARIF.Notification] = []
        for trace in traces {
            let results = SARIFResults(trace, locator: locator)
            candidates += results.problems.map { (0, $0) }
            candidates += zip(trace.findings, results.findings).map { ($0.severity == .error ? 1 : 2, $1) }
            notes += notifications(trace)
        }
        let kept = keeping(candidates, max: maxResults)
        if kept.count < candidates.count {
            notes.append(SARIF.Notification(level: "warning", message: SARIF.Message(
                text: "\(NumberFormat.grouped(candidates.count - kept.count)) results not written: GitHub code scanning accepts at most "
                    + "\(NumberFormat.grouped(maxResults)) per run (trace problems, then errors, were kept first); --format json lists them all")))
        }
        let invocation = SARIF.Invocation(executionSuccessful: traces.allSatisfy { $0.traceProblems.isEmpty }, exitCode: exitStatus,
                                          toolExecutionNotifications: notes)
        let run = SARIF.Run(tool: SARIF.Tool(driver: SARIF.Driver(rules: SARIFRules.descriptors)), invocations: [invocation],
                            originalUriBaseIds: locator.baseIDs, results: kept)
        return JSONOutput.text(SARIF.Log(runs: [run]), snakeCaseKeys: false)
    }

    /// The results of `candidates`, in their order: all of them, or the `max` of lowest rank (then first).
    static func keeping<Item>(_ candidates: [(rank: Int, result: Item)], max: Int) -> [Item] {
        guard candidates.count > max else { return candidates.map { $0.result } }
        let chosen = Set(candidates.indices.sorted { (candidates[$0].rank, $0) < (candidates[$1].rank, $1) }.prefix(max))
        return candidates.indices.filter(chosen.contains).map { candidates[$0].result }
    }

    /// What a trace's results do not show: findings not kept, allowed, undecided.
    private static func notifications(_ trace: CheckedTrace) -> [SARIF.Notification] {
        let path = PrintableText.printable(trace.path, limit: 300)
        var notes: [SARIF.Notification] = []
        if trace.findingsNotKept > 0 {
            notes.append(SARIF.Notification(level: "warning", message: SARIF.Message(text: "\(path): " + FindingLine.notKeptNote(trace.findingsNotKept))))
        }
        if !trace.allowed.isEmpty {
            notes.append(SARIF.Notification(level: "note", message: SARIF.Message(
                text: "\(path): \(NumberFormat.count(trace.allowed.count, "finding")) allowed by the allow-list (--allow), not written as results")))
        }
        if trace.undecided > 0 {
            notes.append(SARIF.Notification(level: "note", message: SARIF.Message(
                text: "\(path): \(NumberFormat.count(trace.undecided, "check")) undecided: the trace ended less than a grace period after their event")))
        }
        return notes
    }
}
