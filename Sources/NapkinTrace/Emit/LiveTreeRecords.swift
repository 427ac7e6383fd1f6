/// The records that make up a session's live tree now: for every router,
/// interactor and bound task alive, the original records of its current
/// state, with their original `seq` and `t`.
///
/// A ``SocketTraceSink`` folds every event that leaves it (delivered or
/// lost) into one of these, on the tracer's writer thread, so that a new
/// connection can start with the whole tree (``replay()``). Memory follows
/// the live nodes and running tasks, never the length of the session. What
/// is kept, until when, and what a replay leaves out: docs/internals.md,
/// "What a resumed part replays".
struct LiveTreeRecords {
    /// The most `test started` marks kept open at once (the oldest go first).
    static let maxOpenTests = 64

    /// One router or interactor, alive, or gone but still named.
    private struct Node {
        /// Its creation record (`router` or `interactor`).
        var creation: TraceEvent
        /// A router (else an interactor).
        var isRouter: Bool
        /// For a router: the interactor its creation record names (0: none this tracker knows).
        var interactor: NodeID = 0
        /// Its latest `launch`, for a launched router.
        var launch: TraceEvent?
        /// The attach to the parent it is attached to now.
        var attach: TraceEvent?
        /// The parent it is attached to now (0: none).
        var parent: NodeID = 0
        /// Routers attached to it now.
        var children: [NodeID] = []
        /// Its `load`, once it loaded.
        var load: TraceEvent?
        /// Its latest `view`.
        var view: TraceEvent?
        /// Whether that `view` says the view is shown.
        var viewShown = false
        /// The latest activation (an interactor); the records after it say
        /// when its hook returned and whether a deactivation followed.
        var activate: TraceEvent?
        /// The `hook_end` of that activation's `didBecomeActive`.
        var activateEnd: TraceEvent?
        /// The `deactivate` after that activation.
        var deactivate: TraceEvent?
        /// The `hook_end` of that deactivation's `willResignActive`.
        var deactivateEnd: TraceEvent?
        /// Its latest `retained` (what a retainer search found holding it).
        var retained: TraceEvent?
        /// Its running tasks (an interactor).
        var tasks: [NodeID] = []
        /// Set when the node was deallocated and is kept only because something names it.
        var deallocation: TraceEvent?
        /// Kept things that name it: routers whose interactor it is, tasks it owns.
        var references = 0

        /// Not deallocated yet.
        var isAlive: Bool { deallocation == nil }
        /// Activated and not deactivated since.
        var isActive: Bool { activate != nil && deactivate == nil }
    }

    /// One running task.
    private struct RunningTask {
        /// Its `task_start`.
        var start: TraceEvent
        /// The interactor that started it.
        var owner: NodeID
        /// Its first `task_cancel`, if any.
        var cancel: TraceEvent?
        /// The owner's activation the task started under (nil: it started while the owner was inactive).
        var ownerActivate: TraceEvent?
        /// The owner's deactivation that ended that activation, once it came.
        var ownerDeactivate: TraceEvent?
        /// The end of the hook that activation started, once it returned.
        var ownerActivateEnd: TraceEvent?
        /// The end of the hook that deactivation started, once it returned.
        var ownerDeactivateEnd: TraceEvent?
    }

    /// Routers and interactors kept, by id.
    private var nodes: [NodeID: Node] = [:]
    /// Running tasks, by id.
    private var tasks: [NodeID: RunningTask] = [:]
    /// Open test marks, by test name.
    private var openTests: [String: TraceEvent] = [:]

    /// Routers and interactors kept (alive, or gone but still named).
    var nodeCount: Int { nodes.count }
    /// Running tasks kept.
    var taskCount: Int { tasks.count }

    // MARK: - Folding events

