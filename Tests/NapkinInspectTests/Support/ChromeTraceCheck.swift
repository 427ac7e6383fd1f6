import Foundation
import Testing

/// One event of a Chrome Trace Event Format file, as `export` writes them.
struct ChromeEvent {
    var ph: String
    var name: String
    var cat: String?
    /// Microseconds.
    var ts: Double?
    var pid: Int?
    var tid: Int?
    /// `id2.local` (or `id`), for async events.
    var id: String?
    /// `s`, for instants.
    var scope: String?
    var args: [String: Any]

    /// Whether this end says it was cut by the end of the trace.
    var isUnfinished: Bool { args["unfinished"] as? Bool == true }
    /// `pid cat id`: the async track the event is on.
    var track: String { "\(pid ?? -1) \(cat ?? "") \(id ?? "")" }
}

/// A parsed export: its events and its `otherData`; checks that hold for every export.
struct ChromeTraceFile {
    var events: [ChromeEvent]
    var otherData: [String: Any]

    /// Parses `data` (the whole file); fails the test when it is not a Chrome trace object.
    init(_ data: Data, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let object = try JSONSerialization.jsonObject(with: data)
        let top = try #require(object as? [String: Any], "not a JSON object", sourceLocation: sourceLocation)
        let list = try #require(top["traceEvents"] as? [[String: Any]], "no traceEvents list", sourceLocation: sourceLocation)
        otherData = top["otherData"] as? [String: Any] ?? [:]
        events = list.map { item in
            let id2 = item["id2"] as? [String: Any]
            return ChromeEvent(ph: item["ph"] as? String ?? "?", name: item["name"] as? String ?? "",
                               cat: item["cat"] as? String, ts: (item["ts"] as? NSNumber)?.doubleValue,
                               pid: (item["pid"] as? NSNumber)?.intValue, tid: (item["tid"] as? NSNumber)?.intValue,
                               id: id2?["local"] as? String ?? item["id"] as? String, scope: item["s"] as? String,
                               args: item["args"] as? [String: Any] ?? [:])
        }
    }

    /// The trace end of each process (its `otherData.traces[].end_ns`), in microseconds, by exported pid.
    var endByPID: [Int: Double] {
        var ends: [Int: Double] = [:]
        for trace in otherData["traces"] as? [[String: Any]] ?? [] {
            if let pid = (trace["exported_pid"] as? NSNumber)?.intValue, let end = (trace["end_ns"] as? NSNumber)?.doubleValue {
                ends[pid] = end / 1000
            }
        }
        return ends
    }

    /// What is wrong with the file as a trace viewer reads it: unknown
    /// phases, missing fields, async slices that do not nest on their track
    /// (taken in time order, equal times in file order, as viewers do),
    /// begins without an end, and unfinished ends that are not at the trace's end.
    var problems: [String] {
        var problems: [String] = []
        let ends = endByPID
        for (index, event) in events.enumerated() {
            let what = "event \(index) (\(event.ph) \(event.name.debugDescription))"
            guard ["M", "b", "e", "n", "i"].contains(event.ph) else {
                problems.append("\(what): phase \(event.ph)")
                continue
            }
            if event.pid == nil || event.tid == nil { problems.append("\(what): no pid or tid") }
            if event.ph == "M" {
                if event.name.hasSuffix("_name"), (event.args["name"] as? String)?.isEmpty != false {
                    problems.append("\(what): no name")
                }
                continue
            }
            if (event.tid ?? 0) <= 0 { problems.append("\(what): tid \(event.tid ?? 0)") }
            if event.cat == nil { problems.append("\(what): no cat") }
            guard let ts = event.ts, ts >= 0 else {
                problems.append("\(what): no ts")
                continue
            }
            if ["b", "e", "n"].contains(event.ph), event.id == nil { problems.append("\(what): no id") }
            if event.ph == "i", event.scope != "t" { problems.append("\(what): scope \(event.scope ?? "none")") }
            if event.isUnfinished, ts != ends[event.pid ?? -1] {
                problems.append("\(what): unfinished, but at \(ts), not at the trace's end \(ends[event.pid ?? -1] ?? -1)")
            }
        }
        // Nesting, track by track.
        let async = events.enumerated().filter { ["b", "e"].contains($0.element.ph) }
            .sorted { ($0.element.ts ?? 0, $0.offset) < ($1.element.ts ?? 0, $1.offset) }
        var stacks: [String: [String]] = [:]
        for (index, event) in async {
            if event.ph == "b" {
                stacks[event.track, default: []].append(event.name)
            } else if stacks[event.track]?.last == event.name {
                stacks[event.track]?.removeLast()
            } else {
                problems.append("event \(index): end of \(event.name.debugDescription) on \(event.track), but the open slice is \(stacks[event.track]?.last?.debugDescription ?? "none")")
            }
        }
        for (track, open) in stacks where !open.isEmpty { problems.append("\(track): never ended: \(open)") }
        return problems
    }

    /// The events with phase `ph`.
    func events(_ ph: String) -> [ChromeEvent] { events.filter { $0.ph == ph } }

    /// The name a metadata event (`process_name`, `thread_name`) gives `pid` (and `tid`).
    func metadataName(_ kind: String, pid: Int, tid: Int? = nil) -> String? {
        events.first { $0.ph == "M" && $0.name == kind && $0.pid == pid && (tid == nil || $0.tid == tid) }?.args["name"] as? String
    }

    /// The tid of the thread named `name` in `pid`.
    func thread(named name: String, pid: Int) -> Int? {
        events.first { $0.ph == "M" && $0.name == "thread_name" && $0.pid == pid && $0.args["name"] as? String == name }?.tid
    }
}

/// The records of an NDJSON trace, as dictionaries.
enum TraceRecords {
    /// The records of the file at `path` (relative to the repository root).
    static func read(_ path: String) throws -> [[String: Any]] {
        let text = try String.repoFile(path)
        return text.split(separator: "\n").compactMap { line in
            (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any]
        }
    }

    /// A record's number field.
    static func number(_ record: [String: Any], _ key: String) -> UInt64? {
        (record[key] as? NSNumber)?.uint64Value
    }

    /// `0x1f`: how `export` writes the id `value`.
    static func hex(_ value: UInt64) -> String { "0x" + String(value, radix: 16) }
}
