import NapkinTrace
import NapkinTraceReader

/// `diff --format json`: one object, keys in snake_case and sorted
/// (``JSONOutput``), documented in `docs/diff.md`:
/// `before` and `after` (each trace's overview, `routers`, `findings` and
/// `trace_problems`), `thresholds`, `new_findings` and `fixed_findings` (as
/// `check --format json` writes findings, plus `path`), `kept_findings` (a
/// count), `appeared` and `disappeared` (`path`, `type`, `parent`,
/// `before`, `after`), `changes` (`path`, `measure`, `before`, `after`),
/// `at_end` (`path`, `in_tree`, `presence`), `regression`, `changed`,
/// `summary` and `exit_status`. Paths are written as text (``DiffPathText``).
struct DiffJSON: Encodable {
    /// What is written.
    let report: DiffReport
    /// Where the files of code locations are looked up.
    let sources: SourceRoot

    private enum CodingKeys: String, CodingKey {
        case before, after, thresholds, newFindings, fixedFindings, keptFindings, appeared, disappeared, changes, atEnd
        case regression, changed, summary, exitStatus
    }

    /// One trace: its overview's fields, then its counts and problems.
    private struct SideJSON: Encodable {
        /// The trace.
        let side: DiffSide
        /// How many routers it created.
        let routers: Int

        private enum CodingKeys: String, CodingKey { case routers, findings, traceProblems }

        /// The overview's fields, then `routers`, `findings` and `trace_problems`.
        func encode(to encoder: any Encoder) throws {
            try side.overview.encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(routers, forKey: .routers)
            try container.encode(side.trace.findings.count, forKey: .findings)
            try container.encode(side.traceProblems, forKey: .traceProblems)
        }
    }

    /// The thresholds, in the units the options take apart from the share (a fraction).
    private struct ThresholdsJSON: Encodable {
        /// The share, as a fraction.
        let relative: Double
        /// The smallest change of a lifetime (ns).
        let timeNs: UInt64
        /// The smallest change of a task count.
        let tasks: UInt64
    }

    /// A finding as `check` writes it, with the path of what it is about.
    private struct LocatedFindingJSON: Encodable {
        /// The finding and its path.
        let located: LocatedFinding
        /// Where the files of its code locations are looked up.
        let sources: SourceRoot

        private enum CodingKeys: String, CodingKey { case path }

        /// The finding's fields as `check` writes them, then `path`.
        func encode(to encoder: any Encoder) throws {
            try FindingJSON(finding: located.finding, sources: sources).encode(to: encoder)
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(located.path.map { DiffPathText.text($0, escape: { $0 }) }, forKey: .path)
        }
    }

    /// A router only one run has.
    private struct CountJSON: Encodable {
        /// The router's path.
        let path: String
        /// Its type.
        let type: String
        /// Its parent's path, nil for a first segment.
        let parent: String?
        /// Whether its path starts in the tree.
        let inTree: Bool
        /// Routers of its type under its parent path in BEFORE.
        let before: Int
        /// The same in AFTER.
        let after: Int
    }

    /// A measure that changed.
    private struct ChangeJSON: Encodable {
        /// The router's path.
        let path: String
        /// `time_attached`, `time_alive` or `tasks`.
        let measure: String
        /// BEFORE's value (ns, or a count).
        let before: UInt64
        /// AFTER's value.
        let after: UInt64
    }

    /// A router alive at the end.
    private struct EndJSON: Encodable {
        /// The router's path.
        let path: String
        /// Whether it is in the tree at the end.
        let inTree: Bool
        /// `both`, `before` or `after`.
        let presence: String
    }

    /// The path as text, unescaped (JSON escapes it).
    private static func text(_ path: TracePath) -> String { DiffPathText.text(path, escape: { $0 }) }

    /// Writes the report's fields (see the type's documentation).
    func encode(to encoder: any Encoder) throws {
        let c = report.comparison
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(SideJSON(side: report.before, routers: c.routerCounts.before), forKey: .before)
        try container.encode(SideJSON(side: report.after, routers: c.routerCounts.after), forKey: .after)
        try container.encode(ThresholdsJSON(relative: c.thresholds.relative, timeNs: c.thresholds.time, tasks: c.thresholds.tasks),
                             forKey: .thresholds)
        try container.encode(c.newFindings.map { LocatedFindingJSON(located: $0, sources: sources) }, forKey: .newFindings)
        try container.encode(c.fixedFindings.map { LocatedFindingJSON(located: $0, sources: sources) }, forKey: .fixedFindings)
        try container.encode(c.keptFindings.count, forKey: .keptFindings)
        let counts: ([TraceComparison.RouterCount]) -> [CountJSON] = { list in
            list.map { CountJSON(path: Self.text($0.path), type: $0.path.type, parent: $0.path.parent.map(Self.text),
                                 inTree: $0.path.isInTree, before: $0.before, after: $0.after) }
        }
        try container.encode(counts(c.appeared), forKey: .appeared)
        try container.encode(counts(c.disappeared), forKey: .disappeared)
        try container.encode(c.changes.map { ChangeJSON(path: Self.text($0.path), measure: $0.measure.rawValue, before: $0.before, after: $0.after) },
                             forKey: .changes)
        try container.encode(c.atEnd.map { EndJSON(path: Self.text($0.path), inTree: $0.inTree, presence: $0.presence.rawValue) },
                             forKey: .atEnd)
        try container.encode(c.isRegression, forKey: .regression)
        try container.encode(c.hasChanges, forKey: .changed)
        try container.encode(report.summary, forKey: .summary)
        try container.encode(report.exitStatus, forKey: .exitStatus)
    }
}
