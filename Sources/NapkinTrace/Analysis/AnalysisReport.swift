/// The result of analysing a trace: its findings, and how sure the analysis is.
public struct AnalysisReport: Sendable, CustomStringConvertible {
    /// Findings in the order they were established.
    public var findings: [Finding]
    /// Checks the trace ended too early to decide (less than a grace period after the event).
    public var undecided: Int
    /// Whether the trace's session ended cleanly (its `end` record is present).
    public var endedCleanly: Bool
    /// Events the app dropped.
    public var droppedEvents: UInt64

    /// Creates a report.
    public init(findings: [Finding], undecided: Int, endedCleanly: Bool, droppedEvents: UInt64) {
        self.findings = findings
        self.undecided = undecided
        self.endedCleanly = endedCleanly
        self.droppedEvents = droppedEvents
    }

    /// True when there is no finding at all.
    public var isClean: Bool { findings.isEmpty }

    /// Findings of one rule.
    public func findings(_ rule: Finding.Rule) -> [Finding] {
        findings.filter { $0.rule == rule }
    }

    /// One finding per line, or `no findings`.
    public var description: String {
        if findings.isEmpty { return "no findings" }
        return findings.map(\.description).joined(separator: "\n")
    }
}

extension TraceAnalyzer {
    /// The report so far (call ``finish()`` first for the final one).
    public var report: AnalysisReport {
        AnalysisReport(findings: findings, undecided: undecided, endedCleanly: state.ended,
                       droppedEvents: state.droppedEvents)
    }

    /// Analyses a complete sequence of events.
    public static func analyze(_ events: some Sequence<TraceEvent>, options: Options = Options()) -> AnalysisReport {
        var analyzer = TraceAnalyzer(options: options)
        for event in events { analyzer.consume(event) }
        analyzer.finish()
        return analyzer.report
    }
}

extension TraceRecorder {
    /// Analyses what was recorded so far, as of now: checks whose grace
    /// period has passed by the time of the call are decided.
    ///
    /// ```swift
    /// let report = recorder.analyze(grace: .milliseconds(200))
    /// #expect(report.isClean, "\(report)")
    /// ```
    ///
    /// - Parameters:
    ///   - grace: how long things may take to deallocate or stop.
    ///   - expectTeardown: report everything still alive as a finding.
    ///   - viewGrace: how long a router's view may stay shown after the
    ///     router left the tree.
    ///   - maxAlive: the most instances of a type alive at once, by type
    ///     name (`over-budget`).
    public func analyze(grace: Duration = .seconds(1), expectTeardown: Bool = false,
                        viewGrace: Duration = .seconds(5), maxAlive: [String: Int] = [:]) -> AnalysisReport {
        func nanoseconds(_ duration: Duration) -> UInt64 {
            let (seconds, attoseconds) = duration.components
            return UInt64(max(0, seconds)) * 1_000_000_000 + UInt64(max(0, attoseconds) / 1_000_000_000)
        }
        var analyzer = TraceAnalyzer(options: .init(grace: nanoseconds(grace), expectTeardown: expectTeardown,
                                                    viewGrace: nanoseconds(viewGrace), maxAlive: maxAlive))
        for event in eventsAsRecorded { analyzer.consume(event) }
        analyzer.advance(to: MonotonicClock.now() &- tracer.origin)
        analyzer.finish()
        return analyzer.report
    }
}

// MARK: - Who retains it

extension TraceRecorder {
    /// `report` with what holds each object its findings are about: for a
    /// finding about a router or interactor still alive (`not-deallocated`,
    /// `undetached-child`, `active-after-detach`, `alive-at-end`, the
    /// survivors of `growing-population` and `over-budget`), the paths of
    /// strong references that keep it, in ``Finding/retainers``. Each result
    /// is also written into the recording (a `retained` record), so its
    /// ``ndjson`` carries it to `napkin-inspect`.
    ///
    /// ```swift
    /// let report = await recorder.findRetainers(in: recorder.analyze(grace: .milliseconds(200)))
    /// for finding in report.findings { print(finding.retainers?.paths ?? []) }
    /// ```
    ///
    /// The search reads objects on the main actor and actors isolated to
    /// themselves, so it waits for them; it runs at most 20 searches of at
    /// most 2 s each (`docs/testing.md`, "Who retains it").
    public func findRetainers(in report: AnalysisReport) async -> AnalysisReport {
        guard report.findings.contains(where: RetainerSearch.asks) else { return report }
        searchesRun.withLock { $0 += 1 }
        var analyzer = TraceAnalyzer()
        for event in eventsAsRecorded { analyzer.consume(event) }
        var explained = report
        explained.findings = await RetainerSearch.explain(report.findings, state: analyzer.state, tracer: tracer)
        return explained
    }
}
