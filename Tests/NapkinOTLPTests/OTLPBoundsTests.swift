// Hostile or huge names and values stay bounded: a type name of a megabyte,
// labels and marks with quotes, control characters and broken-looking
// Unicode, ten thousand events on one span, more types than the metrics
// keep apart. The payload stays valid JSON and each piece within its limit.

import Foundation
@testable import NapkinOTLP
import NapkinTrace
import Testing

@Suite
struct OTLPBoundsTests {
    static let hostile = "Evil\"Router\\\n\u{0}\u{1b}[31m\u{7f}é👩‍👩‍👧" + String(repeating: "X", count: 1_000_000)

    /// The mapper's output for `events` after a session start, as JSON objects.
    static func map(_ kinds: [TraceEvent.Kind], limits: OTLPLimits = OTLPLimits()) -> (spans: [[String: Any]], logs: [[String: Any]], metrics: [String: Any], bytes: Int) {
        var mapper = OTLPMapper(limits: limits)
        mapper.consume(TraceEvent(seq: 1, time: 0, kind: .sessionStart(SessionInfo(app: hostile, pid: 1, wallClock: 1_000))))
        for (index, kind) in kinds.enumerated() {
            mapper.consume(TraceEvent(seq: UInt64(index + 2), time: UInt64(index + 1) * 10, kind: kind))
        }
        mapper.endAll()
        let spans = mapper.takeSpans().map { $0.encoded() }
        let logs = mapper.takeLogs().map { $0.encoded() }
        let metrics = mapper.metricsSnapshot().encoded()
        let traces = OTLPPayload.traces(resource: [], spans: spans)
        let logPayload = OTLPPayload.logs(resource: [], records: logs)
        let metricPayload = OTLPPayload.metrics(resource: [], metrics: metrics)
        func parse(_ bytes: [UInt8]) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] ?? [:]
        }
        let parsedTraces = parse(traces)
        let parsedLogs = parse(logPayload)
        let spanObjects = (((parsedTraces["resourceSpans"] as? [[String: Any]])?.first?["scopeSpans"] as? [[String: Any]])?.first?["spans"] as? [[String: Any]]) ?? []
        let logObjects = (((parsedLogs["resourceLogs"] as? [[String: Any]])?.first?["scopeLogs"] as? [[String: Any]])?.first?["logRecords"] as? [[String: Any]]) ?? []
        return (spanObjects, logObjects, parse(metricPayload), traces.count + logPayload.count + metricPayload.count)
    }

    @Test("A megabyte type name, a hostile label and mark: valid JSON, each name and value within its limit")
    func hostileNamesBounded() {
        let limits = OTLPLimits()
        let (spans, logs, metrics, bytes) = Self.map([
            .routerCreated(id: 1, type: Self.hostile, interactor: 2, interactorType: Self.hostile),
            .launch(router: 1),
            .activate(interactor: 2),
            .taskStart(task: 3, owner: 2, label: Self.hostile),
            .mark(text: Self.hostile),
        ], limits: limits)
        #expect(spans.count == 3)
        #expect(logs.count == 1)
        #expect(!metrics.isEmpty)
        for span in spans {
            let name = span["name"] as? String ?? ""
            #expect(!name.isEmpty && name.utf8.count <= limits.nameLength)
            for value in OTLPPayloads.attributes(span["attributes"]).values {
                if let text = value as? String { #expect(text.utf8.count <= limits.valueLength) }
            }
        }
        let body = ((logs.first?["body"] as? [String: Any])?["stringValue"] as? String) ?? ""
        #expect(body.utf8.count <= limits.bodyLength)
        // Quotes, backslashes and control characters went through escaped: the text reads back as it was, up to the cut.
        #expect(body.hasPrefix("Evil\"Router\\\n\u{0}\u{1b}[31m\u{7f}é👩‍👩‍👧XXX"))
        #expect(body.hasSuffix("…"))
        // Three 1 MB strings went in; well under 64 KiB came out.
        #expect(bytes < 65_536)
    }

    @Test("Ten thousand loads on one router: the span keeps its first 128 events and counts the rest")
    func eventsPerSpanBounded() {
        var kinds: [TraceEvent.Kind] = [.routerCreated(id: 1, type: "R", interactor: 2, interactorType: "I"), .launch(router: 1)]
        let loads = [TraceEvent.Kind](repeating: .load(router: 1), count: 10_000)
        kinds += loads
        let (spans, _, _, _) = Self.map(kinds)
        let span = spans.first ?? [:]
        #expect((span["events"] as? [Any])?.count == 128)
        // The creation event counts as one of the 128.
        #expect(span["droppedEventsCount"] as? Int == 10_000 - 127)
    }

    @Test("More router types than the metrics keep apart: the rest are one series, and the count stays exact")
    func metricTypesBounded() {
        var limits = OTLPLimits()
        limits.metricTypes = 10
        var kinds: [TraceEvent.Kind] = []
        for index in 0..<50 {
            let id = UInt64(index) * 2 + 1
            kinds.append(.routerCreated(id: id, type: "Router\(index)", interactor: id + 1, interactorType: "I"))
        }
        let (_, _, metrics, _) = Self.map(kinds, limits: limits)
        let gauge = OTLPPayloads.metrics(metrics)["napkin.router.live"] ?? []
        #expect(gauge.count == 11)
        #expect(gauge.reduce(0) { $0 + $1.value } == 50)
        #expect(gauge.contains { $0.attributes["napkin.type"] as? String == OTLPLimits.overflowType && $0.value == 40 })
    }

    @Test("Truncation cuts at a character boundary and never grows past the limit")
    func truncation() {
        for limit in [16, 17, 18, 19, 20, 33] {
            let cut = OTLPLimits.truncated(String(repeating: "é👩‍👩‍👧", count: 50), to: limit)
            #expect(cut.utf8.count <= limit)
            #expect(cut.hasSuffix("…"))
        }
        #expect(OTLPLimits.truncated("short", to: 16) == "short")
    }
}
