/// The state of a traced app at one point of its trace: the live routers and
/// interactors, the tree they form and the running tasks.
///
/// Fold events into it in order with ``apply(_:)``. Nodes are forgotten when
/// they are deallocated, so memory follows the number of live nodes, not the
/// length of the trace: stop folding at any sequence number or time to see
/// the tree at that moment (time travel).
public struct TraceState: Sendable {
    /// The session record, once seen.
    public private(set) var session: SessionInfo?
    /// Routers and interactors alive now, by id.
    public private(set) var nodes: [NodeID: TraceNode] = [:]
    /// Bound tasks running now, by id.
    public private(set) var tasks: [NodeID: TraceTask] = [:]
    /// Launched routers still alive, in launch order.
    public private(set) var roots: [NodeID] = []
    /// The last sequence number applied.
    public private(set) var lastSeq: UInt64 = 0
    /// The time of the last event applied (ns since the session origin).
    public private(set) var time: UInt64 = 0
    /// Whether the session-end record was seen.
    public private(set) var ended = false
    /// The highest router or interactor id created so far.
    public private(set) var maxNodeID: NodeID = 0
    /// Events applied, by kind (`ev` value).
    public private(set) var eventCounts: [String: Int] = [:]
    /// Events the app dropped (from `dropped` records).
    public private(set) var droppedEvents: UInt64 = 0
    /// Marks written by the app, most recent last (the last 100).
    public private(set) var recentMarks: [(seq: UInt64, time: UInt64, text: String)] = []
    /// Routers and interactors created, and deallocated, so far.
    public private(set) var createdCount = 0, deallocatedCount = 0
    /// Tasks started, and ended, so far.
    public private(set) var tasksStarted = 0, tasksEnded = 0

    /// Creates an empty state.
    public init() {}

    /// A problem with the app's use of the lifecycle, found while folding.
    public struct Misuse: Sendable, Hashable {
        /// Which kind of misuse.
        public enum Kind: String, Sendable, Hashable {
            /// A router attached while already attached.
            case doubleAttach = "double-attach"
            /// A detach of a router that is not a child of that parent.
            case detachNonChild = "detach-non-child"
            /// An event about a node after its deinit.
            case eventAfterDeinit = "event-after-deinit"
            /// An event about a node the trace never created (a corrupt or partial trace).
            case unknownNode = "unknown-node"
        }
        /// Which kind of misuse.
        public var kind: Kind
        /// The node concerned.
        public var node: NodeID
        /// The other node involved (the parent), if any.
        public var other: NodeID?
    }

    /// The node with `id`, if it is alive.
    public subscript(id: NodeID) -> TraceNode? { nodes[id] }

    /// Applies one event; returns the misuse it reveals, if any.
    @discardableResult
    public mutating func apply(_ event: TraceEvent) -> Misuse? {
        lastSeq = event.seq
        if event.time > time { time = event.time }
        eventCounts[event.kind.wireName, default: 0] += 1
        let seq = event.seq
        let t = event.time
        switch event.kind {
        case .sessionStart(let info):
            if session != nil { self = TraceState() ; eventCounts["session"] = 1 }
            session = info
            lastSeq = seq
            return nil
        case .interactorCreated(let id, let type):
            createNode(TraceNode(id: id, kind: .interactor, type: type, seq: seq, time: t))
            return nil
        case .routerCreated(let id, let type, let interactor, let interactorType):
            if interactor != 0 && nodes[interactor] == nil && interactor > maxNodeID {
                createNode(TraceNode(id: interactor, kind: .interactor, type: interactorType, seq: seq, time: t))
            }
            var node = TraceNode(id: id, kind: .router, type: type, seq: seq, time: t)
            node.interactor = interactor == 0 ? nil : interactor
            createNode(node)
            if interactor != 0 { nodes[interactor]?.router = id }
            return nil
        case .attach(let parent, let child):
            return attach(parent: parent, child: child, seq: seq, time: t)
        case .detach(let parent, let child):
            return detach(parent: parent, child: child, seq: seq, time: t)
        case .activate(let id):
            guard nodes[id] != nil else { return missing(id) }
            nodes[id]!.isActive = true
            nodes[id]!.stateChangedAt = (seq, t)
            return nil
        case .deactivate(let id):
            guard nodes[id] != nil else { return missing(id) }
            nodes[id]!.isActive = false
            nodes[id]!.stateChangedAt = (seq, t)
            return nil
        case .load(let id):
            guard nodes[id] != nil else { return missing(id) }
            nodes[id]!.isLoaded = true
            return nil
        case .launch(let id):
            guard nodes[id] != nil else { return missing(id) }
            if !nodes[id]!.isLaunched {
                nodes[id]!.isLaunched = true
                roots.append(id)
            }
            nodes[id]!.attachedAt = (seq, t)
            setLive(true, from: id)
            return nil
        case .taskStart(let task, let owner, let label):
            let ownerNode = nodes[owner]
            tasks[task] = TraceTask(id: task, owner: owner, label: label, startSeq: seq, startTime: t,
                                    startedWhileInactive: !(ownerNode?.isActive ?? false))
            tasksStarted += 1
            guard ownerNode != nil else {
                tasks[task]!.ownerGone = true
                return missing(owner)
            }
            nodes[owner]!.runningTasks.append(task)
            return nil
        case .taskCancel(let task):
            if tasks[task] != nil && tasks[task]!.cancelRequested == nil { tasks[task]!.cancelRequested = seq }
            return nil
        case .taskEnd(let task, _):
            guard let ended = tasks.removeValue(forKey: task) else { return nil }
            tasksEnded += 1
            if let index = nodes[ended.owner]?.runningTasks.firstIndex(of: task) {
                nodes[ended.owner]!.runningTasks.remove(at: index)
            }
            return nil
        case .deallocated(let id):
            guard let node = nodes[id] else { return missing(id) }
            deallocate(node, seq: seq, time: t)
            return nil
        case .mark(let text):
            recentMarks.append((seq, t, text))
            if recentMarks.count > 100 { recentMarks.removeFirst(recentMarks.count - 100) }
            return nil
        case .dropped(let count, _, _):
            droppedEvents += count
            return nil
        case .sessionEnd:
            ended = true
            return nil
        }
    }

