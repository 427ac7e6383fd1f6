/// A log record as OTLP writes it (`LogRecord`): a finding, a mark, or the
/// note that events were dropped.
package struct OTLPLogRecord: Sendable, Hashable {
    /// When it happened (a finding: when it was established), Unix nanoseconds.
    package var time: UInt64
    /// When the exporter saw it, Unix nanoseconds.
    package var observedTime: UInt64
    /// `SeverityNumber`: 9 INFO, 13 WARN, 17 ERROR.
    package var severityNumber: Int
    /// `INFO`, `WARN`, `ERROR`.
    package var severityText: String
    /// The finding's line, the mark's text.
    package var body: String
    /// The event's name (`napkin.finding`, `napkin.mark`, `napkin.dropped`), in the `event.name` attribute.
    package var eventName: String
    /// Its attributes (after `event.name`), bounded when made.
    package var attributes: [OTLPAttribute] = []
    /// The span of the object the record is about, if any.
    package var traceID: OTLPTraceID?
    /// That span's id; 0 for none.
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
            json.key("traceId"); json.hex(traceID)
            json.key("spanId"); json.hex(spanID)
        }
        json.endObject()
        return json.bytes
    }
}
