/// What the OTLP exporter did so far in this process: what it delivered,
/// what it dropped (and so never reached the collector), and how often it
/// tried again. All zero when the exporter is off.
public struct OTLPStatistics: Sendable, Hashable {
    /// Spans delivered (the collector answered 2xx).
    public var sentSpans = 0
    /// Log records delivered.
    public var sentLogs = 0
    /// Metric exports delivered.
    public var sentMetrics = 0
    /// Spans dropped: their queue was full, the collector refused them for
    /// good, or they were still queued when the process ended.
    public var droppedSpans = 0
    /// Log records dropped, for the same reasons.
    public var droppedLogs = 0
    /// Metric exports not delivered (the next one carries their cumulative values).
    public var droppedMetrics = 0
    /// Requests to be tried again (429, 502, 503, 504, or no collector).
    public var retries = 0
    /// Requests made.
    public var requests = 0

    /// All zero.
    public init() {}
}
