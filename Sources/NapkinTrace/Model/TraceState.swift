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
    /// Whether the session writes a `hook_end` record whenever a lifecycle
    /// hook returns (``SessionInfo/recordsHookEnds``): only then does the
    /// model follow running hooks (``TraceNode/runningHook``).
    public private(set) var recordsHookEnds = false
    /// Routers and interactors alive now, by id.
    var table = NodeTable<TraceNode>()
    /// Bound tasks running now, by id.
    var taskTable = NodeTable<TraceTask>()
    /// How many routers and interactors are alive now.
    public var nodeCount: Int { table.count }
    /// How many routers are alive now.
    public private(set) var routerCount = 0
    /// How many interactors are alive now.
    public var interactorCount: Int { table.count - routerCount }
    /// How many bound tasks are running now.
    public var taskCount: Int { taskTable.count }
    /// Set when following the trace would take more than near-linear time:
    /// the first event not applied. Later events are ignored, and the
    /// trace's integrity reports it (see ``TraceIntegrity/including(_:)``).
    public private(set) var stoppedAt: TraceMoment?
    /// Nodes visited by walks of the tree (a moved subtree, a cycle check), and events applied.
    var workDone: UInt64 = 0
    private var eventsApplied: UInt64 = 0
    /// Walk steps allowed: a fixed allowance plus a few per event. An app's
    /// trace stays far below it (moving a subtree of n routers writes n
    /// (de)activations, so walks are paid for by events); a hostile trace
    /// that moves huge subtrees with single events does not.
    private var workBudget: UInt64 { 1_000_000 &+ 64 &* eventsApplied }
    /// Creation records (or task starts) that named an id already alive: a corrupt trace.
    public private(set) var idConflictCount = 0
    /// The first of them.
    public private(set) var firstIDConflict: IDConflict?
    /// Events that named an id the session never created: a corrupt or partial trace.
    public private(set) var unknownIDCount = 0
    /// The first of them.
    public private(set) var firstUnknownID: IDConflict?

    /// An id, and the event that named it wrongly (created again while
    /// alive, or named without ever being created).
    public struct IDConflict: Sendable, Hashable {
        /// The id.
        public var id: NodeID
        /// The sequence number of the second creation.
        public var seq: UInt64
    }
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
    /// How many events of kind `name` were applied.
    public func eventCount(_ name: TraceEvent.Name) -> Int { kindCounts[name] }
    private var kindCounts = KindCounts()
    /// Events the app dropped (from `dropped` records).
    public private(set) var droppedEvents: UInt64 = 0
    /// Marks written by the app, most recent last (the last 100).
    public var recentMarks: [TraceMark] { marks.marks }
    private var marks = RecentMarks()
    /// Routers and interactors created, and deallocated, so far.
    public private(set) var createdCount = 0, deallocatedCount = 0
    /// Tasks started, and ended, so far.
    public private(set) var tasksStarted = 0, tasksEnded = 0
    /// How many alive routers have their view shown now (see ``TraceNode/view``).
    public private(set) var shownViewCount = 0
    /// The code locations the trace named (`src`), each once.
    var codeLocationTable = CodeLocationTable()

    /// Creates an empty state.
    public init() {}

    /// What applying one event changed, as the analysis needs to know it
    /// (small, so that returning it for every event costs nothing; the node a
    /// `deinit` removed is ``removedNode``).
    struct Effect {
        /// The misuse of the lifecycle the event reveals, if any.
        var misuse: Misuse?
        /// For a `detach`: the child was in the live tree just before.
        var childWasInLiveTree = false
        /// For a `detach`: the child really was attached to that parent.
        var childWasAttached = false
        /// For a `task_end` of a running task: its owner (0 otherwise).
        var endedTaskOwner: NodeID = 0
        /// For a `hook_end` that ended a running `willResignActive`: the
        /// sequence number of the `deactivate` that started it (0 otherwise).
        var endedResignation: UInt64 = 0
    }

    /// If the last event applied was the `deinit` of a live node: that node
    /// as it was just before (it is gone from the state). A copy: rules read
    /// the fields they need from ``lastRemoved`` instead, in place.
    var removedNode: TraceNode? { hasRemovedNode ? lastRemoved : nil }
    /// Whether the last event applied removed a node (``lastRemoved`` is it).
    private(set) var hasRemovedNode = false
    /// The node the last `deinit` of a live node removed; meaningful only
    /// while ``hasRemovedNode`` (kept, not cleared, after: clearing an
    /// optional node for every event costs more than the node's memory).
    private(set) var lastRemoved = TraceNode(id: 0, kind: .router, type: "", seq: 0, time: 0)
    /// Set by the `task_end` of a running task to its owner, for ``Effect``.
    private var endedTaskOwner: NodeID = 0
    /// Set by the `hook_end` of a running `willResignActive`, for ``Effect``.
    private var endedResignation: UInt64 = 0

    /// Applies one event; returns the misuse it reveals, if any.
    @discardableResult
    public mutating func apply(_ event: TraceEvent) -> Misuse? {
        fold(event).misuse
    }


    /// Applies one event; returns what it changed.
    mutating func fold(_ event: TraceEvent) -> Effect {
        fold(event, name: event.kind.name)
    }

    /// ``fold(_:)`` for an event whose kind's name the caller already has.
    mutating func fold(_ event: TraceEvent, name: TraceEvent.Name) -> Effect {
        var effect = Effect()
        if case .detach(let parent, let child) = event.kind {
            table.with(child) {
                effect.childWasInLiveTree = $0.pointee.isInLiveTree
                effect.childWasAttached = $0.pointee.parent == parent
            }
        }
        hasRemovedNode = false
        endedTaskOwner = 0
        endedResignation = 0
        effect.misuse = applyEvent(event, name: name)
        effect.endedTaskOwner = endedTaskOwner
        effect.endedResignation = endedResignation
        if effect.misuse?.kind == .unknownNode {
            unknownIDCount += 1
            if firstUnknownID == nil { firstUnknownID = IDConflict(id: effect.misuse!.node, seq: event.seq) }
        }
        return effect
    }

    private mutating func applyEvent(_ event: TraceEvent, name: TraceEvent.Name) -> Misuse? {
        if stoppedAt != nil {
            if case .sessionStart = event.kind {} else { return nil }
        }
        eventsApplied &+= 1
        if workDone > workBudget {
            stoppedAt = TraceMoment(seq: event.seq, time: event.time)
            return nil
        }
        lastSeq = event.seq
        if event.time > time { time = event.time }
        kindCounts.count(name)
        let seq = event.seq
        let t = event.time
        switch event.kind {
        case .sessionStart(let info):
            if session != nil { self = TraceState(); kindCounts[.session] = 1 }
            session = info
            recordsHookEnds = info.recordsHookEnds
            lastSeq = seq
            return nil
        case .interactorCreated(let id, let type):
            createNode(TraceNode(id: id, kind: .interactor, type: type, seq: seq, time: t))
            return nil
        case .routerCreated(let id, let type, let interactor, let interactorType):
            if interactor != 0 && !table.contains(interactor) && interactor > maxNodeID {
                createNode(TraceNode(id: interactor, kind: .interactor, type: interactorType, seq: seq, time: t))
            }
            var node = TraceNode(id: id, kind: .router, type: type, seq: seq, time: t)
            node.interactor = interactor == 0 ? nil : interactor
            node.createdFrom = codeLocationTable.index(of: event.location)
            createNode(consume node)
            if interactor != 0 { table.update(interactor) { $0.router = id } }
            return nil
        case .attach(let parent, let child):
            let misuse = attach(parent: parent, child: child, seq: seq, time: t)
            if case .some = event.location, misuse == nil || misuse?.kind == .doubleAttach {
                let from = codeLocationTable.index(of: event.location)
                table.update(child) { $0.attachedFrom = from }
            }
            return misuse
        case .detach(let parent, let child):
            let misuse = detach(parent: parent, child: child, seq: seq, time: t)
            if case .some = event.location, misuse == nil {
                let from = codeLocationTable.index(of: event.location)
                table.update(child) { $0.detachedFrom = from }
            }
            return misuse
        case .activate(let id), .deactivate(let id):
            let active = event.kind.name == .activate
            let moment = TraceMoment(seq: seq, time: t)
            let hook: RunningHook? = recordsHookEnds ? RunningHook(active ? .didBecomeActive : .willResignActive, since: moment) : nil
            guard table.update(id, {
                $0.isActive = active
                $0.stateChangedAt = moment
                $0.runningHook = hook
            }) else { return missing(id) }
            return nil
        case .hookEnd(let id):
            var ended: RunningHook?
            guard table.update(id, {
                ended = $0.runningHook
                $0.runningHook = nil
            }) else { return missing(id) }
            if let ended, ended.hook == .willResignActive { endedResignation = ended.since.seq }
            return nil
        case .load(let id):
            guard table.contains(id) else { return missing(id) }
            table.update(id) { $0.isLoaded = true }
            return nil
        case .launch(let id):
            guard table.contains(id) else { return missing(id) }
            if table.with(id, { $0.pointee.isLaunched }) == false {
                table.update(id) { $0.isLaunched = true }
                roots.append(id)
            }
            table.update(id) { $0.attachedAt = TraceMoment(seq: seq, time: t) }
            setLive(true, from: id)
            return nil
        case .view(let id, let appearance):
            var wasShown = false
            guard table.update(id, {
                wasShown = $0.view == .shown
                $0.view = appearance
                $0.viewChangedAt = TraceMoment(seq: seq, time: t)
            }) else {
                // A view can outlive its router (a dismissal that ends after
                // the router's deinit): not a misuse once the router existed.
                return id <= maxNodeID ? nil : missing(id)
            }
            if wasShown != (appearance == .shown) { shownViewCount += wasShown ? -1 : 1 }
            return nil
        case .taskStart(let task, let owner, let label):
            if taskTable.contains(task) || table.contains(task) {
                // A task id that names a running task or a live node: a corrupt trace.
                noteIDConflict(task, seq: seq)
                return nil
            }
            let (ownerType, active) = table.with(owner) { ($0.pointee.type, $0.pointee.isActive) } ?? ("interactor", false)
            var record = TraceTask(id: task, owner: owner, ownerType: ownerType, label: label, startSeq: seq, startTime: t,
                                   startedWhileInactive: !active)
            record.startedFrom = codeLocationTable.index(of: event.location)
            tasksStarted += 1
            guard table.update(owner, { record.slotInOwner = $0.taskList.append(task) }) else {
                record.ownerGone = true
                taskTable[task] = record
                return missing(owner)
            }
            taskTable[task] = record
            return nil
        case .taskCancel(let task):
            taskTable.update(task) { if $0.cancelRequested == nil { $0.cancelRequested = seq } }
            return nil
        case .taskEnd(let task, _):
            guard let ended = taskTable.removeValue(forKey: task) else { return nil }
            endedTaskOwner = ended.owner
            tasksEnded += 1
            removeTask(ended)
            return nil
        case .deallocated(let id):
            // Moved out of the table, not copied.
            guard let node = table.removeValue(forKey: id) else { return missing(id) }
            deallocate(node, seq: seq, time: t)
            lastRemoved = node
            hasRemovedNode = true
            return nil
        case .mark(let text):
            marks.append(TraceMark(seq: seq, time: t, text: text))
            return nil
        case .dropped(let count, _, _):
            // Saturating: a hostile trace may claim any count.
            droppedEvents = droppedEvents.addingReportingOverflow(count).overflow ? .max : droppedEvents + count
            return nil
        case .sessionEnd:
            ended = true
            return nil
        }
    }

    /// Moves the state's clock forward without an event (a live view's idle
    /// time, or `tree --at TIME` between two events).
    mutating func advanceTime(to t: UInt64) {
        if t > time { time = t }
    }

    /// Whether `event` is one that only the app's main actor writes: routers
    /// are main-actor objects, so their creation, attach, detach, launch,
    /// load and deinit run there, and so do views. (Interactors, tasks and
    /// marks run anywhere.)
    @inline(__always)
    func isMainActorEvent(_ event: TraceEvent, name: TraceEvent.Name) -> Bool {
        switch name {
        case .router, .attach, .detach, .launch, .load, .view: true
        case .deallocated: table.with(event.kind.deallocatedID, { $0.pointee.kind == .router }) == true
        case .session, .interactor, .activate, .deactivate, .hookEnd, .taskStart, .taskCancel, .taskEnd, .mark, .dropped, .end: false
        }
    }

    /// ``isMainActorEvent(_:name:)``, for an event whose name is not at hand.
    func isMainActorEvent(_ event: TraceEvent) -> Bool {
        isMainActorEvent(event, name: event.kind.name)
    }

    private mutating func createNode(_ node: consuming TraceNode) {
        // A second creation record for a live id belongs to a corrupt or
        // spliced trace: the node we know is kept, so links stay consistent.
        let (id, kind, seq) = (node.id, node.kind, node.createdSeq)
        guard !taskTable.contains(id), table.insertIfAbsent(id, consume node) else {
            noteIDConflict(id, seq: seq)
            return
        }
        createdCount += 1
        if kind == .router { routerCount += 1 }
        if id > maxNodeID { maxNodeID = id }
    }

    /// Takes a task out of its owner's running tasks, in constant time (amortised).
    private mutating func removeTask(_ task: TraceTask) {
        var compacted: [NodeID]?
        table.update(task.owner) {
            $0.taskList.remove(task.id, slot: task.slotInOwner)
            if $0.taskList.needsCompaction { compacted = $0.taskList.compact() }
        }
        guard let compacted else { return }
        for (index, id) in compacted.enumerated() { taskTable.update(id) { $0.slotInOwner = index } }
    }

    private mutating func noteIDConflict(_ id: NodeID, seq: UInt64) {
        idConflictCount += 1
        if firstIDConflict == nil { firstIDConflict = IDConflict(id: id, seq: seq) }
    }

    private mutating func deallocate(_ node: TraceNode, seq: UInt64, time: UInt64) {
        deallocatedCount += 1
        if node.view == .shown { shownViewCount -= 1 }
        if node.kind == .router {
            routerCount -= 1
            if let parent = node.parent { removeChild(node.id, from: parent, slot: node.slotInParent) }
            for child in node.childList where table.contains(child) {
                table.update(child) {
                    $0.parent = nil
                    $0.orphanedFrom = Orphaning(parent: node.id, parentType: node.type, seq: seq)
                }
                if table.with(child, { $0.pointee.isInLiveTree }) == true { setLive(false, from: child, seq: seq, time: time) }
            }
            if node.isLaunched { roots.removeAll { $0 == node.id } }
            if let interactor = node.interactor, table.with(interactor, { $0.pointee.router }) == node.id {
                table.update(interactor) { $0.router = nil }
            }
        } else {
            for task in node.taskList { taskTable.update(task) { $0.ownerGone = true } }
        }
    }
}