    private mutating func createNode(_ node: TraceNode) {
        if nodes[node.id] == nil { createdCount += 1 }
        nodes[node.id] = node
        if node.id > maxNodeID { maxNodeID = node.id }
    }

    private func missing(_ id: NodeID) -> Misuse {
        Misuse(kind: id <= maxNodeID ? .eventAfterDeinit : .unknownNode, node: id, other: nil)
    }

    private mutating func attach(parent: NodeID, child: NodeID, seq: UInt64, time: UInt64) -> Misuse? {
        guard nodes[parent] != nil else { return missing(parent) }
        guard nodes[child] != nil else { return missing(child) }
        if let current = nodes[child]!.parent {
            if current == parent { return Misuse(kind: .doubleAttach, node: child, other: parent) }
            // Attached to a second parent: the tree keeps the newest link.
            nodes[current]?.children.removeAll { $0 == child }
            nodes[child]!.parent = parent
            nodes[parent]!.children.append(child)
            nodes[child]!.attachedAt = (seq, time)
            setLive(nodes[parent]!.isInLiveTree, from: child, seq: seq, time: time)
            return Misuse(kind: .doubleAttach, node: child, other: current)
        }
        nodes[child]!.parent = parent
        nodes[child]!.orphanedFrom = nil
        nodes[parent]!.children.append(child)
        nodes[child]!.attachedAt = (seq, time)
        if nodes[parent]!.isInLiveTree { setLive(true, from: child) }
        return nil
    }

    private mutating func detach(parent: NodeID, child: NodeID, seq: UInt64, time: UInt64) -> Misuse? {
        guard nodes[parent] != nil else { return missing(parent) }
        guard nodes[child] != nil else { return missing(child) }
        guard nodes[child]!.parent == parent else {
            return Misuse(kind: .detachNonChild, node: child, other: parent)
        }
        nodes[parent]!.children.removeAll { $0 == child }
        nodes[child]!.parent = nil
        if nodes[child]!.isInLiveTree { setLive(false, from: child, seq: seq, time: time) }
        return nil
    }

    private mutating func deallocate(_ node: TraceNode, seq: UInt64, time: UInt64) {
        deallocatedCount += 1
        if node.kind == .router {
            if let parent = node.parent { nodes[parent]?.children.removeAll { $0 == node.id } }
            for child in node.children where nodes[child] != nil {
                nodes[child]!.parent = nil
                nodes[child]!.orphanedFrom = (node.id, node.type, seq)
                if nodes[child]!.isInLiveTree { setLive(false, from: child, seq: seq, time: time) }
            }
            if node.isLaunched { roots.removeAll { $0 == node.id } }
            if let interactor = node.interactor, nodes[interactor]?.router == node.id {
                nodes[interactor]!.router = nil
            }
        } else {
            for task in node.runningTasks { tasks[task]?.ownerGone = true }
        }
        nodes.removeValue(forKey: node.id)
    }

    /// Marks `id` and its attached descendants as in (or out of) the live tree.
    private mutating func setLive(_ live: Bool, from id: NodeID, seq: UInt64 = 0, time: UInt64 = 0) {
        var stack = [id]
        while let next = stack.popLast() {
            guard nodes[next] != nil, nodes[next]!.isInLiveTree != live else { continue }
            nodes[next]!.isInLiveTree = live
            if !live { nodes[next]!.leftTreeAt = (seq, time) }
            stack.append(contentsOf: nodes[next]!.children)
        }
    }

    // MARK: - Queries

    /// Routers in the live tree, depth first from each root, with their depth.
    public func liveTree() -> [(node: TraceNode, depth: Int)] {
        var result: [(TraceNode, Int)] = []
        for root in roots { walk(root, depth: 0, into: &result) }
        return result
    }

    /// Alive routers outside the live tree that head a subtree: detached,
    /// orphaned by a deallocated parent, or never attached.
    public func detachedRouters() -> [TraceNode] {
        nodes.values.filter { $0.kind == .router && !$0.isInLiveTree && $0.parent == nil && !$0.isLaunched }
            .sorted { $0.id < $1.id }
    }

    /// `root` and its attached descendants, depth first, with their depth.
    public func subtree(_ root: NodeID) -> [(node: TraceNode, depth: Int)] {
        var result: [(TraceNode, Int)] = []
        walk(root, depth: 0, into: &result)
        return result
    }

    private func walk(_ id: NodeID, depth: Int, into result: inout [(TraceNode, Int)]) {
        guard let node = nodes[id], depth < 10_000 else { return }
        result.append((node, depth))
        for child in node.children { walk(child, depth: depth + 1, into: &result) }
    }

    /// Whether the router `id`'s interactor is active.
    public func isActive(router id: NodeID) -> Bool {
        guard let interactor = nodes[id]?.interactor else { return false }
        return nodes[interactor]?.isActive ?? false
    }

    /// The running tasks of router `id`'s interactor.
    public func runningTaskCount(router id: NodeID) -> Int {
        guard let interactor = nodes[id]?.interactor else { return 0 }
        return nodes[interactor]?.runningTasks.count ?? 0
    }
}
