import NapkinTrace
import Synchronization

/// The trace sink that exports: maps each batch of events the tracer's
/// writer thread hands it (``OTLPMapper``) and queues the spans and log
/// records on the ``OTLPExporter``, which sends them from its own thread.
/// The app's threads only emit into the tracer's queue, as with the NDJSON
/// sink; the mapping runs on the tracer's writer thread.
///
/// It can pass every batch on to another sink first (`NAPKIN_TRACE`'s
/// destination), so that a trace file and the collector get the same events;
/// when that sink fails, it is reported once and left, and the export goes on.
package final class OTLPTraceSink: TracerAwareSink {
    /// Where the spans and records go.
    package let exporter: OTLPExporter
    private let configuration: OTLPConfiguration
    private let mapper: Locked<OTLPMapper>
    private let next: (any TraceSink)?
    private let nextFailed = Atomic<Bool>(false)
    /// When the exit's budget runs out (monotonic ns), once the process started exiting; 0 before.
    private let exitDeadline = Atomic<UInt64>(0)

    /// A sink exporting through `exporter`, also writing to `next` if given.
    package init(configuration: OTLPConfiguration, exporter: OTLPExporter, next: (any TraceSink)? = nil) {
        self.configuration = configuration
        self.exporter = exporter
        self.next = next
        self.mapper = Locked(OTLPMapper(limits: configuration.limits))
        exporter.setMetricsSource { [mapper] statistics in
            mapper.withLock { m in
                guard m.currentSession != nil else { return nil }
                var snapshot = m.metricsSnapshot(exporterDropped: ["traces": statistics.droppedSpans, "logs": statistics.droppedLogs,
                                                                   "metrics": statistics.droppedMetrics])
                snapshot.time = max(snapshot.time, UInt64(clamping: MonotonicClock.wallClock()))
                return snapshot
            }
        }
    }

    /// Passes the batch on to the other sink, maps it, and queues what it made on the exporter.
    package func write(_ events: [TraceEvent]) throws {
        if let next, !nextFailed.load(ordering: .relaxed) {
            do {
                try next.write(events)
            } catch {
                nextFailed.store(true, ordering: .relaxed)
                DeveloperNotice.report("napkin: the trace destination failed: \(error); the OTLP export goes on")
            }
        }
        var started: SessionInfo?
        let (spans, logs, sessionID) = mapper.withLock { m -> ([OTLPSpan], [OTLPLogRecord], String) in
            for event in events {
                if case .sessionStart(let info) = event.kind { started = info }
                m.consume(event)
            }
            return (m.takeSpans(), m.takeLogs(), m.sessionID)
        }
        if let started {
            exporter.setResource(OTLPResource.attributes(configuration, app: started.app, pid: started.pid, sessionID: sessionID))
        }
        exporter.enqueue(spans: spans, logs: logs)
        exporter.noteActivity()
    }

    /// A finding from the in-app detector: a log record on its object's span.
    /// When `pathFollows` (the detector searches what holds the object, and
    /// calls again with ``Finding/retainers`` set, the path or why there is
    /// none), the first call is held until that second one, so the record
    /// carries the path; one still held when the session ends goes out as it is.
    package func found(_ finding: Finding, pathFollows: Bool = false) {
        if pathFollows && finding.retainers == nil {
            awaitingPath.withLock { $0[finding.fingerprint] = finding }
            return
        }
        awaitingPath.withLock { _ = $0.removeValue(forKey: finding.fingerprint) }
        send(finding)
    }

    /// A finding as a log record, queued.
    private func send(_ finding: Finding) {
        let now = UInt64(clamping: MonotonicClock.wallClock())
        let record = mapper.withLock { $0.record(finding, observedAt: now) }
        exporter.enqueue(spans: [], logs: [record])
    }

    /// Findings waiting for their path, by fingerprint.
    private let awaitingPath = Locked<[String: Finding]>([:])

    /// The session ended (its end record was written): sends what is queued, within the exit budget.
    package func close() {
        next?.close()
        for finding in awaitingPath.withLock({ held in defer { held = [:] }; return Array(held.values) }) { send(finding) }
        let (spans, logs) = mapper.withLock { m -> ([OTLPSpan], [OTLPLogRecord]) in
            m.endAll()
            return (m.takeSpans(), m.takeLogs())
        }
        exporter.enqueue(spans: spans, logs: logs)
        exporter.flush(within: exitBudgetLeft)
    }

    /// The process is exiting: from now on the exit's steps (this sink's close, the final
    /// send of the findings the end decides) share one ``OTLPConfiguration/exitBudget``.
    /// Also tells the other sink (a reader that stopped must not hold up the exit).
    package func processWillExit() {
        let deadline = MonotonicClock.now() &+ OTLPExporter.nanoseconds(configuration.exitBudget)
        _ = exitDeadline.compareExchange(expected: 0, desired: deadline, ordering: .relaxed)
        (next as? any TracerAwareSink)?.processWillExit()
    }

    /// What is left of the exit's budget (the whole budget when the process is not exiting).
    package var exitBudgetLeft: Duration {
        let deadline = exitDeadline.load(ordering: .relaxed)
        guard deadline != 0 else { return configuration.exitBudget }
        return .nanoseconds(Int64(clamping: deadline &- min(deadline, MonotonicClock.now())))
    }

    /// The other sink's idle work (a socket sink reconnects).
    package func writerIsIdle() {
        (next as? any TracerAwareSink)?.writerIsIdle()
    }

    /// When the other sink next has idle work (a socket sink's due
    /// reconnection), if it has any.
    package var idleCallDue: UInt64? {
        (next as? any TracerAwareSink)?.idleCallDue
    }
}
