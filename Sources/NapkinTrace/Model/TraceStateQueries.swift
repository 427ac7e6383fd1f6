/// What the state holds now, asked without changing it: the live tree, the
/// routers and interactors outside it, the running tasks. Each query's cost
/// is stated where it grows with the number of live nodes.
extension TraceState {
    /// The node with `id`, if it is alive.
    public subscript(id: NodeID) -> TraceNode? { table[id] }

    /// The running task with `id`, if any.
    public func task(_ id: NodeID) -> TraceTask? { taskTable[id] }

    /// Whether the router or interactor `id` is alive.
    public func contains(_ id: NodeID) -> Bool { table.contains(id) }

    /// Whether the task `id` is running.
    public func isRunning(task id: NodeID) -> Bool { taskTable.contains(id) }

    /// What the latest retainer search found holding live router or
    /// interactor `id` (its latest `retained` record), if one ran.
    public func retainers(of id: NodeID) -> Retainers? { retainerSearches[id] }

    /// A node and its depth below the root of the walk.
    public struct PlacedNode: Sendable {
        /// The node.
        public var node: TraceNode
        /// Its depth (0 for the root of the walk).
        public var depth: Int
    }

    /// Routers in the live tree, depth first from each root, with their depth.
    public func liveTree() -> [PlacedNode] {
        var result: [PlacedNode] = []
        for root in roots { walk(root, depth: 0, into: &result) }
        return result
    }

    /// Alive routers outside the live tree that head a subtree: detached,
    /// orphaned by a deallocated parent, or never attached; the `limit` with
    /// the smallest ids, by id.
    public func detachedRouters(limit: Int = .max) -> [TraceNode] {
        aliveNodes(limit: limit) { $0.kind == .router && !$0.isInLiveTree && $0.parent == nil && !$0.isLaunched }
    }

    /// Interactors alive whose router is gone (or was never created); the
    /// `limit` with the smallest ids, by id.
    public func loneInteractors(limit: Int = .max) -> [TraceNode] {
        aliveNodes(limit: limit) { $0.kind == .interactor && $0.router == nil }
    }

    /// Every router and interactor alive now, by id (a snapshot: its cost
    /// grows with the number of live nodes).
    public func aliveNodes() -> [TraceNode] {
        aliveNodes(limit: .max) { _ in true }
    }

    /// The alive nodes `include` accepts with the `limit` smallest ids, by id:
    /// one pass over the nodes, sorting only what is kept (a live view asks
    /// for a screenful among a hundred thousand).
    private func aliveNodes(limit: Int, where include: (borrowing TraceNode) -> Bool) -> [TraceNode] {
        guard limit > 0 else { return [] }
        var ids: [NodeID] = []
        // Keep the list short: beyond twice the limit, drop the largest ids.
        let trimAt = max(64, limit > Int.max / 2 ? Int.max : 2 * limit)
        table.forEach { id, node in
            guard include(node) else { return }
            ids.append(id)
            if ids.count >= trimAt {
                ids.sort()
                ids.removeLast(ids.count - limit)
            }
        }
        ids.sort()
        return ids.prefix(limit).compactMap { table[$0] }
    }

    /// Every bound task running now, by id (a snapshot).
    public func runningTasks() -> [TraceTask] {
        taskTable.entries.map(\.value).sorted { $0.id < $1.id }
    }

    /// `root` and its attached descendants, depth first, with their depth.
    public func subtree(_ root: NodeID) -> [PlacedNode] {
        var result: [PlacedNode] = []
        walk(root, depth: 0, into: &result)
        return result
    }

    /// Pre-order, without recursion (a trace may describe a very deep tree).
    private func walk(_ root: NodeID, depth: Int, into result: inout [PlacedNode]) {
        var stack: [(NodeID, Int)] = [(root, depth)]
        while let (id, level) = stack.popLast() {
            guard let node = table[id] else { continue }
            result.append(PlacedNode(node: node, depth: level))
            for child in node.childList.reversed() { stack.append((child, level + 1)) }
        }
    }

    /// Where a router was created, last attached and last detached, as far as
    /// the trace says (`src` fields; each nil when not known).
    public struct CodeLocations: Sendable, Hashable {
        /// Where it was created (its router record).
        public var created: CodeLocation?
        /// Where it was last attached.
        public var attached: CodeLocation?
        /// Where it was last detached.
        public var detached: CodeLocation?
    }

    /// The code locations of router `id`, if it is alive.
    public func codeLocations(of id: NodeID) -> CodeLocations? {
        table[id].map(codeLocations(of:))
    }

    /// The code locations of `node` (alive, or just removed).
    public func codeLocations(of node: TraceNode) -> CodeLocations {
        CodeLocations(created: codeLocationTable[node.createdFrom], attached: codeLocationTable[node.attachedFrom],
                      detached: codeLocationTable[node.detachedFrom])
    }

    /// Where the running task `id` was started, if the trace says.
    public func codeLocation(ofTask id: NodeID) -> CodeLocation? {
        taskTable.with(id) { codeLocationTable[$0.pointee.startedFrom] } ?? nil
    }

    /// Where `task` (running, or just ended) was started, if the trace says.
    public func codeLocation(of task: TraceTask) -> CodeLocation? {
        codeLocationTable[task.startedFrom]
    }

    /// Whether the router `id`'s interactor is active.
    public func isActive(router id: NodeID) -> Bool {
        guard let interactor = table[id]?.interactor else { return false }
        return table[interactor]?.isActive ?? false
    }

    /// The running tasks of router `id`'s interactor.
    public func runningTaskCount(router id: NodeID) -> Int {
        guard let interactor = table[id]?.interactor else { return 0 }
        return table.with(interactor, { $0.pointee.taskList.count }) ?? 0
    }
}
