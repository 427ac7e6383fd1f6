import NapkinTrace

/// The three OTLP/HTTP request bodies (`ExportTraceServiceRequest`,
/// `ExportLogsServiceRequest`, `ExportMetricsServiceRequest`) in JSON: one
/// resource, napkin's instrumentation scope, and the spans, log records or
/// metrics already encoded one by one.
package enum OTLPPayload {
    /// The instrumentation scope's name.
    package static let scopeName = "napkin"
    /// The instrumentation scope's version: the trace format's version and revision.
    package static let scopeVersion = "\(TraceFormat.version).\(TraceFormat.revision)"

    /// `{"resourceSpans":[{"resource":…,"scopeSpans":[{"scope":…,"spans":[…]}]}]}`.
    package static func traces(resource: [OTLPAttribute], spans: [[UInt8]]) -> [UInt8] {
        envelope("resourceSpans", "scopeSpans", "spans", resource: resource, items: spans)
    }

    /// `{"resourceLogs":[{"resource":…,"scopeLogs":[{"scope":…,"logRecords":[…]}]}]}`.
    package static func logs(resource: [OTLPAttribute], records: [[UInt8]]) -> [UInt8] {
        envelope("resourceLogs", "scopeLogs", "logRecords", resource: resource, items: records)
    }

    /// `{"resourceMetrics":[{"resource":…,"scopeMetrics":[{"scope":…,"metrics":[…]}]}]}`.
    package static func metrics(resource: [OTLPAttribute], metrics: [[UInt8]]) -> [UInt8] {
        envelope("resourceMetrics", "scopeMetrics", "metrics", resource: resource, items: metrics)
    }

    private static func envelope(_ outer: StaticString, _ scoped: StaticString, _ list: StaticString,
                                 resource: [OTLPAttribute], items: [[UInt8]]) -> [UInt8] {
        var json = OTLPJSON(reserving: items.reduce(256) { $0 + $1.count + 1 })
        json.beginObject()
        json.key(outer)
        json.beginArray()
        json.beginObject()
        json.key("resource")
        json.beginObject()
        OTLPAttribute.write(resource, to: &json)
        json.endObject()
        json.key(scoped)
        json.beginArray()
        json.beginObject()
        json.key("scope")
        json.beginObject()
        json.member("name", scopeName)
        json.member("version", scopeVersion)
        json.endObject()
        json.key(list)
        json.beginArray()
        for item in items { json.raw(item) }
        json.endArray()
        json.endObject()
        json.endArray()
        json.endObject()
        json.endArray()
        json.endObject()
        return json.bytes
    }
}
