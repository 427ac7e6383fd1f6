/// The whole life of every router, interactor and task in a trace, for
/// timelines and sequence diagrams.
///
/// Unlike ``TraceState`` it keeps deallocated nodes, so its memory grows with
/// the number of nodes the trace ever created (not with its number of events).
public struct TraceHistory: Sendable {
    // MARK: - What a history holds

    /// A span of trace time; `end` is nil while it is still open.
    public struct Interval: Sendable, Hashable {
        /// Start time (ns since the session origin).
        public var start: UInt64
        /// End time, or nil if still open at the end of the trace.
        public var end: UInt64?
        /// Sequence number of the event that opened it.
        public var startSeq: UInt64
        /// Sequence number of the event that closed it.
        public var endSeq: UInt64?
    }

    /// The life of one bound task.
    public struct TaskLife: Sendable, Hashable {
        /// The task's id.
        public var id: NodeID
        /// Its label, if any.
        public var label: String?
        /// When it started, was asked to cancel, and ended (ns).
        public var start: UInt64
        /// When cancellation was requested, if it was.
        public var cancel: UInt64?
        /// When it ended, if it did.
        public var end: UInt64?
        /// How it ended.
        public var outcome: TaskOutcome?
    }

    /// A span during which a router was attached to a parent (or launched).
    public struct Attachment: Sendable, Hashable {
        /// The parent, or nil for a launch (the router was a root).
        public var parent: NodeID?
        /// When it started and ended.
        public var span: Interval
        /// Where the attach (or launch) was made, when the trace says.
        public var at: CodeLocation? = nil
        /// Where the detach was made, when the trace says.
        public var detachedAt: CodeLocation? = nil
    }

    /// An attach or a detach, for sequence diagrams.
    public struct Link: Sendable, Hashable {
        /// When it happened.
        public var at: TraceMoment
        /// An attach (true) or a detach (false).
        public var isAttach: Bool
        /// The parent router.
        public var parent: NodeID
        /// The child router.
        public var child: NodeID
    }

    /// A router's deallocation.
    public struct Deallocation: Sendable, Hashable {
        /// The router.
        public var id: NodeID
        /// When its `deinit` was written.
        public var at: TraceMoment
    }

    /// The life of one router (with its interactor's states) or lone interactor.
    public struct NodeLife: Sendable, Hashable {
        /// The node's id.
        public var id: NodeID
        /// Router or interactor.
        public var kind: NodeKind
        /// The type name.
        public var type: String
        /// For a router: its interactor's id.
        public var interactor: NodeID?
        /// Creation time (ns) and sequence number.
        public var created: UInt64
        /// Sequence number of the creation record.
        public var createdSeq: UInt64
        /// Deallocation time, if it happened.
        public var deallocated: UInt64?
        /// Routers: spans attached to a parent, or launched as a root.
        public var attached: [Attachment] = []
        /// Spans during which the interactor was active.
        public var active: [Interval] = []
        /// When the router loaded.
        public var loaded: UInt64?
        /// Tasks bound to the interactor.
        public var tasks: [TaskLife] = []
        /// Spans during which the router's view was shown (empty when its
        /// view layer reports nothing).
        public var shown: [Interval] = []
        /// When the router's view was removed from its parent (popped,
        /// dismissed), each time it was.
        public var viewRemoved: [TraceMoment] = []
        /// What the latest retainer search (`retained` record) found holding
        /// the router (or the lone interactor), if one ran.
        public var retainers: Retainers?
        /// What the latest retainer search found holding the router's
        /// interactor, if one ran about it.
        public var interactorRetainers: Retainers?

        /// Where it was created (its builder's line), when the trace says.
        public var createdAt: CodeLocation?

        /// `Type#id`.
        public var name: String { "\(type)#\(id)" }
    }

    // MARK: - The history

    /// Every router and lone interactor, in creation order.
    public private(set) var nodes: [NodeLife] = []
    /// Marks written by the app, in order.
    public private(set) var marks: [TraceMark] = []
    /// Attach and detach events in order, for sequence diagrams.
    public private(set) var links: [Link] = []
    /// Deinit events of routers, in order.
    public private(set) var deinits: [Deallocation] = []
    /// The time of the last event.
    public private(set) var endTime: UInt64 = 0
    /// The session record.
    public private(set) var session: SessionInfo?
    /// The time before which ``forget(endedBefore:)`` dropped what had
    /// ended (0: nothing was dropped).
    public private(set) var forgottenBefore: UInt64 = 0

    /// Router (or lone interactor) id → its index in ``nodes``.
    private var index: [NodeID: Int] = [:]
    /// Interactor id → index of the router (or lone interactor) it belongs to.
    private var owners: [NodeID: Int] = [:]
    /// Task id → the index of its owner's row and its index in that row's tasks.
    private var taskIndex: [NodeID: (Int, Int)] = [:]
    /// Parent id → children whose attached span is open.
    private var openChildren: [NodeID: Set<NodeID>] = [:]

