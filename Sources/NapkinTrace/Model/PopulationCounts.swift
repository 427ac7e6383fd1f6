/// How many routers, interactors and bound tasks of each type are alive,
/// and the most there were at once: the populations that `growing-population`
/// and `over-budget` watch, `stats` lists and `live` and `report` draw.
///
/// A router or interactor counts from its creation record to its `deinit`;
/// a bound task from its start to its end, as `Owner 'label'`. Fold every
/// event with ``note(_:in:)`` right after ``TraceState`` applied it. Types
/// come from the trace, so at most ``maxPopulations`` are followed; the
/// instances of any other type are counted in ``untrackedInstances``.
/// Memory follows the live instances and the number of types.
public struct PopulationCounts: Sendable {
    /// What is counted: routers, interactors or bound tasks of one type.
    public struct Key: Hashable, Sendable, Comparable, CustomStringConvertible {
        /// What kind of instance.
        public enum Kind: String, Sendable, Hashable, Comparable {
            /// Routers of a type.
            case router
            /// Interactors of a type.
            case interactor
            /// Bound tasks of one label, started by interactors of a type.
            case task

            /// Routers, then interactors, then tasks.
            public static func < (a: Kind, b: Kind) -> Bool { a.order < b.order }
            private var order: Int {
                switch self {
                case .router: 0
                case .interactor: 1
                case .task: 2
                }
            }
        }

        /// What kind of instance.
        public var kind: Kind
        /// The type name (for tasks: the owner's).
        public var type: String
        /// For tasks: the label (nil: a task without one).
        public var label: String?

        /// Creates a key.
        public init(_ kind: Kind, type: String, label: String? = nil) {
            self.kind = kind
            self.type = type
            self.label = label
        }

        /// How a budget (`check --max-alive NAME=N`) and reports name it:
        /// the type name, or for tasks `Owner 'label'` (`Owner task` without a label).
        public var description: String {
            switch kind {
            case .router, .interactor: type
            case .task: "\(type) \(label.map { "'\($0)'" } ?? "task")"
            }
        }

        /// By kind, then name.
        public static func < (a: Key, b: Key) -> Bool {
            (a.kind, a.description) < (b.kind, b.description)
        }
    }

    /// One type's instances.
    public struct Population: Sendable, Hashable {
        /// What is counted.
        public let key: Key
        /// How many are alive now.
        public internal(set) var live = 0
        /// The most that were alive at once.
        public internal(set) var peak = 0
        /// The sequence number of the event that first reached ``peak``.
        public internal(set) var peakSeq: UInt64 = 0
        /// The trace time (ns) of that event.
        public internal(set) var peakTime: UInt64 = 0
        /// How many were created (or started) in all.
        public internal(set) var created = 0
        /// For routers: the type of the interactor the first one was made with.
        public internal(set) var interactorType: String?
    }

    /// The most types followed (a hostile trace can name millions).
    public static let maxPopulations = 1_000

    /// The populations, in the order their types first appeared.
    public private(set) var populations: [Population] = []
    /// Live instances of types beyond ``maxPopulations`` (not followed).
    public private(set) var untrackedInstances = 0
    /// The population each key is counted in.
    private var slots: [Key: Int32] = [:]

    /// The population of each live router or interactor (-1: untracked).
    private var nodeSlots = NodeTable<Int32>()
    /// The population of each running task (-1: untracked).
    private var taskSlots = NodeTable<Int32>()

    /// No populations yet.
    public init() {}

    /// The population of `key`, if it was ever alive.
    public subscript(key: Key) -> Population? {
        slots[key].map { populations[Int($0)] }
    }

    /// The index in ``populations`` of `key`'s population, if it was ever alive.
    public func index(of key: Key) -> Int? {
        slots[key].map(Int.init)
    }

    /// Folds `event`, which `state` has just applied.
    public mutating func note(_ event: TraceEvent, in state: TraceState) {
        switch event.kind {
        case .routerCreated(let id, let type, let interactor, let interactorType):
            // A router record creates its interactor too when none was recorded.
            if interactor != 0 && !nodeSlots.contains(interactor) && state.table.contains(interactor) {
                added(Key(.interactor, type: interactorType), id: interactor, to: .nodes, event)
            }
            let slot = added(Key(.router, type: type), id: id, to: .nodes, event)
            if interactor != 0 && slot >= 0 && populations[Int(slot)].interactorType == nil {
                populations[Int(slot)].interactorType = interactorType
            }
        case .interactorCreated(let id, let type):
            added(Key(.interactor, type: type), id: id, to: .nodes, event)
        case .taskStart(let task, _, let label):
            guard let ownerType = state.taskTable.with(task, { $0.pointee.ownerType }) else { return }
            added(Key(.task, type: ownerType, label: label), id: task, to: .tasks, event)
        case .deallocated(let id):
            removed(id, from: .nodes)
        case .taskEnd(let task, _):
            removed(task, from: .tasks)
        case .sessionStart, .attach, .detach, .activate, .deactivate, .hookEnd, .load, .launch, .view,
             .taskCancel, .retained, .mark, .dropped, .sessionEnd:
            break
        }
    }

    /// Live ids of a population are not kept; the state has them. Calls
    /// `body` with each live router or interactor of `key` (kind router or
    /// interactor) in `state`, or each running task (kind task).
    public static func forEachInstance(of key: Key, in state: TraceState, _ body: (NodeID) -> Void) {
        switch key.kind {
        case .router, .interactor:
            let kind: NodeKind = key.kind == .router ? .router : .interactor
            state.table.forEach { id, node in
                if node.kind == kind && node.type == key.type { body(id) }
            }
        case .task:
            state.taskTable.forEach { id, task in
                if task.ownerType == key.type && task.label == key.label { body(id) }
            }
        }
    }

    // MARK: - Counting

    /// Which id table an instance is in.
    private enum Table {
        case nodes, tasks
    }

    /// Counts instance `id` of `key`; returns its population's index (-1: untracked).
    @discardableResult
    private mutating func added(_ key: Key, id: NodeID, to table: Table, _ event: TraceEvent) -> Int32 {
        guard id != 0 else { return -1 }
        let slot: Int32
        if let known = slots[key] {
            slot = known
        } else if populations.count < Self.maxPopulations {
            slot = Int32(populations.count)
            slots[key] = slot
            populations.append(Population(key: key))
        } else {
            slot = -1
        }
        // A creation naming an id still alive (a corrupt trace) replaces it.
        let inserted = switch table {
        case .nodes: nodeSlots.insertIfAbsent(id, slot)
        case .tasks: taskSlots.insertIfAbsent(id, slot)
        }
        if !inserted {
            removed(id, from: table)
            switch table {
            case .nodes: nodeSlots.insertIfAbsent(id, slot)
            case .tasks: taskSlots.insertIfAbsent(id, slot)
            }
        }
        guard slot >= 0 else {
            untrackedInstances += 1
            return slot
        }
        let index = Int(slot)
        populations[index].live += 1
        populations[index].created += 1
        if populations[index].live > populations[index].peak {
            populations[index].peak = populations[index].live
            populations[index].peakSeq = event.seq
            populations[index].peakTime = event.time
        }
        return slot
    }

    private mutating func removed(_ id: NodeID, from table: Table) {
        let slot = switch table {
        case .nodes: nodeSlots.removeValue(forKey: id)
        case .tasks: taskSlots.removeValue(forKey: id)
        }
        if let slot { uncount(slot) }
    }

    private mutating func uncount(_ slot: Int32) {
        if slot >= 0 {
            populations[Int(slot)].live -= 1
        } else {
            untrackedInstances -= 1
        }
    }
}
