/// The records that make up a session's live tree now: for every router,
/// interactor and bound task alive, the original records of its current
/// state, with their original `seq` and `t`.
///
/// A ``SocketTraceSink`` folds every event that leaves it (delivered or
/// lost) into one of these, on the tracer's writer thread, so that a new
/// connection can start with the whole tree (``replay()``): an inspector
/// started after the app, or restarted mid-run, sees every node and task
/// that is alive, and nothing it names is unknown to it.
///
/// What is kept, and until when:
///
/// | kept | until |
/// | --- | --- |
/// | a router's or interactor's creation record (`router`, `interactor`) | its `deinit` |
/// | a router's `launch` (the latest) and its `load` | its `deinit` |
/// | a router's current `attach` (to the parent it is attached to now) | its `detach` from that parent, or the parent's or its own `deinit` |
/// | a router's latest `view` | its `deinit` (unless the view is shown then, below) |
/// | an interactor's latest `activate`, and the `deactivate` after it, each with the `hook_end` after it | its `deinit` |
/// | a running task's `task_start`, its first `task_cancel`, and its owner's `activate` it started under with the `deactivate` that ended that activation (each with its `hook_end`) | its `task_end` |
/// | a `test started: NAME` mark (at most ``maxOpenTests``) | the matching `test ended: NAME` |
///
/// A node that is gone but still named by something kept (the owner of a
/// task still running, the interactor of a router kept) keeps its creation
/// record and its `deinit`, so that the replay never names an id it did not
/// create. So does a router deallocated while its view was shown (a view may
/// outlive its router), with that `view` record, until a later `view` record
/// says the view went.
///
/// Replayed in sequence order, these records give a reader the same tree as
/// the whole trace would, and activations and task starts in the same
/// order: each running task's owner is active (or not) at its `task_start`
/// as it was in the app. What is not replayed: past nodes and tasks, marks
/// (other than open test marks), `dropped` records, the links of routers to
/// a parent that was deallocated without detaching them (they read as
/// detached), when a router attached nowhere was last attached or left the
/// tree, and a launched root that was attached under another router and
/// detached again (a misuse: it replays as launched and in the tree). Where
/// the model notes *when* something changed, the replay gives the latest change. Events that name ids this tracker never saw created
/// (events the tracer dropped) are ignored, so the replay stays consistent.
///
/// Memory follows the live nodes and running tasks (and the few gone nodes
/// something kept still names), never the length of the session.
struct LiveTreeRecords {
    /// The most `test started` marks kept open at once (the oldest go first).
    static let maxOpenTests = 64

    /// One router or interactor, alive, or gone but still named.
    private struct Node {
        var creation: TraceEvent
        var isRouter: Bool
        /// For a router: the interactor its creation record names (0: none this tracker knows).
        var interactor: NodeID = 0
        var launch: TraceEvent?
        /// The attach to the parent it is attached to now.
        var attach: TraceEvent?
        var parent: NodeID = 0
        /// Routers attached to it now.
        var children: [NodeID] = []
        var load: TraceEvent?
        var view: TraceEvent?
        var viewShown = false
        /// The latest activation, and the deactivation after it (an interactor),
        /// each with the end of the hook it started, once that returned.
        var activate: TraceEvent?
        var activateEnd: TraceEvent?
        var deactivate: TraceEvent?
        var deactivateEnd: TraceEvent?
        /// Its running tasks (an interactor).
        var tasks: [NodeID] = []
        /// Set when the node was deallocated and is kept only because something names it.
        var deallocation: TraceEvent?
        /// Kept things that name it: routers whose interactor it is, tasks it owns.
        var references = 0

        var isAlive: Bool { deallocation == nil }
        var isActive: Bool { activate != nil && deactivate == nil }
    }

    /// One running task.
    private struct RunningTask {
        var start: TraceEvent
        var owner: NodeID
        var cancel: TraceEvent?
        /// The owner's activation the task started under (nil: it started while the owner was inactive).
        var ownerActivate: TraceEvent?
        /// The owner's deactivation that ended that activation, once it came.
        var ownerDeactivate: TraceEvent?
        /// The ends of the hooks those two started, once they returned.
        var ownerActivateEnd: TraceEvent?
        var ownerDeactivateEnd: TraceEvent?
    }

    private var nodes: [NodeID: Node] = [:]
    private var tasks: [NodeID: RunningTask] = [:]
    /// Open test marks, by test name.
    private var openTests: [String: TraceEvent] = [:]

    /// Routers and interactors kept (alive, or gone but still named).
    var nodeCount: Int { nodes.count }
    /// Running tasks kept.
    var taskCount: Int { tasks.count }

    /// Folds `event`, the next event of the session in sequence order, into the records.
    mutating func apply(_ event: TraceEvent) {
        switch event.kind {
        case .sessionStart, .dropped, .sessionEnd:
            return
        case .interactorCreated(let id, _):
            guard nodes[id] == nil, tasks[id] == nil else { return }
            nodes[id] = Node(creation: event, isRouter: false)
        case .routerCreated(let id, _, let interactor, _):
            guard nodes[id] == nil, tasks[id] == nil else { return }
            var node = Node(creation: event, isRouter: true)
            if interactor != 0, interactor != id, nodes[interactor] != nil {
                node.interactor = interactor
                nodes[interactor]!.references += 1
            }
            nodes[id] = node
        case .attach(let parent, let child):
            attach(child, to: parent, event)
        case .detach(let parent, let child):
            guard parent != 0, nodes[child]?.isAlive == true, nodes[child]!.parent == parent else { return }
            nodes[child]!.attach = nil
            nodes[child]!.parent = 0
            nodes[parent]?.children.removeAll { $0 == child }
        case .activate(let id):
            guard nodes[id]?.isAlive == true else { return }
            nodes[id]!.activate = event
            nodes[id]!.activateEnd = nil
            nodes[id]!.deactivate = nil
            nodes[id]!.deactivateEnd = nil
        case .deactivate(let id):
            guard let node = nodes[id], node.isAlive, node.activate != nil else { return }
            nodes[id]!.deactivate = event
            nodes[id]!.deactivateEnd = nil
            for task in node.tasks where tasks[task]?.ownerActivate != nil && tasks[task]?.ownerDeactivate == nil {
                tasks[task]!.ownerDeactivate = event
            }
        case .hookEnd(let id):
            // The end of the hook the latest activate or deactivate started: a
            // resumed part must not read a hook that returned as still running.
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
            guard tasks[task] == nil, nodes[task] == nil, let node = nodes[owner], node.isAlive else { return }
            tasks[task] = RunningTask(start: event, owner: owner, ownerActivate: node.isActive ? node.activate : nil,
                                      ownerActivateEnd: node.isActive ? node.activateEnd : nil)
            nodes[owner]!.tasks.append(task)
            nodes[owner]!.references += 1
        case .taskCancel(let task):
            guard tasks[task] != nil, tasks[task]!.cancel == nil else { return }
            tasks[task]!.cancel = event
        case .taskEnd(let task, _):
            guard let ended = tasks.removeValue(forKey: task) else { return }
            nodes[ended.owner]?.tasks.removeAll { $0 == task }
            release(ended.owner)
        case .deallocated(let id):
            deallocate(id, event)
        case .mark(let text):
            noteTestMark(text, event)
        }
    }

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
