import NapkinTrace

/// The events about one node that a session's history still keeps, for the
/// details panel: its creation, attaches and detaches, launch, load, view,
/// deallocation, its interactor's creation, (de)activations and
/// deallocation, and its interactor's bound tasks (start, cancel, end).
///
/// Kept per open panel and brought up to date each frame under the
/// session's lock: going forward it reads only the events that arrived
/// since (O(new events)); going back in time, or when the history dropped
/// what it had read, it reads the history again (O(events kept), once).
/// At most ``maxEntries`` events are kept, the newest.
struct NodeLog {
    /// Events kept, at most (the newest).
    static let maxEntries = 200
    /// Task ids remembered, at most (beyond, older tasks' events are no longer recognised).
    static let maxTasks = 1_024

    /// The node.
    let node: NodeID
    /// The session whose history was read.
    let session: ObjectIdentifier
    /// The node's interactor, as the state or the history says.
    private(set) var interactor: NodeID?
    /// The interactor's tasks seen starting.
    private var tasks: Set<NodeID> = []
    /// The events about the node, with their index, oldest first.
    private(set) var entries: [(index: Int, event: TraceEvent)] = []
    /// The first event index read: the history held nothing older.
    private(set) var readFrom = 0
    /// One past the last event index read.
    private(set) var readTo = 0
    /// Whether the node's creation was among the events read.
    private(set) var sawCreation = false
    /// Events about the node that were read but not kept (beyond ``maxEntries``).
    private(set) var dropped = 0
    /// The interactor the state named when the log was made (a history read again starts from it).
    private let knownInteractor: NodeID?

    /// An empty log of `node` (whose interactor, if known, is `interactor`) in `session`.
    init(node: NodeID, interactor: NodeID?, session: ObjectIdentifier) {
        self.node = node
        self.session = session
        self.interactor = interactor
        knownInteractor = interactor
    }

    /// Reads `history` up to moment `moment` (exclusive of later events).
    mutating func update(_ history: LiveHistory, to moment: Int) {
        if moment < readTo || history.oldestKept > readTo {
            entries.removeAll()
            tasks.removeAll()
            interactor = knownInteractor
            sawCreation = false
            dropped = 0
            readFrom = history.oldestKept
            readTo = readFrom
        }
        guard moment > readTo else { return }
        history.forEachEvent(in: readTo..<moment) { index, event in
            if concerns(event) {
                entries.append((index, event))
                if entries.count > Self.maxEntries {
                    entries.removeFirst(entries.count - Self.maxEntries)
                    dropped += 1
                }
            }
        }
        readTo = moment
    }

    /// Whether `event` is about the node, its interactor or its tasks (and notes what it learns).
    private mutating func concerns(_ event: TraceEvent) -> Bool {
        switch event.kind {
        case .routerCreated(let id, _, let owned, _):
            guard id == node else { return false }
            interactor = owned == 0 ? nil : owned
            sawCreation = true
            return true
        case .interactorCreated(let id, _):
            if id == node { sawCreation = true }
            return id == node || id == interactor
        case .attach(_, let child), .detach(_, let child):
            return child == node
        case .launch(let id), .load(let id), .view(let id, _):
            return id == node
        case .deallocated(let id), .retained(let id, _):
            return id == node || id == interactor
        case .activate(let id), .deactivate(let id), .hookEnd(let id):
            return id == node || id == interactor
        case .taskStart(let task, let owner, _):
            guard owner == node || owner == interactor else { return false }
            if tasks.count >= Self.maxTasks { tasks.removeAll() }
            tasks.insert(task)
            return true
        case .taskCancel(let task), .taskEnd(let task, _):
            return tasks.contains(task)
        case .sessionStart, .mark, .dropped, .sessionEnd:
            return false
        }
    }
}
