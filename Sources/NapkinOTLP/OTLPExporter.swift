import Dispatch
import Foundation
import NapkinTrace
import Synchronization

/// Sends spans, log records and metrics to the collector, in batches, from
/// a thread of its own; never from the caller's.
///
/// ``enqueue(spans:logs:)`` encodes and queues, and returns: it never waits
/// for the network. Each signal's queue holds at most
/// ``OTLPConfiguration/maxQueueSize`` items; beyond it new items are dropped
/// and counted (``OTLPStatistics``), so memory stays bounded however long the
/// collector is away. A batch goes out when ``OTLPConfiguration/maxExportBatchSize``
/// items wait or ``OTLPConfiguration/scheduleDelay`` passed. A batch the
/// collector refuses with 429, 502, 503 or 504, or that finds no collector,
/// stays queued and is tried again after `Retry-After` or a backoff
/// (``OTLPRetry``); any other refusal drops it, counted, with one line on
/// standard error. Metrics go out every ``OTLPConfiguration/metricInterval``
/// and with every flush.
package final class OTLPExporter: Sendable {
    private enum Signal: Int, CaseIterable {
        case traces, logs
        var name: String {
            switch self {
            case .traces: "traces"
            case .logs: "logs"
            }
        }
    }

    private struct State {
        var queues = [OTLPQueue(), OTLPQueue()]
        var statistics = OTLPStatistics()
        /// No request before this (monotonic ns), after a refusal or a failure.
        var backoffUntil: UInt64 = 0
        var failuresInARow = 0
        var nextMetrics: UInt64 = 0
        /// Flushes asked for, and passes finished since.
        var flushesAsked = 0
        var flushesDone = 0
        var stopping = false
        var stopped = false
        var rejectionReported = false
        /// The metrics may have changed since they were last sent (events came).
        var metricsChanged = true
        /// The thread waits with no time limit: nothing is queued and the metrics are sent.
        var asleep = false
        var finalNoticeGiven = false
    }

    private let configuration: OTLPConfiguration
    private let transport: any OTLPTransport
    /// The resource every payload carries (its `session.id` is set when the session starts).
    private let resourceSlot: Locked<[OTLPAttribute]>
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    /// How many times the exporter's thread woke up (for the idle test).
    private let wakeUpCount = Atomic<UInt64>(0)
    /// The metrics to send, read on the exporter's thread.
    private let metricsSource = Locked<(@Sendable (OTLPStatistics) -> OTLPMetrics?)?>(nil)

    /// An exporter for `configuration`, sending through `transport`, with `resource`; starts its thread.
    package init(configuration: OTLPConfiguration, resource: [OTLPAttribute], transport: any OTLPTransport = URLSessionTransport()) {
        self.configuration = configuration
        self.transport = transport
        self.resourceSlot = Locked(resource)
        state.withLock { $0.nextMetrics = MonotonicClock.now() &+ Self.nanoseconds(configuration.metricInterval) }
        let thread = Thread { [self] in run() }
        thread.name = "napkin-otlp-exporter"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Where the metrics come from (called on the exporter's thread with the statistics so far).
    package func setMetricsSource(_ source: @escaping @Sendable (OTLPStatistics) -> OTLPMetrics?) {
        metricsSource.withLock { $0 = source }
    }

    /// Replaces the resource of the payloads sent from now on.
    package func setResource(_ resource: [OTLPAttribute]) {
        resourceSlot.withLock { $0 = resource }
    }

    private var resource: [OTLPAttribute] { resourceSlot.withLock { $0 } }

    /// How many times the exporter's thread woke up so far.
    package var wakeUps: UInt64 { wakeUpCount.load(ordering: .relaxed) }

    /// Whether the thread waits with no time limit (nothing queued, the metrics sent).
    package var isAsleep: Bool { state.withLock { $0.asleep } }

    /// What was sent and dropped so far.
    package var statistics: OTLPStatistics { state.withLock { $0.statistics } }

    /// Items waiting per signal (`traces`, `logs`).
    package var queuedCounts: (spans: Int, logs: Int) {
        state.withLock { ($0.queues[0].count, $0.queues[1].count) }
    }

    // MARK: - Queueing

    /// Encodes and queues `spans` and `logs`; drops (and counts) what does not fit. Never waits for the network.
    package func enqueue(spans: [OTLPSpan], logs: [OTLPLogRecord]) {
        guard !spans.isEmpty || !logs.isEmpty else { return }
        let encodedSpans = configuration.tracesEndpoint == nil ? [] : spans.map { $0.encoded() }
        let encodedLogs = configuration.logsEndpoint == nil ? [] : logs.map { $0.encoded() }
        let limit = configuration.maxQueueSize
        let batch = configuration.maxExportBatchSize
        let full = state.withLock { s -> Bool in
            guard !s.stopped else {
                s.statistics.droppedSpans += encodedSpans.count
                s.statistics.droppedLogs += encodedLogs.count
                return false
            }
            for (signal, items) in [(Signal.traces, encodedSpans), (Signal.logs, encodedLogs)] {
                let room = max(limit - s.queues[signal.rawValue].count, 0)
                s.queues[signal.rawValue].append(contentsOf: items.prefix(room))
                let dropped = items.count - min(room, items.count)
                switch signal {
                case .traces: s.statistics.droppedSpans += dropped
                case .logs: s.statistics.droppedLogs += dropped
                }
            }
            return s.queues.contains { $0.count >= batch }
        }
        if full || wakesSleeper() { wake.signal() }
    }

    /// Notes that events came, which may change the metrics: they are sent at the next interval
    /// (an exporter with nothing to send and nothing changed sleeps until this or an enqueue).
    package func noteActivity() {
        let wakeUp = state.withLock { s -> Bool in
            s.metricsChanged = true
            return Self.takeSleeper(&s)
        }
        if wakeUp { wake.signal() }
    }

    /// Whether the thread sleeps with no time limit; it will not any more.
    private func wakesSleeper() -> Bool {
        state.withLock { Self.takeSleeper(&$0) }
    }

    private static func takeSleeper(_ s: inout State) -> Bool {
        defer { s.asleep = false }
        return s.asleep
    }

    // MARK: - Flushing

    /// Sends everything queued now (and the metrics), waiting at most
    /// `budget` for the collector; returns whether every queue emptied.
    /// The exporter's thread goes on with what is left after the budget.
    @discardableResult
    package func flush(within budget: Duration) -> Bool {
        let deadline = MonotonicClock.now() &+ Self.nanoseconds(budget)
        var asked = 0
        while true {
            // A pass that ended with items left (a backoff runs) is asked for again until the budget is spent.
            let (empty, passDone, stopped) = state.withLock { s in
                (s.queues.allSatisfy(\.isEmpty), s.flushesDone >= asked, s.stopped)
            }
            if stopped || (empty && passDone && asked > 0) { return empty }
            if passDone {
                asked = state.withLock { s -> Int in
                    s.flushesAsked += 1
                    return s.flushesAsked
                }
                wake.signal()
            }
            guard MonotonicClock.now() < deadline else { return empty }
            Platform.sleep(microseconds: 2_000)
        }
    }

    /// Flushes within `budget`, then stops: what is still queued is counted as
    /// dropped and named in one line on standard error.
    package func shutdown(within budget: Duration) {
        flush(within: budget)
        let (lost, first) = state.withLock { s -> ((Int, Int), Bool) in
            let lost = (s.queues[0].count, s.queues[1].count)
            s.statistics.droppedSpans += lost.0
            s.statistics.droppedLogs += lost.1
            s.queues = [OTLPQueue(), OTLPQueue()]
            s.stopping = true
            s.stopped = true
            defer { s.finalNoticeGiven = true }
            return (lost, !s.finalNoticeGiven)
        }
        wake.signal()
        if first && (lost.0 > 0 || lost.1 > 0) {
            DeveloperNotice.report("napkin otlp: \(lost.0) span(s) and \(lost.1) log record(s) not delivered: "
                                   + "the collector did not take them within \(budget) (see docs/otlp.md, \"Delivery\")")
        }
    }

    // MARK: - The exporter's thread

    private func run() {
        let delay = Self.nanoseconds(configuration.scheduleDelay)
        while true {
            // Items wait: until the schedule delay (or the backoff) ends. None: until the metrics are due,
            // if they changed; else until something comes (an idle app's exporter does not wake).
            let until = state.withLock { s -> UInt64? in
                let now = MonotonicClock.now()
                if s.queues.contains(where: { !$0.isEmpty }) { return max(now &+ delay, s.backoffUntil) }
                if s.flushesDone < s.flushesAsked || s.stopped { return now }
                if s.metricsChanged && configuration.metricsEndpoint != nil { return max(s.nextMetrics, now) }
                s.asleep = true
                return nil
            }
            if let until {
                let wait = until &- min(until, MonotonicClock.now())
                _ = wake.wait(timeout: .now() + .nanoseconds(Int(clamping: wait)))
            } else {
                wake.wait()
            }
            wakeUpCount.add(1, ordering: .relaxed)
            let (stopped, asked) = state.withLock { ($0.stopped, $0.flushesAsked) }
            if stopped { return }
            let flushing = state.withLock { $0.flushesDone < asked }
            sendQueued()
            let dueMetrics = state.withLock { s -> Bool in
                let now = MonotonicClock.now()
                guard flushing || (now >= s.nextMetrics && s.metricsChanged) else { return false }
                s.nextMetrics = now &+ Self.nanoseconds(configuration.metricInterval)
                s.metricsChanged = false
                return true
            }
            if dueMetrics { sendMetrics() }
            if flushing { state.withLock { $0.flushesDone = max($0.flushesDone, asked) } }
        }
    }

    /// Sends the queued batches of each signal, oldest first; stops a
    /// signal at its first retryable failure (the batch stays queued).
    private func sendQueued() {
        for signal in Signal.allCases {
            guard let url = signal == .traces ? configuration.tracesEndpoint : configuration.logsEndpoint else { continue }
            while true {
                let batch = state.withLock { s -> [[UInt8]]? in
                    if s.stopped || MonotonicClock.now() < s.backoffUntil { return nil }
                    guard !s.queues[signal.rawValue].isEmpty else { return nil }
                    // Without a flush, a batch goes out when it is full or the schedule delay passed (this wake-up).
                    return s.queues[signal.rawValue].first(configuration.maxExportBatchSize)
                }
                guard let batch else { break }
                let body = signal == .traces ? OTLPPayload.traces(resource: resource, spans: batch)
                                             : OTLPPayload.logs(resource: resource, records: batch)
                guard deliver(body, to: url, count: batch.count, signal: signal) else { break }
            }
        }
    }

    /// Posts one batch; removes it from its queue unless it is to be tried again. Returns whether to go on.
    private func deliver(_ body: [UInt8], to url: URL, count: Int, signal: Signal) -> Bool {
        let response = transport.post(body, to: url, headers: configuration.headers, timeout: configuration.timeout)
        let verdict = OTLPRetry.verdict(response)
        var notice: String?
        let goOn = state.withLock { s -> Bool in
            s.statistics.requests += 1
            switch verdict {
            case .delivered:
                s.failuresInARow = 0
                s.queues[signal.rawValue].removeFirst(count)
                switch signal {
                case .traces: s.statistics.sentSpans += count
                case .logs: s.statistics.sentLogs += count
                }
                return true
            case .retry(let after):
                s.failuresInARow += 1
                s.statistics.retries += 1
                let wait = after ?? OTLPRetry.backoff(failures: s.failuresInARow)
                s.backoffUntil = MonotonicClock.now() &+ Self.nanoseconds(wait)
                return false
            case .rejected(let why):
                s.failuresInARow = 0
                s.queues[signal.rawValue].removeFirst(count)
                switch signal {
                case .traces: s.statistics.droppedSpans += count
                case .logs: s.statistics.droppedLogs += count
                }
                if !s.rejectionReported {
                    s.rejectionReported = true
                    notice = "napkin otlp: the collector at \(url.absoluteString) refused \(count) \(signal.name) item(s) "
                        + "with \(why); they are dropped (later refusals are only counted)"
                }
                return true
            }
        }
        if let notice { DeveloperNotice.report(notice) }
        return goOn
    }

    private func sendMetrics() {
        guard let url = configuration.metricsEndpoint,
              let source = metricsSource.withLock({ $0 }) else { return }
        let (statistics, backingOff) = state.withLock { ($0.statistics, MonotonicClock.now() < $0.backoffUntil) }
        guard let metrics = source(statistics) else { return }
        guard !backingOff else {
            // Cumulative: the next snapshot carries what this one would have.
            state.withLock { $0.statistics.droppedMetrics += 1 }
            return
        }
        let body = OTLPPayload.metrics(resource: resource, metrics: metrics.encoded())
        let response = transport.post(body, to: url, headers: configuration.headers, timeout: configuration.timeout)
        state.withLock { s in
            s.statistics.requests += 1
            switch OTLPRetry.verdict(response) {
            case .delivered: s.statistics.sentMetrics += 1
            case .retry, .rejected: s.statistics.droppedMetrics += 1
            }
        }
    }

    static func nanoseconds(_ duration: Duration) -> UInt64 {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return 0 }
        return UInt64(seconds) &* 1_000_000_000 &+ UInt64(attoseconds / 1_000_000_000)
    }
}
