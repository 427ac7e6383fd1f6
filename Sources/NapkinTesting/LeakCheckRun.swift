import NapkinTrace

/// One test's leak check, whatever library runs the test: the part the
/// Swift Testing trait (``NapkinLeakCheck``) and the XCTest support
/// (``NapkinLeakCheckedTestCase``, `XCTestCase.napkinLeakCheck(...)`)
/// share. Each of them only adapts it to its library: when to call what,
/// and how a failure and an attachment are recorded.
///
/// 1. ``record(_:)`` runs the test inside a recording scope,
///    a task-local value: the tasks the test starts inherit it, parallel
///    tests never mix, and there is no global recorder;
/// 2. ``verdict()`` waits while something the test let go is pending
///    (``VerdictWait``: not at all for a clean test), analyses the
///    recording and closes it: the findings, and the recorded trace to
///    attach;
/// 3. the glue records one failure per finding (``FindingMessage``: the
///    text and the line of the app's code) and attaches the trace.
///
/// A test that failed on its own gets ``end()`` instead of ``verdict()``:
/// no verdict (docs/testing.md, "A test that fails on its own").
///
/// Under `napkin-inspect check -- swift test` (``NapkinTrace/isTracingProcess``)
/// nothing is recorded in memory: the process's trace gets the test's
/// objects, ``record(_:)`` and ``verdict()`` mark where the
/// test starts and ends (``NapkinTrace/testStarted(_:)``), ``verdict()``
/// waits for the test's own objects (``NapkinTrace/ScopeTallies``) before the end mark, and the verdict is
/// `check`'s (``verdict()`` returns nil).
struct LeakCheckRun: Sendable {
    /// The check's settings (``NapkinLeakCheck``'s properties).
    let check: NapkinLeakCheck
    /// How the trace's test marks name the test (`ShopTests/leaveTheShop()`).
    let testName: String
    /// The test's recording; nil when the whole process is traced.
    let recorder: TraceRecorder?
    /// The test's tally in the process trace (``NapkinTrace/ScopeTallies``),
    /// what its wait waits for when the process is traced.
    private let scope = ScopeActivity()

    /// A check with `check`'s settings for the test `testName`, recorded
    /// in memory (as the app `recordingName`) unless the process is traced.
    init(_ check: NapkinLeakCheck, testName: String, recordingName: String) {
        self.check = check
        self.testName = testName
        recorder = NapkinTrace.isTracingProcess ? nil : TraceRecorder(app: recordingName)
    }

    /// Whether the test is recorded in memory (false under `check -- swift test`).
    var records: Bool { recorder != nil }

    /// Runs the test, `body`, inside the recording scope (under `check`,
    /// after the trace's start mark). An error it throws is rethrown; call
    /// ``end()`` then.
    nonisolated(nonsending) func record(_ body: () async throws -> Void) async rethrows {
        guard let recorder else {
            NapkinTrace.testStarted(testName)
            try await ScopeTallies.withScope(scope) { try await body() }
            return
        }
        try await recorder.record { try await body() }
    }

    /// ``record(_:)`` for a synchronous `body` (XCTest's `invokeTest()`).
    func record(_ body: () throws -> Void) rethrows {
        guard let recorder else {
            NapkinTrace.testStarted(testName)
            try ScopeTallies.withScope(scope) { try body() }
            return
        }
        try recorder.record { try body() }
    }

    /// After the test: waits for what it let go (``VerdictWait``), then its
    /// findings with the recorded trace, or nil when there is nothing to
    /// report (no finding, or the process is traced: `check` decides). The
    /// recording is closed either way. Throws if the task is cancelled
    /// while waiting.
    func verdict() async throws -> LeakVerdict? {
        let wait = VerdictWait(grace: check.grace, viewGrace: check.viewGrace)
        guard let recorder else {
            // What the test let go deallocates inside its own window of the trace.
            defer { NapkinTrace.testEnded(testName) }
            try await wait.quiet(scope: scope)
            return nil
        }
        var report: AnalysisReport
        do {
            // Each event analysed once, however often the wait looks.
            var analysis = RecordingAnalysis(recorder, grace: check.grace, expectTeardown: check.expectTeardown,
                                             viewGrace: check.viewGrace, maxAlive: check.maxAlive)
            report = try await wait.settle(activity: recorder.activity) { analysis.report() }
        } catch {
            recorder.finish()
            throw error
        }
        // What holds each object still alive, found while the test's objects
        // live, and recorded into the trace attached to the failure.
        if check.retainers { report = await recorder.findRetainers(in: report) }
        // The recording is complete: its end record lets `napkin-inspect` decide what the check decided.
        recorder.finish()
        guard !report.isClean else { return nil }
        return LeakVerdict(findings: report.findings, trace: recorder.ndjson)
    }

    /// No verdict (the test failed on its own): closes the recording, or
    /// marks the test's end in the process's trace.
    func end() {
        if let recorder {
            recorder.finish()
        } else {
            NapkinTrace.testEnded(testName)
        }
    }
}

/// What a test's leak check found: its findings, and the test's recorded
/// trace to attach to the failure (for `napkin-inspect tree`, `timeline`
/// or `check`, with the same `--grace` to decide the same).
struct LeakVerdict: Sendable {
    /// The findings, in the analysis's order; never empty.
    var findings: [Finding]
    /// The recording as NDJSON (trace format v1), with its end record.
    var trace: String

    /// The failures to record, one per finding, for a test declared in
    /// `test` (nil: unknown) of a package that may be in `packageRoots`.
    func messages(test: TestSource?, packageRoots: [String] = [],
                  fileExists: (String) -> Bool = IssueLocation.fileExists) -> [FindingMessage] {
        findings.map { FindingMessage($0, test: test, packageRoots: packageRoots, fileExists: fileExists) }
    }

    /// `napkin-trace-NAME.ndjson`: the name of a failing test's recorded
    /// trace, from the test's name (`NAME` keeps its ASCII letters, digits
    /// and `_`).
    static func traceFileName(for testName: String) -> String {
        let name = testName.filter { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_") }
        return name.isEmpty ? "napkin-trace.ndjson" : "napkin-trace-\(name).ndjson"
    }
}
