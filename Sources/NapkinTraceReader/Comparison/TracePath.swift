import NapkinTrace

/// Where a router sits in the tree, named by types rather than ids, so that
/// two recordings of the same flow name the same screen the same way:
/// `LaunchRouter/LoggedInRouter/OrderRouter[2]`.
///
/// A path is the path of the router's parent at its **first** attach, then
/// its own type, then (from the second on) its occurrence: the routers of one
/// type attached under one parent path are numbered in the order they were
/// first attached, whether they were siblings at the same time or the same
/// screen opened again later. A launched router starts a path (numbered among
/// the launched routers of its type). A router that was never attached, or
/// whose first parent the trace never created, starts a path **outside the
/// tree** (numbered among those of its type, in creation order), written
/// `outside:Type`; so do the routers of a cycle of first parents, which only
/// a corrupt trace has. ``TracePaths`` assigns the paths.
///
/// A path is a handle into the table of its ``TracePaths``: walking it costs
/// its depth, and nothing is copied, so a deep tree does not cost the square
/// of its depth. Paths are equal when they are the same entry of the same table.
public struct TracePath: Sendable, Hashable, CustomStringConvertible {
    /// One step of a path: a type and its occurrence under the parent path.
    public struct Segment: Sendable, Hashable, CustomStringConvertible {
        /// The router's type name.
        public var type: String
        /// 1 for the first router of this type under this parent path, 2 for
        /// the second, and so on.
        public var occurrence: Int

        /// Creates a segment.
        public init(type: String, occurrence: Int) {
            self.type = type
            self.occurrence = occurrence
        }

        /// `OrderRouter`, or `OrderRouter[2]` from the second occurrence on.
        public var description: String { occurrence == 1 ? type : "\(type)[\(occurrence)]" }
    }

    /// The table the path is an entry of.
    let table: TracePathTable
    /// The entry's index in the table.
    let index: Int

    /// The last segment: the router's own type and occurrence.
    public var segment: Segment { table.entries[index].segment }
    /// The router's own type name.
    public var type: String { segment.type }
    /// The path of the parent, or nil for a path's first segment.
    public var parent: TracePath? { table.entries[index].parent.map { TracePath(table: table, index: $0) } }
    /// Whether the path starts at a launched router (false: it starts outside the tree).
    public var isInTree: Bool { table.entries[index].isInTree }
    /// How many segments the path has (1 for a launched router).
    public var depth: Int { table.entries[index].depth }
    /// The same number for every path of the table with the same types
    /// (occurrences aside) and the same start (in the tree or outside):
    /// ``typePath`` as a number, compared without walking the path.
    public var typePathKey: Int { table.entries[index].typePath }

    /// The last `count` segments (all of them when the path is shorter), root first.
    public func lastSegments(_ count: Int) -> [Segment] {
        var segments: [Segment] = []
        var cursor: Int? = index
        while let current = cursor, segments.count < count {
            segments.append(table.entries[current].segment)
            cursor = table.entries[current].parent
        }
        return segments.reversed()
    }

    /// Every segment, root first.
    public var segments: [Segment] { lastSegments(depth) }

    /// The path with every occurrence number dropped: the types only, e.g.
    /// `LaunchRouter/LoggedInRouter/OrderRouter` for every order screen
    /// opened from any login. Findings are matched across runs by it (as
    /// ``typePathKey``, which costs nothing; this text costs the path's depth).
    public var typePath: String {
        (isInTree ? "" : Self.outsidePrefix) + segments.map(\.type).joined(separator: "/")
    }

    /// `outside:`: how a path that starts outside the tree is written.
    public static let outsidePrefix = "outside:"

    /// `LaunchRouter/LoggedInRouter[2]/OrderRouter`, or `outside:OrderRouter`.
    public var description: String {
        (isInTree ? "" : Self.outsidePrefix) + segments.map(\.description).joined(separator: "/")
    }

    /// Whether `a` and `b` are the same entry of the same table.
    public static func == (a: TracePath, b: TracePath) -> Bool { a.index == b.index && a.table === b.table }
    /// Hashes the entry's index.
    public func hash(into hasher: inout Hasher) { hasher.combine(index) }
}

/// The entries every ``TracePath`` of one ``TracePaths`` points into; each
/// entry is a segment and the index of its parent's entry, parents first.
/// Built once, then never changed.
final class TracePathTable: Sendable {
    /// One path: its last segment, its parent's entry, and facts kept to avoid walks.
    struct Entry: Sendable {
        /// The last segment.
        var segment: TracePath.Segment
        /// The parent's entry, or nil for a first segment.
        var parent: Int?
        /// Whether the path starts at a launched router.
        var isInTree: Bool
        /// The number of segments.
        var depth: Int
        /// The ``TracePath/typePathKey``.
        var typePath: Int
    }

    /// The entries, each after its parent.
    let entries: [Entry]

    /// A table of `entries`.
    init(_ entries: [Entry]) { self.entries = entries }
}
