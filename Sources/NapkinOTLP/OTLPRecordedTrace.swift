import NapkinTrace

/// A recorded trace turned into OTLP/HTTP request bodies, for
/// `napkin-inspect export --format otlp`: the same mapping as the exporter
/// in the app (``OTLPMapper``), with the findings the analysis makes of the
/// trace (`check`'s), mapped when each session ends.
///
/// Each session (the later parts of a session resumed after a gap belong
/// to it) gets its own resource (its app as `service.name`, its pid, its
/// `session.id`), its spans in requests of at most ``batchSize``, its log
/// records, and one metrics request with the populations at its end.
package struct OTLPRecordedTrace {
    /// One request body and the signal it is for.
    package struct Request: Sendable, Hashable {
        /// `traces`, `logs` or `metrics`: the path `/v1/<signal>` it is posted to.
        package var signal: String
        /// The JSON body (one line: it holds no line break).
        package var body: [UInt8]
        /// How many spans, log records or metrics it carries.
        package var count: Int
    }

    private let analysis: TraceAnalyzer.Options
    private let limits: OTLPLimits
    private let batchSize: Int
    private let serviceName: String?
    private var mapper: OTLPMapper
    private var analyzer: TraceAnalyzer
    private var session: SessionInfo?
    private var spans: [[UInt8]] = []
    private var logs: [[UInt8]] = []
    private var requests: [Request] = []
    /// Findings the analysis established beyond what it keeps, summed over the sessions.
    package private(set) var findingsNotKept = 0
    /// Spans in the requests made so far.
    package private(set) var spanCount = 0
    /// Log records in the requests made so far.
    package private(set) var logCount = 0
    /// Sessions seen (a resumed part counts with its session).
    package private(set) var sessionCount = 0

    /// A conversion with the analysis' settings; spans in requests of at most `batchSize`.
    package init(analysis: TraceAnalyzer.Options, limits: OTLPLimits = OTLPLimits(), batchSize: Int = 512, serviceName: String? = nil) {
        self.analysis = analysis
        self.limits = limits
        self.batchSize = max(batchSize, 1)
        self.serviceName = serviceName
        self.mapper = OTLPMapper(limits: limits, remembersEndedSpans: true)
        self.analyzer = TraceAnalyzer(options: analysis)
    }

    /// Folds one event of the trace.
    package mutating func consume(_ event: TraceEvent) {
        if case .sessionStart(let info) = event.kind {
            if let current = session, !info.resumes(current) { finishSession() }
            if session == nil || !info.resumes(session!) { sessionCount += 1 }
            session = info
        }
        analyzer.consume(event)
        mapper.consume(event)
        collect()
    }

    /// The requests made so far (full span batches); the rest come with ``finish()``.
    package mutating func takeRequests() -> [Request] {
        defer { requests.removeAll(keepingCapacity: true) }
        return requests
    }

    /// Ends the trace (a session without an end record gets its open spans ended at its last event) and returns the requests left.
    package mutating func finish() -> [Request] {
        finishSession()
        return takeRequests()
    }

    private mutating func collect() {
        for span in mapper.takeSpans() {
            spans.append(span.encoded())
            if spans.count >= batchSize { flushSpans() }
        }
        for record in mapper.takeLogs() { logs.append(record.encoded()) }
    }

    private var resource: [OTLPAttribute] {
        guard let session = mapper.currentSession else { return [] }
        return OTLPResource.attributes(recorded: session, sessionID: mapper.sessionID, serviceName: serviceName, limits: limits)
    }

    private mutating func flushSpans() {
        guard !spans.isEmpty else { return }
        requests.append(Request(signal: "traces", body: OTLPPayload.traces(resource: resource, spans: spans), count: spans.count))
        spanCount += spans.count
        spans.removeAll(keepingCapacity: true)
    }

    private mutating func finishSession() {
        guard session != nil else { return }
        mapper.endAll()
        let findings = analyzer.finish()
        findingsNotKept += analyzer.findingsNotKept
        collect()
        for finding in findings { logs.append(mapper.record(finding).encoded()) }
        flushSpans()
        let resource = self.resource
        var index = 0
        while index < logs.count {
            let batch = Array(logs[index..<min(index + batchSize, logs.count)])
            requests.append(Request(signal: "logs", body: OTLPPayload.logs(resource: resource, records: batch), count: batch.count))
            index += batchSize
        }
        logCount += logs.count
        logs.removeAll()
        let metrics = mapper.metricsSnapshot().encoded()
        requests.append(Request(signal: "metrics", body: OTLPPayload.metrics(resource: resource, metrics: metrics), count: metrics.count))
        mapper = OTLPMapper(limits: limits, remembersEndedSpans: true)
        analyzer = TraceAnalyzer(options: analysis)
        session = nil
    }
}