    /// Folds `event`, the next event of the session in sequence order, into the records.
    mutating func apply(_ event: TraceEvent) {
        switch event.kind {
        case .sessionStart, .dropped, .sessionEnd:
            return
        case .interactorCreated(let id, _):
            guard nodes[id] == nil, tasks[id] == nil else { return }
            nodes[id] = Node(creation: event, isRouter: false)
        case .routerCreated(let id, _, let interactor, _):
            createRouter(id, interactor: interactor, event)
        case .attach(let parent, let child):
            attach(child, to: parent, event)
        case .detach(let parent, let child):
            detach(child, from: parent)
        case .activate(let id):
            activate(id, event)
        case .deactivate(let id):
            deactivate(id, event)
        case .hookEnd(let id):
            endHook(of: id, event)
        case .load(let id):
            guard nodes[id]?.isAlive == true, nodes[id]!.load == nil else { return }
            nodes[id]!.load = event
        case .launch(let id):
            guard nodes[id]?.isAlive == true else { return }
            nodes[id]!.launch = event
        case .view(let id, let appearance):
            guard nodes[id]?.isRouter == true else { return }
            nodes[id]!.view = event
            nodes[id]!.viewShown = appearance == .shown
            dropIfUnneeded(id)
        case .taskStart(let task, let owner, _):
            startTask(task, owner: owner, event)
        case .taskCancel(let task):
            guard tasks[task] != nil, tasks[task]!.cancel == nil else { return }
            tasks[task]!.cancel = event
        case .taskEnd(let task, _):
            guard let ended = tasks.removeValue(forKey: task) else { return }
            nodes[ended.owner]?.tasks.removeAll { $0 == task }
            release(ended.owner)
        case .deallocated(let id):
            deallocate(id, event)
        case .retained(let id, _):
            guard nodes[id]?.isAlive == true else { return }
            nodes[id]!.retained = event
        case .mark(let text):
            noteTestMark(text, event)
        }
    }

    /// A router's creation record; the interactor it names (when this
    /// tracker knows it) is kept as long as the router is.
    private mutating func createRouter(_ id: NodeID, interactor: NodeID, _ event: TraceEvent) {
        guard nodes[id] == nil, tasks[id] == nil else { return }
        var node = Node(creation: event, isRouter: true)
        if interactor != 0, interactor != id, nodes[interactor] != nil {
            node.interactor = interactor
            nodes[interactor]!.references += 1
        }
        nodes[id] = node
    }

    // MARK: - Activations and tasks

    /// An `activate`: the interactor's latest activation, with nothing after it yet.
    private mutating func activate(_ id: NodeID, _ event: TraceEvent) {
        guard nodes[id]?.isAlive == true else { return }
        nodes[id]!.activate = event
        nodes[id]!.activateEnd = nil
        nodes[id]!.deactivate = nil
        nodes[id]!.deactivateEnd = nil
    }

    /// A `deactivate` after an activation: it ends that activation for the
    /// interactor and for the tasks started under it.
    private mutating func deactivate(_ id: NodeID, _ event: TraceEvent) {
        guard let node = nodes[id], node.isAlive, node.activate != nil else { return }
        nodes[id]!.deactivate = event
        nodes[id]!.deactivateEnd = nil
        for task in node.tasks where tasks[task]?.ownerActivate != nil && tasks[task]?.ownerDeactivate == nil {
            tasks[task]!.ownerDeactivate = event
        }
    }

    /// A `hook_end`: the end of the hook the latest activate or deactivate
    /// started (a resumed part must not read a hook that returned as still
    /// running), for the interactor and the tasks that keep that record.
    private mutating func endHook(of id: NodeID, _ event: TraceEvent) {
        guard let node = nodes[id], node.isAlive, let activate = node.activate else { return }
        if let deactivate = node.deactivate {
            guard node.deactivateEnd == nil else { return }
            nodes[id]!.deactivateEnd = event
            for task in node.tasks where tasks[task]?.ownerDeactivate?.seq == deactivate.seq {
                tasks[task]!.ownerDeactivateEnd = event
            }
        } else if node.activateEnd == nil {
            nodes[id]!.activateEnd = event
            for task in node.tasks where tasks[task]?.ownerActivate?.seq == activate.seq {
                tasks[task]!.ownerActivateEnd = event
            }
        }
    }

    /// A `task_start` under a live owner: the task keeps the owner's
    /// activation it started under (none if the owner was inactive).
    private mutating func startTask(_ task: NodeID, owner: NodeID, _ event: TraceEvent) {
        guard tasks[task] == nil, nodes[task] == nil, let node = nodes[owner], node.isAlive else { return }
        tasks[task] = RunningTask(start: event, owner: owner, ownerActivate: node.isActive ? node.activate : nil,
                                  ownerActivateEnd: node.isActive ? node.activateEnd : nil)
        nodes[owner]!.tasks.append(task)
        nodes[owner]!.references += 1
    }

    // MARK: - Replaying

