/// The live instances of one population at a moment, as the population
/// rules name them: a few ids, how many there are, and the lines of code
/// that created them, grouped by line.
///
/// A creation recorded on a device names a function instead of a line
/// (``CodeLocation/isFunction``, `RibHouse/OrderBuilder.build(withListener:)`):
/// such instances are grouped by the function exactly as others by their
/// line (a ``CodeLocation`` is equal to another naming the same function),
/// counted among the ``lines``, not ``withoutLine``, and named as the
/// function (`created at RibHouse/OrderBuilder.build(withListener:) (3)`).
///
/// Taken once per finding (a walk over the live instances), never per event.
struct PopulationSurvey: Sendable {
    /// How many ids a finding lists; the rest are counted.
    static let maxListedIDs = 10
    /// How many creation lines a finding names.
    static let maxLines = 10

    /// The ids of the instances, lowest first (the first ``maxListedIDs``).
    var ids: [NodeID] = []
    /// How many instances there are.
    var count = 0
    /// The creation lines or functions (for tasks: where they were started)
    /// and how many instances each made, most first, then by file id and
    /// line; at most ``maxLines``.
    var lines: [(location: CodeLocation, count: Int)] = []
    /// Instances whose creation line (or function) the trace does not give.
    var withoutLine = 0

    /// The instances of `key` alive in `state`; with `createdAfter`, only
    /// those created (or started) after that sequence number.
    init(of key: PopulationCounts.Key, in state: TraceState, createdAfter: UInt64 = 0) {
        var ids: [NodeID] = []
        var perLine: [CodeLocation: Int] = [:]
        PopulationCounts.forEachInstance(of: key, in: state) { id in
            let (seq, location) = Self.origin(of: id, key.kind, in: state)
            guard seq > createdAfter || createdAfter == 0 else { return }
            ids.append(id)
            if let location { perLine[location, default: 0] += 1 } else { withoutLine += 1 }
        }
        count = ids.count
        self.ids = Array(ids.sorted().prefix(Self.maxListedIDs))
        lines = perLine.map { (location: $0.key, count: $0.value) }
            .sorted { ($1.count, $0.location.fileID, $0.location.line) < ($0.count, $1.location.fileID, $1.location.line) }
        if lines.count > Self.maxLines { lines.removeLast(lines.count - Self.maxLines) }
    }

    /// When an instance was created (or started), and where, if the trace says.
    private static func origin(of id: NodeID, _ kind: PopulationCounts.Key.Kind, in state: TraceState) -> (UInt64, CodeLocation?) {
        switch kind {
        case .router:
            guard let node = state[id] else { return (0, nil) }
            return (node.createdSeq, state.codeLocations(of: node).created)
        case .interactor:
            guard let node = state[id] else { return (0, nil) }
            // An interactor's own creation line, else its router's (the builder).
            let own = state.codeLocationTable[node.createdFrom]
            let router = node.router.flatMap { state[$0] }.flatMap { state.codeLocations(of: $0).created }
            return (node.createdSeq, own ?? router)
        case .task:
            guard let task = state.task(id) else { return (0, nil) }
            return (task.startSeq, state.codeLocation(of: task))
        }
    }

    /// The creation lines as code references (sorted by file and line, so
    /// that the fingerprint does not depend on how many each made).
    func references(_ kind: PopulationCounts.Key.Kind) -> [Finding.CodeReference] {
        let role: Finding.CodeReference.Role = kind == .task ? .started : .created
        return lines.map(\.location)
            .sorted { ($0.fileID, $0.line) < ($1.fileID, $1.line) }
            .map { Finding.CodeReference(role, $0) }
    }

    /// The id a finding about the population names: its newest instance,
    /// or for tasks the newest task's owner (a task finding names its owner).
    func subjectID(_ kind: PopulationCounts.Key.Kind, in state: TraceState) -> NodeID {
        guard let newest = ids.last else { return 0 }
        switch kind {
        case .router, .interactor: return newest
        case .task: return state.task(newest)?.owner ?? 0
        }
    }

    /// `#3, #7 and 2 more`.
    var idsText: String {
        let listed = ids.map { "#\($0)" }.joined(separator: ", ")
        return count > ids.count ? "\(listed) and \(count - ids.count) more" : listed
    }

    /// `created at Shop/MenuBuilder.swift:31 (3), Shop/Cache.swift:9 (1)`,
    /// or nothing when the trace names no line.
    func linesText(_ kind: PopulationCounts.Key.Kind) -> String {
        guard !lines.isEmpty else { return "" }
        let verb = kind == .task ? "started" : "created"
        return "; \(verb) at " + lines.map { "\($0.location) (\($0.count))" }.joined(separator: ", ")
    }
}
