import NapkinTrace

/// The ``TracePath`` of every router of one or more traces, in one table, so
/// that the same path in two recordings is the same value.
///
/// Each run's routers (and lone interactors, which start a path outside the
/// tree) are given paths as ``TracePath`` describes: by the path of the
/// parent at the router's first attach, its type and its occurrence, never by
/// id, so ids that differ between runs (or are shuffled) change nothing. An
/// interactor's path is its router's.
///
/// The cost is about linear in the number of nodes (a sort per depth), and
/// memory follows the number of distinct paths, however deep the tree.
public struct TracePaths: Sendable {
    // MARK: - State

    /// What one run's nodes were given.
    struct Run: Sendable {
        /// Router, lone interactor and router's interactor ids → their entry.
        var entryOfNode: [NodeID: Int] = [:]
        /// Each router's entry → the router's id.
        var routerOfEntry: [Int: NodeID] = [:]
        /// Each entry of this run → the sequence number that placed it
        /// (first attach or launch; creation outside the tree), for ordering.
        var placedAt: [Int: UInt64] = [:]
    }

    /// The entries every path points into.
    let table: TracePathTable
    /// The runs, in the order given.
    let runs: [Run]

    /// The paths of every node of `histories`, in one table.
    public init(_ histories: [TraceHistory]) {
        var builder = Builder()
        runs = histories.map { builder.place($0) }
        table = TracePathTable(builder.entries)
    }

    /// The paths of one trace's nodes.
    public init(_ history: TraceHistory) { self.init([history]) }

    // MARK: - Questions

    /// How many runs were given.
    public var runCount: Int { runs.count }

    /// The path of router `id` in run `run` (for an interactor id: its
    /// router's path; a lone interactor's own path outside the tree), or nil
    /// when that run has no such node.
    public func path(of id: NodeID, inRun run: Int = 0) -> TracePath? {
        guard runs.indices.contains(run), let entry = runs[run].entryOfNode[id] else { return nil }
        return TracePath(table: table, index: entry)
    }

    /// Every router of run `run`, by path (each path names one router of a run).
    public func routers(inRun run: Int) -> [TracePath: NodeID] {
        guard runs.indices.contains(run) else { return [:] }
        var routers: [TracePath: NodeID] = [:]
        routers.reserveCapacity(runs[run].routerOfEntry.count)
        for (entry, id) in runs[run].routerOfEntry { routers[TracePath(table: table, index: entry)] = id }
        return routers
    }

    /// The sequence number in run `run` that gave `path` its place (the
    /// router's first attach or launch; its creation outside the tree), or
    /// nil when the run has no router at that path: orders the routers of one
    /// run as they appeared.
    public func placedAt(_ path: TracePath, inRun run: Int) -> UInt64? {
        guard runs.indices.contains(run), path.table === table else { return nil }
        return runs[run].placedAt[path.index]
    }

    // MARK: - Building

    /// Builds the shared table, one run after the other.
    private struct Builder {
        /// Where a path starts: at a launched router, outside the tree, or under a parent entry.
        enum Start: Hashable {
            /// A launched router: the start of a path in the tree.
            case launched
            /// A router never attached (or under an unknown parent): the start of a path outside the tree.
            case outside
            /// Under the router of this entry.
            case under(Int)
        }
        /// A type under a start: the routers numbered together.
        struct Group: Hashable {
            /// Where the routers' paths start.
            var start: Start
            /// Their type.
            var type: String
        }
        /// A type path (occurrences aside) under a start's type path.
        struct TypeKey: Hashable {
            /// The parent's type path key, nil for a first segment.
            var parent: Int?
            /// Whether the path starts in the tree.
            var inTree: Bool
            /// The last type.
            var type: String
        }

        /// The table's entries so far.
        var entries: [TracePathTable.Entry] = []
        /// Each group's entries, by occurrence (the first at index 0).
        var entryOf: [Group: [Int]] = [:]
        /// Each type path's key.
        var typePaths: [TypeKey: Int] = [:]