    /// Creates an empty history.
    public init() {}

    /// The life of router (or lone interactor) `id`.
    public func life(of id: NodeID) -> NodeLife? {
        index[id].map { nodes[$0] }
    }

    // MARK: - Folding events

    /// Folds one event into the history. Only the first session of a stream is kept.
    public mutating func apply(_ event: TraceEvent) {
        if case .sessionStart(let info) = event.kind {
            guard session == nil else { return }
            session = info
            return
        }
        if event.time > endTime { endTime = event.time }
        let t = event.time
        switch event.kind {
        case .interactorCreated(let id, let type):
            guard owners[id] == nil else { return }
            owners[id] = nodes.count
            index[id] = nodes.count
            nodes.append(NodeLife(id: id, kind: .interactor, type: type, created: t, createdSeq: event.seq, createdAt: event.location))
        case .routerCreated(let id, let type, let interactor, _):
            addRouter(id, type: type, interactor: interactor, at: t, seq: event.seq, location: event.location)
        case .attach(let parent, let child):
            attach(child, to: parent, at: TraceMoment(seq: event.seq, time: t), location: event.location)
        case .detach(let parent, let child):
            links.append(Link(at: TraceMoment(seq: event.seq, time: t), isAttach: false, parent: parent, child: child))
            openChildren[parent]?.remove(child)
            if let i = index[child], let last = nodes[i].attached.indices.last, nodes[i].attached[last].span.end == nil {
                nodes[i].attached[last].detachedAt = event.location
            }
            Self.closeAttachment(&nodes, at: index[child], t, event.seq)
        case .launch(let id):
            guard let i = index[id] else { return }
            nodes[i].attached.append(Attachment(parent: nil, span: Interval(start: t, end: nil, startSeq: event.seq), at: event.location))
        case .activate(let id):
            guard let i = owners[id] else { return }
            if let last = nodes[i].active.last, last.end == nil { return }
            nodes[i].active.append(Interval(start: t, end: nil, startSeq: event.seq))
        case .deactivate(let id):
            if let i = owners[id] { Self.close(&nodes[i].active, t, event.seq) }
        case .load(let id):
            if let i = index[id], nodes[i].loaded == nil { nodes[i].loaded = t }
        case .view(let id, let appearance):
            changeView(of: id, to: appearance, at: TraceMoment(seq: event.seq, time: t))
        case .taskStart(let task, let owner, let label):
            guard let i = owners[owner] else { return }
            taskIndex[task] = (i, nodes[i].tasks.count)
            nodes[i].tasks.append(TaskLife(id: task, label: label, start: t))
        case .taskCancel(let task):
            if let (i, j) = taskIndex[task], nodes[i].tasks[j].cancel == nil { nodes[i].tasks[j].cancel = t }
        case .taskEnd(let task, let outcome):
            if let (i, j) = taskIndex[task] {
                nodes[i].tasks[j].end = t
                nodes[i].tasks[j].outcome = outcome
            }
        case .deallocated(let id):
            deallocate(id, at: TraceMoment(seq: event.seq, time: t))
        case .retained(let id, let retainers):
            if let i = index[id] {
                nodes[i].retainers = retainers
            } else if let i = owners[id] {
                nodes[i].interactorRetainers = retainers
            }
        case .mark(let text):
            marks.append(TraceMark(seq: event.seq, time: t, text: text))
        case .sessionStart, .hookEnd, .dropped, .sessionEnd:
            break
        }
    }

    /// A router's creation record: its row. A lone interactor row becomes
    /// part of its router's row (interactors are announced just before their
    /// router, so it is the last row); tasks it started before the router
    /// existed (work started in `init`) come along: the router's row takes
    /// the same index, so `taskIndex` stays valid.
    private mutating func addRouter(_ id: NodeID, type: String, interactor: NodeID, at t: UInt64, seq: UInt64, location: CodeLocation?) {
        guard index[id] == nil else { return }
        var life = NodeLife(id: id, kind: .router, type: type, interactor: interactor, created: t, createdSeq: seq, createdAt: location)
        if let lone = owners[interactor], lone == nodes.count - 1, nodes[lone].kind == .interactor,
           nodes[lone].active.isEmpty {
            life.created = min(life.created, nodes[lone].created)
            life.tasks = nodes[lone].tasks
            index[interactor] = nil
            nodes.removeLast()
        }
        index[id] = nodes.count
        owners[interactor] = nodes.count
        nodes.append(life)
    }

