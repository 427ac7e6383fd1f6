/// A finished span as OTLP writes it (`Span`): a router's attachment, an
/// interactor's active interval or a bound task, with its events.
package struct OTLPSpan: Sendable, Hashable {
    /// A moment inside a span (`Span.Event`): a load, a view shown, a detach.
    package struct Event: Sendable, Hashable {
        package var time: UInt64
        package var name: String
        package var attributes: [OTLPAttribute] = []
    }

    package var traceID: OTLPTraceID
    package var spanID: UInt64
    /// 0 for a root span.
    package var parentSpanID: UInt64
    package var name: String
    package var start: UInt64
    package var end: UInt64
    package var attributes: [OTLPAttribute] = []
    package var events: [Event] = []
    /// Events not kept (beyond ``OTLPLimits/eventsPerSpan``).
    package var droppedEvents = 0
    /// `STATUS_CODE_ERROR` (a finding names the span's object) when true; unset otherwise.
    package var isError = false

    /// The span as one OTLP/JSON object.
    func encoded() -> [UInt8] {
        var json = OTLPJSON(reserving: 512)
        json.beginObject()
        json.member("traceId", traceID.hex)
        json.member("spanId", OTLPJSON.hex(spanID))
        if parentSpanID != 0 { json.member("parentSpanId", OTLPJSON.hex(parentSpanID)) }
        json.member("name", name)
        // SPAN_KIND_INTERNAL: the lifecycle is work inside the process.
        json.member("kind", int: 1)
        json.member("startTimeUnixNano", uint64: start)
        json.member("endTimeUnixNano", uint64: max(end, start))
        OTLPAttribute.write(attributes, to: &json)
        if !events.isEmpty {
            json.key("events")
            json.beginArray()
            for event in events {
                json.beginObject()
                json.member("timeUnixNano", uint64: event.time)
                json.member("name", event.name)
                OTLPAttribute.write(event.attributes, to: &json)
                json.endObject()
            }
            json.endArray()
        }
        if droppedEvents > 0 { json.member("droppedEventsCount", int: droppedEvents) }
        json.key("status")
        json.beginObject()
        if isError { json.member("code", int: 2) }
        json.endObject()
        json.endObject()
        return json.bytes
    }
}

/// A 128-bit trace id (`traceId`), written as 32 lowercase hex digits.
package struct OTLPTraceID: Sendable, Hashable {
    package var high: UInt64
    package var low: UInt64

    package init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    package var hex: String { OTLPJSON.hex(high) + OTLPJSON.hex(low) }
}

/// A log record as OTLP writes it (`LogRecord`): a finding, a mark, or the
/// note that events were dropped.
package struct OTLPLogRecord: Sendable, Hashable {
    package var time: UInt64
    package var observedTime: UInt64
    /// `SeverityNumber`: 9 INFO, 13 WARN, 17 ERROR.
    package var severityNumber: Int
    package var severityText: String
    package var body: String
    /// The event's name (`napkin.finding`, `napkin.mark`, `napkin.dropped`), in the `event.name` attribute.
    package var eventName: String
    package var attributes: [OTLPAttribute] = []
    /// The span of the object the record is about, if any.
    package var traceID: OTLPTraceID?
    package var spanID: UInt64 = 0

    func encoded() -> [UInt8] {
        var json = OTLPJSON(reserving: 512)
        json.beginObject()
        json.member("timeUnixNano", uint64: time)
        json.member("observedTimeUnixNano", uint64: observedTime)
        json.member("severityNumber", int: severityNumber)
        json.member("severityText", severityText)
        json.key("body")
        OTLPAttribute.write(.string(body), to: &json)
        OTLPAttribute.write([OTLPAttribute("event.name", .string(eventName))] + attributes, to: &json)
        if let traceID, spanID != 0 {
            json.member("traceId", traceID.hex)
            json.member("spanId", OTLPJSON.hex(spanID))
        }
        json.endObject()
        return json.bytes
    }
}
