/// The state of a traced app at one point of its trace: the live routers and
/// interactors, the tree they form and the running tasks.
///
/// Fold events into it in order with ``apply(_:)``. Nodes are forgotten when
/// they are deallocated, so memory follows the number of live nodes, not the
/// length of the trace: stop folding at any sequence number or time to see
/// the tree at that moment (time travel).
public struct TraceState: Sendable {
    // MARK: - The state

    /// The session record, once seen.
    public internal(set) var session: SessionInfo?
    /// Whether the session writes a `hook_end` record whenever a lifecycle
    /// hook returns (``SessionInfo/recordsHookEnds``): only then does the
    /// model follow running hooks (``TraceNode/runningHook``).
    public internal(set) var recordsHookEnds = false
    /// Routers and interactors alive now, by id.
    var table = NodeTable<TraceNode>()
    /// Bound tasks running now, by id.
    var taskTable = NodeTable<TraceTask>()
    /// How many routers and interactors are alive now.
    public var nodeCount: Int { table.count }
    /// How many routers are alive now.
    public internal(set) var routerCount = 0
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
    /// Events applied since the session began (the work budget grows with them).
    private var eventsApplied: UInt64 = 0
    /// Walk steps allowed: a fixed allowance plus a few per event. An app's
    /// trace stays far below it (moving a subtree of n routers writes n
    /// (de)activations, so walks are paid for by events); a hostile trace
    /// that moves huge subtrees with single events does not.
    private var workBudget: UInt64 { 1_000_000 &+ 64 &* eventsApplied }
    /// Creation records (or task starts) that named an id already alive: a corrupt trace.
    public internal(set) var idConflictCount = 0
    /// The first of them.
    public internal(set) var firstIDConflict: IDConflict?
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
    public internal(set) var roots: [NodeID] = []
    /// The last sequence number applied.
    public internal(set) var lastSeq: UInt64 = 0
    /// The time of the last event applied (ns since the session origin).
    public private(set) var time: UInt64 = 0
    /// Whether the session-end record was seen.
    public internal(set) var ended = false
    /// The highest router or interactor id created so far.
    public internal(set) var maxNodeID: NodeID = 0
    /// How many events of kind `name` were applied.
    public func eventCount(_ name: TraceEvent.Name) -> Int { kindCounts[name] }
    /// One counter per kind of event.
    var kindCounts = KindCounts()
    /// Events the app dropped (from `dropped` records).
    public internal(set) var droppedEvents: UInt64 = 0
    /// Marks written by the app, most recent last (the last 100).
    public var recentMarks: [TraceMark] { marks.marks }
    /// The last marks, kept for ``recentMarks``.
    var marks = RecentMarks()
    /// Routers and interactors created, and deallocated, so far.
    public internal(set) var createdCount = 0, deallocatedCount = 0
    /// Tasks started, and ended, so far.
    public internal(set) var tasksStarted = 0, tasksEnded = 0
    /// How many alive routers have their view shown now (see ``TraceNode/view``).
    public internal(set) var shownViewCount = 0
    /// The code locations the trace named (`src`), each once.
    var codeLocationTable = CodeLocationTable()
    /// The latest retainer search (`retained` record) about each live
    /// router or interactor that has one; forgotten at its `deinit`.
    var retainerSearches: [NodeID: Retainers] = [:]

    /// Creates an empty state.
    public init() {}

    // MARK: - What applying an event changed

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
    var hasRemovedNode = false
    /// The node the last `deinit` of a live node removed; meaningful only
    /// while ``hasRemovedNode`` (kept, not cleared, after: clearing an
    /// optional node for every event costs more than the node's memory).
    var lastRemoved = TraceNode(id: 0, kind: .router, type: "", seq: 0, time: 0)
    /// Set by the `task_end` of a running task to its owner, for ``Effect``.
    var endedTaskOwner: NodeID = 0
    /// Set by the `hook_end` of a running `willResignActive`, for ``Effect``.
    var endedResignation: UInt64 = 0

    // MARK: - Applying events

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

    /// Applies one event, unless the state stopped (only a new session
    /// starts it again) or the work budget ran out: its sequence number, time
    /// and kind are counted, then the step for its kind (`TraceStateEvents.swift`)
    /// changes the tree. Returns the misuse the event reveals, if any.
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
        let moment = TraceMoment(seq: event.seq, time: event.time)
        switch event.kind {
        case .sessionStart(let info):
            startSession(info, seq: event.seq)
        case .interactorCreated(let id, let type):
            var node = TraceNode(id: id, kind: .interactor, type: type, seq: moment.seq, time: moment.time)
            node.createdFrom = codeLocationTable.index(of: event.location)
            createNode(consume node)
        case .routerCreated(let id, let type, let interactor, let interactorType):
            createRouter(id, type: type, interactor: interactor, interactorType: interactorType, event)
        case .attach(let parent, let child):
            return noteAttach(parent: parent, child: child, event)
        case .detach(let parent, let child):
            return noteDetach(parent: parent, child: child, event)
        case .activate(let id):
            return changeActivity(of: id, active: true, at: moment)
        case .deactivate(let id):
            return changeActivity(of: id, active: false, at: moment)
        case .hookEnd(let id):
            return endHook(of: id)
        case .load(let id):
            return markLoaded(id)
        case .launch(let id):
            return launch(id, at: moment)
        case .view(let id, let appearance):
            return changeView(of: id, to: appearance, at: moment)
        case .taskStart(let task, let owner, let label):
            return startTask(task, owner: owner, label: label, event)
        case .taskCancel(let task):
            taskTable.update(task) { if $0.cancelRequested == nil { $0.cancelRequested = moment.seq } }
        case .taskEnd(let task, _):
            endTask(task)
        case .deallocated(let id):
            return deallocateNode(id, at: moment)
        case .retained(let id, let retainers):
            return noteRetainers(retainers, of: id)
        case .mark(let text):
            marks.append(TraceMark(seq: moment.seq, time: moment.time, text: text))
        case .dropped(let count, _, _):
            // Saturating: a hostile trace may claim any count.
            droppedEvents = droppedEvents.addingReportingOverflow(count).overflow ? .max : droppedEvents + count
        case .sessionEnd:
            ended = true
        }
        return nil
    }

    // MARK: - Time and threads

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
        // A retainer search runs off the main actor where it can.
        case .session, .interactor, .activate, .deactivate, .hookEnd, .taskStart, .taskCancel, .taskEnd, .retained, .mark, .dropped,
             .end: false
        }
    }

    /// ``isMainActorEvent(_:name:)``, for an event whose name is not at hand.
    func isMainActorEvent(_ event: TraceEvent) -> Bool {
        isMainActorEvent(event, name: event.kind.name)
    }
}