    /// An `attach`: the link, and an attached span for the child unless one is open.
    private mutating func attach(_ child: NodeID, to parent: NodeID, at moment: TraceMoment, location: CodeLocation?) {
        links.append(Link(at: moment, isAttach: true, parent: parent, child: child))
        guard let i = index[child] else { return }
        if let last = nodes[i].attached.last, last.span.end == nil { return }
        nodes[i].attached.append(Attachment(parent: parent, span: Interval(start: moment.time, end: nil, startSeq: moment.seq), at: location))
        openChildren[parent, default: []].insert(child)
    }

    /// A `view`: a shown span opens, or closes (and a removal is noted).
    private mutating func changeView(of id: NodeID, to appearance: ViewAppearance, at moment: TraceMoment) {
        guard let i = index[id] else { return }
        switch appearance {
        case .shown:
            if let last = nodes[i].shown.last, last.end == nil { return }
            nodes[i].shown.append(Interval(start: moment.time, end: nil, startSeq: moment.seq))
        case .covered:
            Self.close(&nodes[i].shown, moment.time, moment.seq)
        case .removed:
            Self.close(&nodes[i].shown, moment.time, moment.seq)
            nodes[i].viewRemoved.append(moment)
        }
    }

    /// A `deinit`: the node's end; a router's attachment closes, and so do
    /// those of the children attached to it (they leave the tree with it).
    private mutating func deallocate(_ id: NodeID, at moment: TraceMoment) {
        guard let i = index[id] else { return }
        let (t, seq) = (moment.time, moment.seq)
        nodes[i].deallocated = t
        guard nodes[i].kind == .router else { return }
        deinits.append(Deallocation(id: id, at: moment))
        Self.closeAttachment(&nodes, at: i, t, seq)
        for child in openChildren.removeValue(forKey: id) ?? [] {
            if let j = index[child], nodes[j].attached.last?.parent == id {
                Self.closeAttachment(&nodes, at: j, t, seq)
            }
        }
    }

    // MARK: - Closing spans

    /// Closes the last interval of `intervals` if it is open.
    private static func close(_ intervals: inout [Interval], _ t: UInt64, _ seq: UInt64) {
        guard let last = intervals.indices.last, intervals[last].end == nil else { return }
        intervals[last].end = t
        intervals[last].endSeq = seq
    }

    /// Closes node `i`'s open attachment, if any.
    private static func closeAttachment(_ nodes: inout [NodeLife], at i: Int?, _ t: UInt64, _ seq: UInt64) {
        guard let i, let last = nodes[i].attached.indices.last, nodes[i].attached[last].span.end == nil else { return }
        nodes[i].attached[last].span.end = t
        nodes[i].attached[last].span.endSeq = seq
    }

    // MARK: - Forgetting the past

    /// Drops what ended before `time`, for a history kept over hours (the
    /// live page's): nodes deallocated before it, and the spans, tasks,
    /// marks, links and deinits that ended before it. A node that is still
    /// alive keeps its creation, its last attachment and its last shown span
    /// and removal (which tell "detached" from "never attached", "covered"
    /// and "gone" from "never shown"). What stays reads as it did; a moment
    /// before `time` no longer can.
    public mutating func forget(endedBefore time: UInt64) {
        guard time > forgottenBefore else { return }
        forgottenBefore = time
        func ended(_ span: Interval) -> Bool { span.end.map { $0 < time } ?? false }
        nodes = nodes.compactMap { life in
            if let gone = life.deallocated, gone < time { return nil }
            var life = life
            if life.attached.count > 1 {
                let last = life.attached.removeLast()
                life.attached.removeAll { ended($0.span) }
                life.attached.append(last)
            }
            life.active.removeAll(where: ended)
            if life.shown.count > 1 {
                let last = life.shown.removeLast()
                life.shown.removeAll(where: ended)
                life.shown.append(last)
            }
            if life.viewRemoved.count > 1 {
                let last = life.viewRemoved.removeLast()
                life.viewRemoved.removeAll { $0.time < time }
                life.viewRemoved.append(last)
            }
            life.tasks.removeAll { task in task.end.map { $0 < time } ?? false }
            return life
        }
        marks.removeAll { $0.time < time }
        links.removeAll { $0.at.time < time }
        deinits.removeAll { $0.at.time < time }
        // The look-up tables, as `apply` builds them.
        index = [:]
        owners = [:]
        taskIndex = [:]
        for (i, life) in nodes.enumerated() {
            index[life.id] = i
            owners[life.interactor ?? life.id] = i
            for (j, task) in life.tasks.enumerated() { taskIndex[task.id] = (i, j) }
        }
        for (parent, children) in openChildren {
            guard index[parent] != nil else { openChildren[parent] = nil; continue }
            openChildren[parent] = children.filter { index[$0] != nil }
        }
    }
}
