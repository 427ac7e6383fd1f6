import Foundation
import NapkinTrace

/// What `stats` reports about a trace; `--format json` writes the overview's
/// fields and the counts side by side in one object.
struct TraceStats: Encodable {
    /// The file, the app, the events, whether it is complete.
    var overview: TraceOverview
    /// Everything else `stats` counts.
    var counts: Counts

    /// Everything `stats` counts besides the overview.
    struct Counts: Encodable {
        /// The file's size.
        var bytes: Int
        /// The trace format version.
        var formatVersion: Int?
        /// When the session started (ISO 8601).
        var startedAt: String?
        /// Events over the duration.
        var eventsPerSecond: Double
        /// Why the session ended, from its end record.
        var endReason: String?
        /// Whether the last line is incomplete (a crash, or a trace still being written).
        var lastLineCutShort: Bool
        /// Routers and interactors created, deallocated and alive at the end (`routers_created`, ...).
        var routersCreated = 0, routersDeallocated = 0, routersAlive = 0
        /// Interactors created, deallocated and alive at the end.
        var interactorsCreated = 0, interactorsDeallocated = 0, interactorsAlive = 0
        /// Bound tasks started, ended, ended cancelled, and running at the end.
        var tasksStarted = 0, tasksEnded = 0, tasksCancelled = 0, tasksRunning = 0
        /// The depth of the deepest attach.
        var maxDepth = 0
        /// Marks the app wrote.
        var marks = 0
        /// Events by kind name, only the kinds that occur.
        var eventsByKind: [String: Int] = [:]
        /// Lines the reader could not use.
        var invalidLines: Int
        /// Records of kinds the reader does not know, by kind.
        var unknownKinds: [String: Int]
        /// Fields the reader does not know.
        var unknownFields: Int
        /// What is wrong with the trace itself (`kind: message`); empty for an intact trace.
        var traceProblems: [String] = []
    }

    /// The overview's fields, then the counts, in one object.
    func encode(to encoder: any Encoder) throws {
        try overview.encode(to: encoder)
        try counts.encode(to: encoder)
    }
}

extension TraceStats {
    /// Reads the trace at `path` and counts.
    init(reading path: String) throws(CommandFailure) {
        var state = TraceState()
        var tally = Tally()
        let summary = try TraceInput(path: path).read { event in
            tally.count(event, before: state)
            state.apply(event)
            tally.counted(event, after: state)
            return true
        }
        self = tally.stats(path: path, reading: summary, state: state)
    }

    /// What `stats` counts beyond the model's own counts, folded one event
    /// at a time next to a ``TraceState`` the caller keeps, so that a command
    /// that folds the trace for other reasons (`report`, whose analysis has
    /// the state) counts in the same pass and with the same state.
    struct Tally {
        private var depths = AttachDepths()
        private var cancelled = 0
        private var endReason: String?
        private var routersDeallocated = 0, interactorsDeallocated = 0

        /// Nothing counted yet.
        init() {}

        /// Counts what `event` ends; `state` is the model before it.
        mutating func count(_ event: TraceEvent, before state: TraceState) {
            switch event.kind {
            case .deallocated(let id):
                if let node = state[id] {
                    if node.kind == .router { routersDeallocated += 1 } else { interactorsDeallocated += 1 }
                }
            case .taskEnd(_, let outcome): if outcome == .cancelled { cancelled += 1 }
            case .sessionEnd(let reason): endReason = reason
            default: break
            }
        }

        /// Counts what `event` made; `state` is the model after it.
        mutating func counted(_ event: TraceEvent, after state: TraceState) {
            depths.apply(event, state)
        }

        /// The stats of the trace at `path`, once its reading is `summary` and the model `state`.
        func stats(path: String, reading summary: TraceInput.Summary, state: TraceState) -> TraceStats {
            var counts = Counts(
                bytes: summary.bytes, formatVersion: state.session?.version, startedAt: state.session.map { TraceStats.iso8601($0.wallClock) },
                eventsPerSecond: state.time > 0 ? Double(summary.events) / (Double(state.time) / 1e9) : 0,
                endReason: endReason, lastLineCutShort: summary.endedMidLine,
                invalidLines: summary.invalidLines, unknownKinds: summary.unknownKinds, unknownFields: summary.unknownFields)
            counts.traceProblems = summary.integrity.including(state).problems.map { "\($0.kind.rawValue): \($0)" }
            counts.routersCreated = state.eventCount(.router)
            counts.routersDeallocated = routersDeallocated
            counts.routersAlive = state.routerCount
            counts.interactorsCreated = state.eventCount(.interactor)
            counts.interactorsDeallocated = interactorsDeallocated
            counts.interactorsAlive = state.interactorCount
            counts.tasksStarted = state.tasksStarted
            counts.tasksEnded = state.tasksEnded
            counts.tasksCancelled = cancelled
            counts.tasksRunning = state.taskCount
            counts.maxDepth = depths.deepest
            counts.marks = state.eventCount(.mark)
            for name in TraceEvent.Name.allCases where state.eventCount(name) > 0 { counts.eventsByKind[name.rawValue] = state.eventCount(name) }
            return TraceStats(overview: TraceOverview(path: path, reading: summary, state: state), counts: counts)
        }
    }

    /// `2026-11-22T11:45:35.721Z`: Unix time in nanoseconds as ISO 8601.
    static func iso8601(_ unixNanoseconds: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(unixNanoseconds) / 1e9)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: date)
    }
}

/// The depth of each router when it was attached, and the deepest, in
/// constant time per attach whatever the depth (a trace may describe a chain
/// of 100,000 routers): a router's depth is its parent's, plus one, as the
/// parent's was recorded; a parent whose depth is not known (a root, or a
/// router attached under one that had gone) counts as a root.
struct AttachDepths {
    /// The depth recorded for each router alive.
    private var depth: [NodeID: Int] = [:]
    /// The deepest attach so far.
    private(set) var deepest = 0

    /// Records what `event` changes; `state` is the state after it.
    mutating func apply(_ event: TraceEvent, _ state: TraceState) {
        switch event.kind {
        case .sessionStart:
            depth = [:]
        case .attach(let parent, let child):
            // The model ignores an attach that would make a cycle: only a real link counts.
            guard state[child]?.parent == parent else { return }
            let d = (depth[parent] ?? 0) &+ 1
            depth[child] = d
            deepest = max(deepest, d)
        case .deallocated(let id):
            depth[id] = nil
        default:
            break
        }
    }
}