    /// The records to send first on a new connection, in sequence order
    /// (each once), so that its reader has the tree as it is now.
    func replay() -> [TraceEvent] {
        var records: [TraceEvent] = []
        records.reserveCapacity(nodes.count * 4 + tasks.count * 2 + openTests.count)
        func add(_ event: TraceEvent?) {
            if let event { records.append(event) }
        }
        for node in nodes.values {
            add(node.creation)
            add(node.launch)
            add(node.attach)
            add(node.load)
            add(node.view)
            add(node.activate)
            add(node.activateEnd)
            add(node.deactivate)
            add(node.deactivateEnd)
            add(node.retained)
            add(node.deallocation)
        }
        for task in tasks.values {
            add(task.start)
            add(task.cancel)
            add(task.ownerActivate)
            add(task.ownerActivateEnd)
            add(task.ownerDeactivate)
            add(task.ownerDeactivateEnd)
        }
        for mark in openTests.values { add(mark) }
        records.sort { $0.seq < $1.seq }
        // An activation is kept by its interactor and by the tasks started under it: once.
        var unique: [TraceEvent] = []
        unique.reserveCapacity(records.count)
        for record in records where record.seq != unique.last?.seq { unique.append(record) }
        return unique
    }

    // MARK: - Links

    /// Mirrors the model (``TraceState``): an attach to the parent a router
    /// already has changes nothing, one that would make a cycle is ignored,
    /// one to another parent moves the router there.
    private mutating func attach(_ child: NodeID, to parent: NodeID, _ event: TraceEvent) {
        guard parent != child, nodes[parent]?.isAlive == true, let node = nodes[child], node.isAlive else { return }
        if node.parent == parent || isAncestor(child, of: parent) { return }
        if node.parent != 0 { nodes[node.parent]?.children.removeAll { $0 == child } }
        nodes[child]!.attach = event
        nodes[child]!.parent = parent
        nodes[parent]!.children.append(child)
    }

    /// A `detach` from the parent the router is attached to now.
    private mutating func detach(_ child: NodeID, from parent: NodeID) {
        guard parent != 0, nodes[child]?.isAlive == true, nodes[child]!.parent == parent else { return }
        nodes[child]!.attach = nil
        nodes[child]!.parent = 0
        nodes[parent]?.children.removeAll { $0 == child }
    }

    /// Whether `ancestor` is `id`, or above it in the tree (a walk up, at most as long as the tree is big).
    private func isAncestor(_ ancestor: NodeID, of id: NodeID) -> Bool {
        var cursor = id
        var steps = 0
        while cursor != 0 && steps <= nodes.count {
            if cursor == ancestor { return true }
            cursor = nodes[cursor]?.parent ?? 0
            steps += 1
        }
        return false
    }

    // MARK: - Going away

    /// A router or interactor was deallocated: its children are no longer
    /// attached to it, it is no longer attached, and unless something kept
    /// still names it, it is forgotten.
    private mutating func deallocate(_ id: NodeID, _ event: TraceEvent) {
        guard var node = nodes[id], node.isAlive else { return }
        if node.parent != 0 { nodes[node.parent]?.children.removeAll { $0 == id } }
        for child in node.children {
            nodes[child]?.attach = nil
            nodes[child]?.parent = 0
        }
        node.children = []
        node.attach = nil
        node.parent = 0
        node.launch = nil
        node.load = nil
        // Its running tasks keep the activations they need themselves.
        node.activate = nil
        node.activateEnd = nil
        node.deactivate = nil
        node.deactivateEnd = nil
        node.retained = nil
        node.deallocation = event
        nodes[id] = node
        dropIfUnneeded(id)
    }

    /// Forgets gone node `id` if nothing kept names it (and, for a router,
    /// its view is not shown), and then what only it named.
    private mutating func dropIfUnneeded(_ id: NodeID) {
        guard let node = nodes[id], !node.isAlive, node.references <= 0, !(node.isRouter && node.viewShown) else { return }
        nodes[id] = nil
        if node.isRouter && node.interactor != 0 { release(node.interactor) }
    }

    /// One thing kept that named `id` is gone.
    private mutating func release(_ id: NodeID) {
        guard nodes[id] != nil else { return }
        nodes[id]!.references -= 1
        dropIfUnneeded(id)
    }

    // MARK: - Test marks

    /// Keeps `test started: NAME` until `test ended: NAME`, so that findings
    /// after the gap still name the test that runs.
    private mutating func noteTestMark(_ text: String, _ event: TraceEvent) {
        if text.hasPrefix(NapkinTrace.testStartedPrefix) {
            let name = String(text.dropFirst(NapkinTrace.testStartedPrefix.count))
            if openTests[name] == nil && openTests.count >= Self.maxOpenTests,
               let oldest = openTests.min(by: { $0.value.seq < $1.value.seq })?.key {
                openTests[oldest] = nil
            }
            openTests[name] = event
        } else if text.hasPrefix(NapkinTrace.testEndedPrefix), !openTests.isEmpty {
            openTests[String(text.dropFirst(NapkinTrace.testEndedPrefix.count))] = nil
        }
    }
}
