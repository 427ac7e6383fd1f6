/// A finished span as OTLP writes it (`Span`): a router's attachment, an
/// interactor's active interval or a bound task, with its events.
package struct OTLPSpan: Sendable, Hashable {
    /// A moment inside a span (`Span.Event`): a load, a view shown, a detach.
    package struct Event: Sendable, Hashable {
        /// When it happened, Unix nanoseconds.
        package var time: UInt64
        /// `napkin.router.loaded`, `napkin.view.shown`...
        package var name: String
        /// Its attributes (`code.*` for a detach or a creation).
        package var attributes: [OTLPAttribute] = []
    }

    /// The session's trace id.
    package var traceID: OTLPTraceID
    /// The span's id (never 0).
    package var spanID: UInt64
    /// 0 for a root span.
    package var parentSpanID: UInt64
    /// The router's type, `<Interactor> active`, or the task's label.
    package var name: String
    /// Unix nanoseconds.
    package var start: UInt64
    /// Unix nanoseconds (at least ``start``).
    package var end: UInt64
    /// Its attributes, bounded when made.
    package var attributes: [OTLPAttribute] = []
    /// Its events, at most ``OTLPLimits/eventsPerSpan``.
    package var events: [Event] = []
    /// Events not kept (beyond ``OTLPLimits/eventsPerSpan``).
    package var droppedEvents = 0
    /// `STATUS_CODE_ERROR` (a finding names the span's object) when true; unset otherwise.
    package var isError = false

    /// The span as one OTLP/JSON object.
    func encoded() -> [UInt8] {
        var json = OTLPJSON(reserving: 512)
        json.beginObject()
        json.key("traceId"); json.hex(traceID)
        json.key("spanId"); json.hex(spanID)
        if parentSpanID != 0 { json.key("parentSpanId"); json.hex(parentSpanID) }
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