        /// The entry of occurrence `occurrence` of `group`, created if new.
        mutating func entry(_ group: Group, occurrence: Int) -> Int {
            if let existing = entryOf[group], occurrence <= existing.count { return existing[occurrence - 1] }
            // Occurrences are asked for in order (1, 2, ...) within a run, so
            // the missing ones are exactly the next.
            var list = entryOf[group] ?? []
            while list.count < occurrence {
                let parent: Int?, inTree: Bool, depth: Int
                switch group.start {
                case .launched: (parent, inTree, depth) = (nil, true, 1)
                case .outside: (parent, inTree, depth) = (nil, false, 1)
                case .under(let p): (parent, inTree, depth) = (p, entries[p].isInTree, entries[p].depth + 1)
                }
                let typeKey = TypeKey(parent: parent.map { entries[$0].typePath }, inTree: inTree, type: group.type)
                let typePath = typePaths[typeKey] ?? typePaths.count
                typePaths[typeKey] = typePath
                list.append(entries.count)
                entries.append(.init(segment: .init(type: group.type, occurrence: list.count), parent: parent,
                                     isInTree: inTree, depth: depth, typePath: typePath))
            }
            entryOf[group] = list
            return list[occurrence - 1]
        }

        /// Gives every node of `history` its path.
        mutating func place(_ history: TraceHistory) -> Run {
            let nodes = history.nodes
            var position: [NodeID: Int] = [:]
            position.reserveCapacity(nodes.count)
            for (i, node) in nodes.enumerated() where position[node.id] == nil { position[node.id] = i }

            // Each node's first parent (as an index), or where its path starts.
            var parent = [Int?](repeating: nil, count: nodes.count)
            var start = [Start](repeating: .outside, count: nodes.count)
            var placedAt = nodes.map(\.createdSeq)
            for (i, node) in nodes.enumerated() where node.kind == .router {
                guard let first = node.attached.first else { continue }
                guard let parentID = first.parent else {
                    start[i] = .launched
                    placedAt[i] = first.span.startSeq
                    continue
                }
                // A parent the trace never created (or that is not a router): outside the tree.
                guard let j = position[parentID], j != i, nodes[j].kind == .router else { continue }
                parent[i] = j
                placedAt[i] = first.span.startSeq
            }

            let depth = Self.depths(&parent)
            var levels: [[Int]] = []
            for (i, d) in depth.enumerated() {
                while levels.count <= d { levels.append([]) }
                levels[d].append(i)
            }

            var run = Run()
            var entryOfNode = [Int](repeating: 0, count: nodes.count)
            for level in levels {
                var counts: [Group: Int] = [:]
                for i in level.sorted(by: { (placedAt[$0], $0) < (placedAt[$1], $1) }) {
                    let group = Group(start: parent[i].map { .under(entryOfNode[$0]) } ?? start[i], type: nodes[i].type)
                    let occurrence = counts[group, default: 0] + 1
                    counts[group] = occurrence
                    let entry = entry(group, occurrence: occurrence)
                    entryOfNode[i] = entry
                    run.placedAt[entry] = placedAt[i]
                    let node = nodes[i]
                    if run.entryOfNode[node.id] == nil { run.entryOfNode[node.id] = entry }
                    if node.kind == .router {
                        run.routerOfEntry[entry] = node.id
                        if let interactor = node.interactor, run.entryOfNode[interactor] == nil { run.entryOfNode[interactor] = entry }
                    }
                }
            }
            return run
        }

        /// The depth of each node along its first parents (0: it starts a
        /// path); a node whose first parents loop back to it (a corrupt
        /// trace) loses its parent and starts a path outside the tree.
        static func depths(_ parent: inout [Int?]) -> [Int] {
            var depth = [Int](repeating: 0, count: parent.count)
            // 0: not seen, 1: on the chain being walked, 2: done.
            var state = [UInt8](repeating: 0, count: parent.count)
            var chain: [Int] = []
            for first in parent.indices where state[first] != 2 {
                var brokeCycle = true
                while brokeCycle {
                    brokeCycle = false
                    chain.removeAll(keepingCapacity: true)
                    var cursor = first
                    while state[cursor] != 2 {
                        if state[cursor] == 1 {
                            parent[cursor] = nil
                            brokeCycle = true
                            break
                        }
                        state[cursor] = 1
                        chain.append(cursor)
                        guard let next = parent[cursor] else { break }
                        cursor = next
                    }
                    if brokeCycle {
                        for i in chain { state[i] = 0 }
                        continue
                    }
                    for i in chain.reversed() {
                        depth[i] = parent[i].map { depth[$0] + 1 } ?? 0
                        state[i] = 2
                    }
                }
            }
            return depth
        }
    }
}
