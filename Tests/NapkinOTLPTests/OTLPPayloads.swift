// Reading OTLP/JSON payloads back in the tests: the spans, log records and
// metric data points of request bodies, with their attributes as plain values.

import Foundation

/// A span read back from a payload.
struct ReadSpan {
    var traceID: String
    var spanID: String
    var parentSpanID: String
    var name: String
    var start: UInt64
    var end: UInt64
    var attributes: [String: Any]
    var events: [(name: String, attributes: [String: Any])]
    var droppedEvents: Int

    var routerID: Int? { (attributes["napkin.router.id"] as? String).flatMap { Int($0) } }
    var routerType: String? { attributes["napkin.router.type"] as? String }
    var openAtEnd: Bool { attributes["napkin.span.open_at_end"] as? Bool ?? false }
}

/// A log record read back from a payload.
struct ReadLog {
    var severityNumber: Int
    var severityText: String
    var body: String
    var traceID: String?
    var spanID: String?
    var attributes: [String: Any]
    var eventName: String? { attributes["event.name"] as? String }
}

enum OTLPPayloads {
    /// Attributes as a dictionary: strings, ints (as their decimal string, as written), bools, string arrays.
    static func attributes(_ list: Any?) -> [String: Any] {
        var out: [String: Any] = [:]
        for item in list as? [[String: Any]] ?? [] {
            guard let key = item["key"] as? String, let value = item["value"] as? [String: Any] else { continue }
            if let text = value["stringValue"] { out[key] = text }
            else if let number = value["intValue"] { out[key] = number }
            else if let flag = value["boolValue"] { out[key] = flag }
            else if let array = value["arrayValue"] as? [String: Any] {
                out[key] = (array["values"] as? [[String: Any]] ?? []).compactMap { $0["stringValue"] as? String }
            }
        }
        return out
    }

    static func spans(_ body: [String: Any]) -> [ReadSpan] {
        var out: [ReadSpan] = []
        for resource in body["resourceSpans"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                for span in scope["spans"] as? [[String: Any]] ?? [] {
                    out.append(ReadSpan(
                        traceID: span["traceId"] as? String ?? "", spanID: span["spanId"] as? String ?? "",
                        parentSpanID: span["parentSpanId"] as? String ?? "", name: span["name"] as? String ?? "",
                        start: UInt64(span["startTimeUnixNano"] as? String ?? "") ?? 0,
                        end: UInt64(span["endTimeUnixNano"] as? String ?? "") ?? 0,
                        attributes: attributes(span["attributes"]),
                        events: (span["events"] as? [[String: Any]] ?? []).map { ($0["name"] as? String ?? "", attributes($0["attributes"])) },
                        droppedEvents: span["droppedEventsCount"] as? Int ?? 0))
                }
            }
        }
        return out
    }

    static func logs(_ body: [String: Any]) -> [ReadLog] {
        var out: [ReadLog] = []
        for resource in body["resourceLogs"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeLogs"] as? [[String: Any]] ?? [] {
                for record in scope["logRecords"] as? [[String: Any]] ?? [] {
                    out.append(ReadLog(
                        severityNumber: record["severityNumber"] as? Int ?? 0, severityText: record["severityText"] as? String ?? "",
                        body: (record["body"] as? [String: Any])?["stringValue"] as? String ?? "",
                        traceID: record["traceId"] as? String, spanID: record["spanId"] as? String,
                        attributes: attributes(record["attributes"])))
                }
            }
        }
        return out
    }

    /// The resource's attributes of the first resource in `body`.
    static func resource(_ body: [String: Any]) -> [String: Any] {
        for key in ["resourceSpans", "resourceLogs", "resourceMetrics"] {
            if let first = (body[key] as? [[String: Any]])?.first {
                return attributes((first["resource"] as? [String: Any])?["attributes"])
            }
        }
        return [:]
    }

    /// Each metric's data points: name → [(attributes, asInt)].
    static func metrics(_ body: [String: Any]) -> [String: [(attributes: [String: Any], value: Int)]] {
        var out: [String: [(attributes: [String: Any], value: Int)]] = [:]
        for resource in body["resourceMetrics"] as? [[String: Any]] ?? [] {
            for scope in resource["scopeMetrics"] as? [[String: Any]] ?? [] {
                for metric in scope["metrics"] as? [[String: Any]] ?? [] {
                    let name = metric["name"] as? String ?? ""
                    let data = (metric["gauge"] ?? metric["sum"]) as? [String: Any] ?? [:]
                    for point in data["dataPoints"] as? [[String: Any]] ?? [] {
                        out[name, default: []].append((attributes(point["attributes"]), Int(point["asInt"] as? String ?? "") ?? -1))
                    }
                }
            }
        }
        return out
    }

    /// Every line of an `export --format otlp` output as JSON.
    static func lines(_ text: String) -> [[String: Any]] {
        text.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
        }
    }
}
