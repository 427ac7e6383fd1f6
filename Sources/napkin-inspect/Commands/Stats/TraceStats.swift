import Foundation
import NapkinTrace

/// What `stats` reports about a trace; `--format json` encodes it as is.
struct TraceStats: Encodable {
    /// The trace file.
    var path: String
    /// Its size.
    var bytes: Int
    /// Valid events read.
    var events: Int
    /// The app, from the session record.
    var app: String?
    /// Its process id.
    var pid: Int?
    /// The trace format version.
    var formatVersion: Int?
    /// When the session started (ISO 8601).
    var startedAt: String?
    /// Trace time of the last event.
    var durationNs: UInt64
    /// Events over the duration.
    var eventsPerSecond: Double
    /// Whether the session-end record is present.
    var endedCleanly: Bool
    /// Why the session ended, from that record.
    var endReason: String?
    /// Whether the last line is incomplete (a crash, or a trace still being written).
    var lastLineCutShort: Bool
    /// Events the app dropped.
    var droppedEvents: UInt64
    /// Routers created.
    var routersCreated: Int
    /// Routers deallocated.
    var routersDeallocated: Int
    /// Interactors created.
    var interactorsCreated: Int
    /// Interactors deallocated.
    var interactorsDeallocated: Int
    /// Routers alive at the end.
    var routersAlive: Int
    /// Interactors alive at the end.
    var interactorsAlive: Int
    /// Bound tasks started.
    var tasksStarted: Int
    /// Bound tasks ended.
    var tasksEnded: Int
    /// Bound tasks that ended cancelled.
    var tasksCancelled: Int
    /// Bound tasks running at the end.
    var tasksRunning: Int
    /// The depth of the deepest attach.
    var maxDepth: Int
    /// Marks the app wrote.
    var marks: Int
    /// Events by kind name, only the kinds that occur.
    var eventsByKind: [String: Int]
    /// Lines the reader could not use.
    var invalidLines: Int
    /// Records of kinds the reader does not know, by kind.
    var unknownKinds: [String: Int]
    /// Fields the reader does not know.
    var unknownFields: Int
}

extension TraceStats {
    /// Reads the trace at `path` and counts.
    init(reading path: String) throws(CommandFailure) {
        var state = TraceState()
        var cancelled = 0
        var maxDepth = 0
        var endReason: String?
        var routersDeallocated = 0, interactorsDeallocated = 0
        let summary = try TraceInput(path: path).read { event in
            switch event.kind {
            case .deallocated(let id):
                if let node = state[id] {
                    if node.kind == .router { routersDeallocated += 1 } else { interactorsDeallocated += 1 }
                }
            case .taskEnd(_, let outcome): if outcome == .cancelled { cancelled += 1 }
            case .sessionEnd(let reason): endReason = reason
            default: break
            }
            state.apply(event)
            if case .attach(_, let child) = event.kind { maxDepth = max(maxDepth, Self.depth(of: child, in: state)) }
            return true
        }
        var counts: [String: Int] = [:]
        for name in TraceEvent.Name.allCases where state.eventCount(name) > 0 { counts[name.rawValue] = state.eventCount(name) }
        self.init(
            path: path, bytes: summary.bytes, events: summary.events,
            app: state.session?.app, pid: state.session?.pid, formatVersion: state.session?.version,
            startedAt: state.session.map { Self.iso8601($0.wallClock) },
            durationNs: state.time,
            eventsPerSecond: state.time > 0 ? Double(summary.events) / (Double(state.time) / 1e9) : 0,
            endedCleanly: state.ended, endReason: endReason, lastLineCutShort: summary.endedMidLine,
            droppedEvents: state.droppedEvents,
            routersCreated: state.eventCount(.router), routersDeallocated: routersDeallocated,
            interactorsCreated: state.eventCount(.interactor), interactorsDeallocated: interactorsDeallocated,
            routersAlive: state.routerCount, interactorsAlive: state.interactorCount,
            tasksStarted: state.tasksStarted, tasksEnded: state.tasksEnded, tasksCancelled: cancelled, tasksRunning: state.taskCount,
            maxDepth: maxDepth, marks: state.eventCount(.mark), eventsByKind: counts,
            invalidLines: summary.invalidLines, unknownKinds: summary.unknownKinds, unknownFields: summary.unknownFields)
    }

    /// How many parents `node` has up to its root (at most 10,000: a trace may describe a cycle).
    private static func depth(of node: NodeID, in state: TraceState) -> Int {
        var depth = 0
        var cursor = state[node]?.parent
        while let parent = cursor, depth < 10_000 {
            depth += 1
            cursor = state[parent]?.parent
        }
        return depth
    }

    /// `2026-11-22T11:45:35.721Z`: Unix time in nanoseconds as ISO 8601.
    private static func iso8601(_ unixNanoseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(unixNanoseconds) / 1e9)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}
