// The exporter against a collector that takes everything, answers 503 with
// Retry-After, is slow, or is not there: the caller never waits for it, and
// nothing that fits the bound is lost; beyond the bound, drops are counted exactly.

import Foundation
@testable import NapkinOTLP
import NapkinTrace
import Testing
import TestSupport

@Suite(.dedicatedThread)
struct OTLPDeliveryTests {
    /// A configuration for `endpoint` with a short schedule and the given queue bound.
    static func configuration(_ endpoint: String, queue: Int = 2_048, batch: Int = 512) throws -> OTLPConfiguration {
        var config = try OTLPConfiguration(endpoint: endpoint, headers: ["x-team": "napkin"])
        config.scheduleDelay = .milliseconds(50)
        config.maxQueueSize = queue
        config.maxExportBatchSize = batch
        config.timeout = .seconds(30)
        return config
    }

    /// `count` distinct spans.
    static func spans(_ count: Int, from first: Int = 0) -> [OTLPSpan] {
        (first..<first + count).map { index in
            OTLPSpan(traceID: OTLPTraceID(high: 1, low: 2), spanID: UInt64(index + 1), parentSpanID: 0,
                     name: "Span\(index)", start: 1_000, end: 2_000)
        }
    }

    static func spanNames(_ receiver: OTLPReceiver) -> [String] {
        receiver.requests("traces").flatMap { OTLPPayloads.spans($0.json).map(\.name) }
    }

    @Test("Spans queued reach the collector once each, with the configured headers, in batches")
    func delivers() async throws {
        let receiver = try OTLPReceiver()
        defer { receiver.stop() }
        let exporter = OTLPExporter(configuration: try Self.configuration(receiver.endpoint, batch: 100), resource: [])
        exporter.enqueue(spans: Self.spans(250), logs: [])
        #expect(exporter.flush(within: .seconds(60)))
        exporter.shutdown(within: .seconds(5))
        let names = Self.spanNames(receiver)
        #expect(names.count == 250)
        #expect(Set(names).count == 250)
        #expect(receiver.requests("traces").count >= 3)
        #expect(receiver.requests("traces").allSatisfy { $0.headers["x-team"] == "napkin" && $0.headers["content-type"] == "application/json" })
        #expect(exporter.statistics.sentSpans == 250)
        #expect(exporter.statistics.droppedSpans == 0)
    }

