import NapkinTrace

/// What changed between two recordings of the same flow: BEFORE (a good
/// run) and AFTER (the run to judge), matched by ``TracePath``, never by id.
///
/// It reports
/// - findings AFTER has that BEFORE had not (``newFindings``: a regression)
///   and those BEFORE had that AFTER has not (``fixedFindings``), matched by
///   rule, type path and task label (see ``LocatedFinding``);
/// - routers whose path only one run has (``appeared``, ``disappeared``),
///   with how many routers of that type each run had under that parent path;
/// - the ``RouterMeasure``s of routers both runs have that changed by more
///   than the ``ComparisonThresholds`` (``changes``);
/// - the routers alive at the end of each run, in the tree or outside it,
///   by path, with which run has them (``atEnd``).
///
/// Every list of routers is in tree order: in-tree paths first, each before
/// its children, siblings in the order AFTER attached them.
public struct TraceComparison: Sendable {
    /// Which runs have something.
    public enum Presence: String, Sendable, Hashable {
        /// BEFORE and AFTER.
        case both
        /// Only BEFORE (removed).
        case before
        /// Only AFTER (added).
        case after
    }

    /// A router whose path only one run has, with how many routers of its
    /// type each run had under its parent path (`OrderRouter` under
    /// `…/LoggedInRouter`: 2 before, 3 after).
    public struct RouterCount: Sendable, Hashable {
        /// The path.
        public var path: TracePath
        /// Routers of its type under its parent path in BEFORE.
        public var before: Int
        /// The same in AFTER.
        public var after: Int
    }

    /// A measure of a router both runs have, changed beyond the thresholds.
    public struct MeasureChange: Sendable, Hashable {
        /// The router's path.
        public var path: TracePath
        /// What changed.
        public var measure: RouterMeasure
        /// Its value in BEFORE (ns, or a count).
        public var before: UInt64
        /// Its value in AFTER.
        public var after: UInt64
    }

    /// A router alive at the end of one run or both.
    public struct EndRouter: Sendable, Hashable {
        /// Its path.
        public var path: TracePath
        /// Whether it is in the tree (false: alive outside it).
        public var inTree: Bool
        /// Which runs have it there at the end.
        public var presence: Presence
    }

    /// The thresholds ``changes`` were chosen with.
    public let thresholds: ComparisonThresholds
    /// The paths of both runs (run 0: BEFORE, run 1: AFTER).
    public let paths: TracePaths
    /// Findings of AFTER that BEFORE did not have.
    public let newFindings: [LocatedFinding]
    /// Findings of BEFORE that AFTER does not have.
    public let fixedFindings: [LocatedFinding]
    /// Findings of AFTER that BEFORE had too.
    public let keptFindings: [LocatedFinding]
    /// Routers only AFTER has.
    public let appeared: [RouterCount]
    /// Routers only BEFORE has.
    public let disappeared: [RouterCount]
    /// Measures of routers both runs have that changed beyond the thresholds.
    public let changes: [MeasureChange]
    /// Routers alive at the end of either run: those in the tree, then those outside it.
    public let atEnd: [EndRouter]
    /// How many routers BEFORE and AFTER created.
    public let routerCounts: (before: Int, after: Int)
    /// How many findings each run has.
    public let findingCounts: (before: Int, after: Int)

    /// Whether AFTER has findings BEFORE did not: what a regression gate fails on.
    public var isRegression: Bool { !newFindings.isEmpty }

    /// Whether anything at all is reported.
    public var hasChanges: Bool {
        !newFindings.isEmpty || !fixedFindings.isEmpty || !appeared.isEmpty || !disappeared.isEmpty || !changes.isEmpty
            || atEnd.contains { $0.presence != .both }
    }

    /// Compares `before` with `after`, reporting measures that changed beyond `thresholds`.
    public init(before: ComparedTrace, after: ComparedTrace, thresholds: ComparisonThresholds = .default) {
        self.thresholds = thresholds
        let paths = TracePaths([before.history, after.history])
        self.paths = paths
        let ranks = paths.depthFirstRanks(preferring: [1, 0])
        let inTreeOrder: (TracePath, TracePath) -> Bool = { ranks[$0.index] < ranks[$1.index] }

        let located = [before, after].enumerated().map { run, trace in
            trace.findings.map { LocatedFinding($0, path: $0.subject == .trace ? nil : paths.path(of: $0.id, inRun: run)) }
        }
        (newFindings, fixedFindings, keptFindings) = FindingMatch.pair(before: located[0], after: located[1])
        findingCounts = (before.findings.count, after.findings.count)

        let routers = [paths.routers(inRun: 0), paths.routers(inRun: 1)]
        routerCounts = (routers[0].count, routers[1].count)
        let groupCounts = routers.map(Self.countByGroup)
        let count: (TracePath) -> RouterCount = { path in
            let group = Group(path)
            return RouterCount(path: path, before: groupCounts[0][group, default: 0], after: groupCounts[1][group, default: 0])
        }
        appeared = routers[1].keys.filter { routers[0][$0] == nil }.sorted(by: inTreeOrder).map(count)
        disappeared = routers[0].keys.filter { routers[1][$0] == nil }.sorted(by: inTreeOrder).map(count)

        var changes: [MeasureChange] = []
        let ends = (before.history.endTime, after.history.endTime)
        for path in routers[1].keys.sorted(by: inTreeOrder) {
            guard let beforeID = routers[0][path], let beforeLife = before.history.life(of: beforeID),
                  let afterID = routers[1][path], let afterLife = after.history.life(of: afterID) else { continue }
            for measure in RouterMeasure.allCases {
                let old = measure.value(of: beforeLife, endingAt: ends.0)
                let new = measure.value(of: afterLife, endingAt: ends.1)
                if thresholds.passes(measure, from: old, to: new) {
                    changes.append(MeasureChange(path: path, measure: measure, before: old, after: new))
                }
            }
        }
        self.changes = changes

        let endStates = [RoutersAtEnd(before.history), RoutersAtEnd(after.history)]
        var atEnd: [EndRouter] = []
        for inTree in [true, false] {
            var presence: [TracePath: Presence] = [:]
            for run in 0..<2 {
                let ids = inTree ? endStates[run].inTree : endStates[run].outside
                for (path, id) in routers[run] where ids.contains(id) {
                    presence[path] = presence[path] == nil ? (run == 0 ? .before : .after) : .both
                }
            }
            atEnd += presence.keys.sorted(by: inTreeOrder).map { EndRouter(path: $0, inTree: inTree, presence: presence[$0]!) }
        }
        self.atEnd = atEnd
    }

    /// The routers numbered together: one type under one parent path.
    private struct Group: Hashable {
        /// The parent's path, nil for a path's first segment.
        var parent: TracePath?
        /// Whether the path starts in the tree.
        var inTree: Bool
        /// The type.
        var type: String

        /// The group of `path`.
        init(_ path: TracePath) {
            parent = path.parent
            inTree = path.isInTree
            type = path.type
        }
    }

    /// How many of `routers` each group has.
    private static func countByGroup(_ routers: [TracePath: NodeID]) -> [Group: Int] {
        var counts: [Group: Int] = [:]
        for path in routers.keys { counts[Group(path), default: 0] += 1 }
        return counts
    }
}
