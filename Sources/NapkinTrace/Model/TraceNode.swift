/// Whether a node is a router or an interactor.
public enum NodeKind: String, Sendable, Hashable {
    /// A router: a node of the tree.
    case router
    /// An interactor: the business logic a router owns.
    case interactor
}

/// A router or interactor alive at the current point of a trace.
public struct TraceNode: Sendable, Hashable {
    /// The node's id.
    public let id: NodeID
    /// Router or interactor.
    public let kind: NodeKind
    /// The type name written when the node was created.
    public let type: String
    /// Sequence number and time of the creation record.
    public let createdSeq: UInt64
    /// Trace time of the creation record (ns).
    public let createdTime: UInt64

    // Routers
    /// The router's interactor (routers only).
    public internal(set) var interactor: NodeID?
    /// The parent router this router is attached to (routers only).
    public internal(set) var parent: NodeID?
    /// The attached children, in attach order (routers only).
    public var children: [NodeID] { Array(childList) }
    /// How many children are attached (routers only).
    public var childCount: Int { childList.count }
    /// The attached children (the storage behind ``children``).
    var childList = IDList()
    /// This router's slot in its parent's ``childList``.
    var slotInParent = 0
    /// Whether the router was launched as a root.
    public internal(set) var isLaunched = false
    /// Whether the router has loaded.
    public internal(set) var isLoaded = false
    /// Whether the router is reachable from a launched root.
    public internal(set) var isInLiveTree = false
    /// Set when the parent this router was attached to was deallocated
    /// without detaching it.
    public internal(set) var orphanedFrom: Orphaning?
    /// When the router last attached to a parent or launched.
    public internal(set) var attachedAt: TraceMoment?
    /// When the router last left the live tree.
    public internal(set) var leftTreeAt: TraceMoment?
    /// Where the router's view is, if its view layer reported it (viewable
    /// routers of an app that traces its views; nil otherwise).
    public internal(set) var view: ViewAppearance?
    /// When the view was last reported.
    public internal(set) var viewChangedAt: TraceMoment?
    /// Where the router was created, last attached and last detached, as
    /// indexes into the state's code locations (0: not known); see
    /// ``TraceState/codeLocations(of:)``.
    var createdFrom: UInt32 = 0, attachedFrom: UInt32 = 0, detachedFrom: UInt32 = 0

    // Interactors
    /// The router that owns this interactor (interactors only).
    public internal(set) var router: NodeID?
    /// Whether the interactor is active.
    public internal(set) var isActive = false
    /// When the interactor last changed state.
    public internal(set) var stateChangedAt: TraceMoment?
    /// The hook the interactor is running now (`didBecomeActive` from its
    /// `activate`, `willResignActive` from its `deactivate`, until the
    /// `hook_end` after it), and since when. Always nil in a session that
    /// does not record hook ends (``SessionInfo/recordsHookEnds``): there a
    /// missing end says nothing.
    public internal(set) var runningHook: RunningHook?
    /// The bound tasks of this interactor that are still running, in start order.
    public var runningTasks: [NodeID] { Array(taskList) }
    /// How many bound tasks of this interactor are running.
    public var runningTaskCount: Int { taskList.count }
    /// The running tasks (the storage behind ``runningTasks``).
    var taskList = IDList()

    /// `Type#id`, the way every output names a node.
    public var name: String { "\(type)#\(id)" }

}

extension TraceNode {
    /// A node as its creation record describes it. (In an extension, so
    /// that the struct keeps its memberwise initializer, which builds the
    /// node in place; one that assigns the fields one by one builds it in a
    /// temporary and copies it.)
    init(id: NodeID, kind: NodeKind, type: String, seq: UInt64, time: UInt64) {
        self.init(id: id, kind: kind, type: type, createdSeq: seq, createdTime: time)
    }
}

/// A point of a trace: an event's sequence number and time.
public struct TraceMoment: Sendable, Hashable {
    /// The event's sequence number.
    public var seq: UInt64
    /// The event's time (ns since the session origin).
    public var time: UInt64

    /// Creates a moment.
    public init(seq: UInt64, time: UInt64) {
        self.seq = seq
        self.time = time
    }
}

/// How a router lost its parent without being detached: the parent was
/// deallocated while the router was still attached to it.
public struct Orphaning: Sendable, Hashable {
    /// The parent's id.
    public var parent: NodeID
    /// The parent's type name.
    public var parentType: String
    /// The sequence number of the parent's `deinit`.
    public var seq: UInt64
}

/// A mark the app wrote with ``NapkinTrace/mark(_:)``.
public struct TraceMark: Sendable, Hashable {
    /// The `mark` event's sequence number.
    public var seq: UInt64
    /// The `mark` event's time (ns since the session origin).
    public var time: UInt64
    /// The text.
    public var text: String
}

/// A bound task still running at the current point of a trace.
public struct TraceTask: Sendable, Hashable {
    /// The task's id.
    public let id: NodeID
    /// The interactor that started it.
    public let owner: NodeID
    /// The owner's type name (kept after the owner is deallocated).
    public let ownerType: String
    /// The label given with `task(named:)`, if any.
    public let label: String?
    /// Sequence number of `task_start`.
    public let startSeq: UInt64
    /// Trace time of `task_start`.
    public let startTime: UInt64
    /// The sequence number of the cancellation request, if there was one.
    public internal(set) var cancelRequested: UInt64?
    /// Whether the owner was inactive (or gone) when the task started.
    public let startedWhileInactive: Bool
    /// Whether the owner has been deallocated.
    public internal(set) var ownerGone = false
    /// This task's slot in its owner's task list.
    var slotInOwner = 0
    /// Where it was started, as an index into the state's code locations (0: not known).
    var startedFrom: UInt32 = 0

    /// `label` or `task`, for messages.
    public var displayName: String { label.map { "'\($0)'" } ?? "task" }
}