    @Test("A 503 with Retry-After: the batch is sent again after that delay, and arrives once")
    func retriesAfter503() async throws {
        // The first request is refused for a second.
        let receiver = try OTLPReceiver { index, _ in index == 0 ? .status(503, retryAfter: "1") : .status(200) }
        defer { receiver.stop() }
        let exporter = OTLPExporter(configuration: try Self.configuration(receiver.endpoint), resource: [])
        exporter.enqueue(spans: Self.spans(10), logs: [])
        #expect(exporter.flush(within: .seconds(60)))
        exporter.shutdown(within: .seconds(5))
        let requests = receiver.requests("traces")
        #expect(requests.count == 2)
        // The same batch twice; only the second was taken.
        #expect(Set(requests.map(\.body)).count == 1)
        // Retry-After: 1 is honoured: the second request came no sooner than a second after the first.
        if requests.count == 2 { #expect(requests[1].time - requests[0].time >= 1_000_000_000) }
        #expect(exporter.statistics.retries == 1)
        #expect(exporter.statistics.sentSpans == 10)
        #expect(exporter.statistics.droppedSpans == 0)
    }

    @Test("A 400 drops the batch for good, counted, and the exporter goes on with the next")
    func rejectionDropsAndGoesOn() async throws {
        let receiver = try OTLPReceiver { index, _ in index == 0 ? .status(400) : .status(200) }
        defer { receiver.stop() }
        let exporter = OTLPExporter(configuration: try Self.configuration(receiver.endpoint, batch: 5), resource: [])
        exporter.enqueue(spans: Self.spans(10), logs: [])
        #expect(exporter.flush(within: .seconds(60)))
        exporter.shutdown(within: .seconds(5))
        #expect(exporter.statistics.droppedSpans == 5)
        #expect(exporter.statistics.sentSpans == 5)
    }

    @Test("A slow collector (answers held) never blocks enqueue; released, it gets everything within the bound, the rest counted")
    func slowCollectorNeverBlocks() async throws {
        let receiver = try OTLPReceiver()
        defer { receiver.stop() }
        receiver.hold()
        let exporter = OTLPExporter(configuration: try Self.configuration(receiver.endpoint, queue: 300, batch: 100), resource: [])
        // The first batch goes out and hangs; 300 fit the queue (that batch included), 700 are dropped.
        // If enqueue waited for the collector, this loop would never end (the hang bound would fail the test).
        for round in 0..<10 { exporter.enqueue(spans: Self.spans(100, from: round * 100), logs: []) }
        #expect(exporter.statistics.droppedSpans == 700)
        #expect(exporter.statistics.sentSpans == 0)
        receiver.release()
        #expect(exporter.flush(within: .seconds(60)))
        exporter.shutdown(within: .seconds(5))
        #expect(Set(Self.spanNames(receiver)).count == 300)
        #expect(exporter.statistics.sentSpans == 300)
        #expect(exporter.statistics.droppedSpans == 700)
    }

    /// A transport standing for a collector that is down for its first `refusals` requests.
    final class DownThenUp: OTLPTransport {
        let calls = Locked(0)
        let delivered = Locked<[[UInt8]]>([])
        let refusals: Int
        init(refusals: Int) { self.refusals = refusals }
        func post(_ body: [UInt8], to url: URL, headers: [String: String], timeout: Duration) -> OTLPResponse {
            let call = calls.withLock { c -> Int in
                c += 1
                return c
            }
            if call <= refusals { return .failed("connection refused") }
            delivered.withLock { $0.append(body) }
            return .status(200, retryAfter: nil)
        }
    }

    @Test("A collector that is down: nothing within the bound is lost when it comes back, and enqueue never waited")
    func collectorDownThenBack() async throws {
        let transport = DownThenUp(refusals: 2)
        let config = try Self.configuration("http://127.0.0.1:4318", queue: 500)
        let exporter = OTLPExporter(configuration: config, resource: [], transport: transport)
        exporter.enqueue(spans: Self.spans(400), logs: [])
        exporter.enqueue(spans: Self.spans(200, from: 400), logs: [])
        #expect(exporter.statistics.droppedSpans == 100)
        // Backoff 1 s, then 2 s: the third request succeeds.
        #expect(exporter.flush(within: .seconds(60)))
        exporter.shutdown(within: .seconds(5))
        let names = transport.delivered.withLock { $0 }.flatMap { body in
            OTLPPayloads.spans((try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]).map(\.name)
        }
        #expect(Set(names).count == 500)
        #expect(names.count == 500)
        #expect(exporter.statistics.retries == 2)
    }

    @Test("A collector never there: the exit waits at most its budget, and counts what it could not send")
    func collectorNeverThere() async throws {
        let refusing = try RefusingPort()
        let exporter = OTLPExporter(configuration: try Self.configuration("http://127.0.0.1:\(refusing.port)"), resource: [])
        exporter.enqueue(spans: Self.spans(50), logs: [])
        exporter.shutdown(within: .milliseconds(300))
        #expect(exporter.statistics.sentSpans == 0)
        #expect(exporter.statistics.droppedSpans == 50)
        // Stopped: later spans are counted, not queued.
        exporter.enqueue(spans: Self.spans(5), logs: [])
        #expect(exporter.statistics.droppedSpans == 55)
        #expect(exporter.queuedCounts.spans == 0)
    }

    @Test("Retry-After as seconds and as an HTTP date; 429/502/503/504 and no answer retry, other 4xx reject")
    func retryRules() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        #expect(OTLPRetry.delay(retryAfter: "7", now: now) == .seconds(7))
        #expect(OTLPRetry.delay(retryAfter: "Mon, 12 Jan 1970 13:47:00 GMT", now: now) == .seconds(20))
        #expect(OTLPRetry.delay(retryAfter: "soon", now: now) == nil)
        #expect(OTLPRetry.delay(retryAfter: "99999", now: now) == .seconds(300))
        for code in [429, 502, 503, 504] {
            #expect(OTLPRetry.verdict(.status(code, retryAfter: nil)) == .retry(after: nil))
        }
        #expect(OTLPRetry.verdict(.status(429, retryAfter: "3")) == .retry(after: .seconds(3)))
        #expect(OTLPRetry.verdict(.failed("refused")) == .retry(after: nil))
        #expect(OTLPRetry.verdict(.status(400, retryAfter: nil)) == .rejected("HTTP 400"))
        #expect(OTLPRetry.verdict(.status(200, retryAfter: nil)) == .delivered)
        #expect(OTLPRetry.backoff(failures: 1) >= .seconds(1) && OTLPRetry.backoff(failures: 1) < .seconds(2))
        #expect(OTLPRetry.backoff(failures: 30) >= .seconds(32) && OTLPRetry.backoff(failures: 30) <= .milliseconds(35_200))
    }
}

@Suite(.dedicatedThread)
struct OTLPIdleTests {
    @Test("An exporter with nothing to send and no event since its metrics sleeps: it does not wake on its schedule")
    func idleExporterSleeps() async throws {
        let receiver = try OTLPReceiver()
        defer { receiver.stop() }
        var configuration = try OTLPConfiguration(endpoint: receiver.endpoint)
        configuration.scheduleDelay = .milliseconds(10)
        configuration.metricInterval = .milliseconds(10)
        let exporter = OTLPExporter(configuration: configuration, resource: [])
        exporter.setMetricsSource { _ in OTLPMetrics(start: 1, time: 2) }
        exporter.enqueue(spans: OTLPDeliveryTests.spans(3), logs: [])
        exporter.noteActivity()
        #expect(exporter.flush(within: .seconds(30)))
        // Bound the work, not the time: wait until the thread has gone to sleep (it must, with nothing left).
        var polls = 0
        while !exporter.isAsleep && polls < 30_000 {
            try await Task.sleep(for: .milliseconds(1))
            polls += 1
        }
        #expect(exporter.isAsleep)
        let asleepAt = exporter.wakeUps
        // Thirty schedule delays and metric intervals pass: a thread on a timer would wake about thirty times.
        try await Task.sleep(for: .milliseconds(300))
        #expect(exporter.wakeUps == asleepAt)
        // An event wakes it, and what it brings is sent.
        exporter.enqueue(spans: OTLPDeliveryTests.spans(1, from: 10), logs: [])
        #expect(exporter.flush(within: .seconds(30)))
        #expect(exporter.wakeUps > asleepAt)
        exporter.shutdown(within: .seconds(5))
        #expect(OTLPDeliveryTests.spanNames(receiver).count == 4)
    }
}
