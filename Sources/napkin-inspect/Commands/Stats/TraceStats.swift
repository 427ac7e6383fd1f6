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
        /// Routers and interactors per type and bound tasks per owner type and
        /// label: alive at the end and the most at once, most first (``Population/order``).
        var populations: [Population] = []
        /// Instances alive at the end of types beyond the first
        /// ``NapkinTrace/PopulationCounts/maxPopulations`` (counted, not listed).
        var untrackedLiveInstances = 0
    }

    /// One population in `stats`: the instances of one type (for tasks: one
    /// owner type and label), alive at the end and the most at once.
    struct Population: Encodable, Equatable {
        /// `router`, `interactor` or `task`.
        var kind: String
        /// The population's name (`check --max-alive NAME=N`): the type, or `Owner 'label'` for tasks.
        var name: String
        /// The type (for tasks: the owner's).
        var type: String
        /// For tasks: the label, if the task has one.
        var label: String?
        /// How many are alive (tasks: running) at the end.
        var live: Int
        /// The most alive at once.
        var peak: Int
        /// The sequence number of the event that first reached the peak.
        var peakSeq: UInt64
        /// The trace time (ns) of that event.
        var peakTimeNs: UInt64
        /// How many were created (tasks: started) in all.
        var created: Int
        /// The key it was counted under, for sorting.
        private let key: PopulationCounts.Key

        /// The longest name, type or label written (a trace's lines may be a megabyte long).
        static let maxText = 1_000

        /// The row for `population`.
        init(_ population: PopulationCounts.Population) {
            key = population.key
            kind = population.key.kind.rawValue
            name = Self.bounded(population.key.description)
            type = Self.bounded(population.key.type)
            label = population.key.label.map(Self.bounded)
            live = population.live
            peak = population.peak
            peakSeq = population.peakSeq
            peakTimeNs = population.peakTime
            created = population.created
        }

        private enum CodingKeys: String, CodingKey {
            case kind, name, type, label, live, peak, peakSeq, peakTimeNs, created
        }

        /// `text`, cut to ``maxText`` characters (ending with `…` when cut).
        private static func bounded(_ text: String) -> String {
            guard text.utf8.count > maxText,
                  let past = text.index(text.startIndex, offsetBy: maxText, limitedBy: text.endIndex), past < text.endIndex
            else { return text }
            return text.prefix(maxText - 1) + "\u{2026}"
        }

        /// The order `stats` lists populations in: the most at once first, then
        /// the most alive at the end, then routers, interactors, tasks, each by name.
        static func order(_ a: Population, _ b: Population) -> Bool {
            if a.peak != b.peak { return a.peak > b.peak }
            if a.live != b.live { return a.live > b.live }
            return a.key < b.key
        }
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
        private var populations = PopulationCounts()

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
            // A new session starts a new model (its ids are new), and so new
            // populations; a model that stopped (its work budget ran out) stops them too.
            if case .sessionStart = event.kind { populations = PopulationCounts() }
            guard state.stoppedAt == nil else { return }
            populations.note(event, in: state)
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
            counts.populations = populations.populations.map(Population.init).sorted(by: Population.order)
            counts.untrackedLiveInstances = populations.untrackedInstances
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
