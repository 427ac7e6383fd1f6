/// The metrics napkin exports, as one snapshot of cumulative values: the
/// live routers and interactors per type (gauges), findings per rule, and
/// what was dropped on the way (monotonic cumulative sums).
package struct OTLPMetrics: Sendable, Hashable {
    /// When counting started (the session's start), Unix nanoseconds.
    package var start: UInt64
    /// When the snapshot was taken, Unix nanoseconds.
    package var time: UInt64
    /// Routers alive (created, not deallocated) per type name.
    package var routers: [String: Int] = [:]
    /// Interactors alive per type name.
    package var interactors: [String: Int] = [:]
    /// Findings per rule identifier.
    package var findings: [String: Int] = [:]
    /// Trace events the tracer dropped (its queue was full).
    package var droppedEvents: UInt64 = 0
    /// Spans, log records and metric exports the exporter dropped, per signal (`traces`, `logs`, `metrics`).
    package var exporterDropped: [String: Int] = [:]

    /// The metrics, each as one OTLP/JSON `Metric` object.
    func encoded() -> [[UInt8]] {
        var out: [[UInt8]] = []
        out.append(gauge("napkin.router.live", "Routers alive (created and not yet deallocated), per type.",
                         unit: "{router}", by: "napkin.type", values: routers))
        out.append(gauge("napkin.interactor.live", "Interactors alive (created and not yet deallocated), per type.",
                         unit: "{interactor}", by: "napkin.type", values: interactors))
        out.append(sum("napkin.finding.count", "Lifecycle findings, per rule.", unit: "{finding}",
                       by: "napkin.finding.rule", values: findings))
        out.append(sum("napkin.trace.dropped_events", "Trace events dropped because the tracer's queue was full.",
                       unit: "{event}", by: nil, values: ["": Int(clamping: droppedEvents)]))
        out.append(sum("napkin.otlp.dropped", "Spans, log records and metric exports the OTLP exporter dropped (its queue was full, or the collector refused them).",
                       unit: "{item}", by: "napkin.otlp.signal", values: exporterDropped))
        return out
    }

    private func gauge(_ name: String, _ description: String, unit: String, by key: String, values: [String: Int]) -> [UInt8] {
        metric(name, description, unit: unit) { json in
            json.key("gauge")
            json.beginObject()
            points(by: key, values: values, cumulative: false, to: &json)
            json.endObject()
        }
    }

    private func sum(_ name: String, _ description: String, unit: String, by key: String?, values: [String: Int]) -> [UInt8] {
        metric(name, description, unit: unit) { json in
            json.key("sum")
            json.beginObject()
            points(by: key, values: values, cumulative: true, to: &json)
            // AGGREGATION_TEMPORALITY_CUMULATIVE.
            json.member("aggregationTemporality", int: 2)
            json.key("isMonotonic")
            json.bool(true)
            json.endObject()
        }
    }

    private func metric(_ name: String, _ description: String, unit: String, data: (inout OTLPJSON) -> Void) -> [UInt8] {
        var json = OTLPJSON(reserving: 256)
        json.beginObject()
        json.member("name", name)
        json.member("description", description)
        json.member("unit", unit)
        data(&json)
        json.endObject()
        return json.bytes
    }

    private func points(by key: String?, values: [String: Int], cumulative: Bool, to json: inout OTLPJSON) {
        json.key("dataPoints")
        json.beginArray()
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            json.beginObject()
            if let key { OTLPAttribute.write([OTLPAttribute(key, .string(name))], to: &json) }
            if cumulative { json.member("startTimeUnixNano", uint64: start) }
            json.member("timeUnixNano", uint64: time)
            json.key("asInt")
            json.int64(Int64(value))
            json.endObject()
        }
        json.endArray()
    }
}
