/// The state of one retainer search while it walks: the graph so far, the
/// objects read and still to read with the isolation each must be read in,
/// and the limits.
///
/// ``RetainerSearch`` hands batches of pending objects to the isolation
/// they belong to (the main actor, or an actor); ``expand(_:)`` reads a
/// batch there and, in the same isolated step, everything it reaches that
/// belongs to the same isolation (anything but another actor, which is
/// queued).
///
/// Every object reached is held until ``release()``, at the end of the
/// search, on the main actor: an object the app lets go meanwhile cannot be
/// replaced by another at the same address (which would splice a wrong
/// edge into a path), and its deinit, if the search held the last
/// reference, runs where the app's own would (a router's is isolated to
/// the main actor anyway). Nothing is held past the search.
///
/// `Sendable` through its lock: all state is behind it; the objects it
/// holds are read only by ``expand(_:)``, in the isolation the search proved
/// theirs.
final class Exploration: Sendable {
    /// Where a batch must be read.
    enum Domain: Sendable {
        /// On the main actor.
        case main
        /// Isolated to the actor at this node.
        case actor(Int)
    }

    /// Pending objects (their nodes) that share an isolation.
    struct Batch: Sendable {
        let domain: Domain
        let items: [Int]
    }

    /// What the walk found, for the paths and the note.
    struct Summary {
        /// The graph; nil when the object itself was never reached.
        var graph: ReferenceGraph?
        /// Objects read.
        var visited: Int
        /// The walk stopped at a limit.
        var truncated: Bool
        /// What held something the walk could not read.
        var unsearched: Set<String>
    }

    private let limits: RetainerSearch.Limits
    /// The time the walk may spend reading (ns): only the time in
    /// ``expand(_:)``, not the wait for the main actor or an actor to run
    /// it, so a busy app slows a search down but does not cut it short.
    private let budget: UInt64
    private let state = Locked(State())

    private struct State {
        var nodes: [ReferenceGraph.Node] = []
        /// The object of each node, held until `release()`.
        var objects: [AnyObject] = []
        var index: [ObjectIdentifier: Int] = [:]
        var mainQueue: [Int] = []
        var actorQueue: [(actor: Int, items: [Int])] = []
        var roots: [Int] = []
        var visited = 0
        /// Time spent reading in earlier batches (ns).
        var spent: UInt64 = 0
        var truncated = false
        var unsearched: Set<String> = []
    }

    init(limits: RetainerSearch.Limits) {
        self.limits = limits
        let (seconds, attoseconds) = limits.time.components
        self.budget = UInt64(max(seconds, 0)) &* 1_000_000_000 &+ UInt64(max(attoseconds, 0) / 1_000_000_000)
    }

    // MARK: - Seeds

    /// The walk starts at the named roots, then at every traced object
    /// alive (the object itself among them), in id order.
    func seed(entries: [LiveObjects.Entry], roots: [RetainerRoots.Root], context: RetainerSearch.Context) {
        for root in roots {
            guard let object = root.reference.load() else { continue }
            var node = ReferenceGraph.Node(name: root.name)
            node.expectedAlive = true
            node.isNamedRoot = true
            let index = add(object, node: node, queued: true)
            state.withLock { $0.roots.append(index) }
        }
        for entry in entries {
            guard let object = entry.reference.load() else { continue }
            var node = ReferenceGraph.Node(name: entry.name)
            node.expectedAlive = context.expectedAlive.contains(entry.id)
            node.isRouter = entry.kind == .router
            node.isInteractor = entry.kind == .interactor
            let index = add(object, node: node, queued: true)
            state.withLock { $0.roots.append(index) }
        }
    }

    /// The node of `object`, added (and held) if it is new; a new one is
    /// queued if `queued` (in its own isolation if it is an actor, else on
    /// the main actor) or if it is an actor.
    private func add(_ object: AnyObject, node: ReferenceGraph.Node, queued: Bool) -> Int {
        let identifier = ObjectIdentifier(object)
        let isActor = object is any Actor
        return state.withLock { s in
            if let known = s.index[identifier] { return known }
            let index = s.nodes.count
            s.nodes.append(node)
            s.objects.append(object)
            s.index[identifier] = index
            if isActor {
                s.actorQueue.append((index, [index]))
            } else if queued {
                s.mainQueue.append(index)
            }
            return index
        }
    }

    /// The next batch to read, or nil when nothing is left (or a limit is hit).
    func nextBatch() -> Batch? {
        state.withLock { s in
            if s.truncated { return nil }
            if !s.mainQueue.isEmpty {
                defer { s.mainQueue = [] }
                return Batch(domain: .main, items: s.mainQueue)
            }
            guard !s.actorQueue.isEmpty else { return nil }
            let next = s.actorQueue.removeFirst()
            return Batch(domain: .actor(next.actor), items: next.items)
        }
    }

    /// The actor at `node`.
    func actor(at node: Int) -> (any Actor)? {
        state.withLock { $0.objects[node] as? any Actor }
    }

    // MARK: - Reading, in the batch's isolation

    /// Reads the objects of `items` and what they reach that belongs to the
    /// same isolation (anything but another actor), recording edges, at
    /// most ``objectsPerStep`` of them; returns those left to read (the
    /// caller queues them again: the main actor, or the actor, gets to run
    /// the app's work between steps). Runs in the batch's isolation.
    func expand(_ items: [Int]) -> [Int] {
        let started = MonotonicClock.now()
        defer { state.withLock { $0.spent &+= MonotonicClock.now() &- started } }
        var queue = items
        var head = 0
        while head < queue.count {
            if head >= Self.objectsPerStep { return Array(queue[head...]) }
            let node = queue[head]
            head += 1
            if exhausted(since: started) { break }
            let object = state.withLock { $0.objects[node] }
            let (references, unsearched) = ReferenceWalker.references(of: object)
            var edges: [ReferenceGraph.Edge] = []
            edges.reserveCapacity(references.count)
            for reference in references {
                let known = state.withLock { $0.index[ObjectIdentifier(reference.object)] }
                if let known {
                    edges.append(.init(label: reference.label, to: known, holder: reference.holder))
                    continue
                }
                var node = ReferenceGraph.Node(name: Self.typeName(reference.object))
                node.isPlumbing = Self.isNapkinPlumbing(reference.object)
                let index = add(reference.object, node: node, queued: false)
                edges.append(.init(label: reference.label, to: index, holder: reference.holder))
                if !(reference.object is any Actor) { queue.append(index) }
            }
            state.withLock { s in
                s.nodes[node].edges = edges
                s.visited += 1
                s.unsearched.formUnion(unsearched)
            }
        }
        return []
    }

    /// The most objects one step reads before it lets its isolation run
    /// the app's work (a main actor busy with a search for longer would
    /// stall the app's UI).
    static let objectsPerStep = 1_000

    /// Queues `items`, left by a step in `domain`, to be read next.
    func requeue(_ items: [Int], in domain: Domain) {
        guard !items.isEmpty else { return }
        state.withLock { s in
            switch domain {
            case .main: s.mainQueue.append(contentsOf: items)
            case .actor(let node): s.actorQueue.insert((node, items), at: 0)
            }
        }
    }

    /// Whether a limit is reached (and marks the walk as stopped), in a
    /// batch that started reading at `started`.
    private func exhausted(since started: UInt64) -> Bool {
        state.withLock { s in
            if s.visited >= limits.objects || s.spent &+ (MonotonicClock.now() &- started) >= budget { s.truncated = true }
            return s.truncated
        }
    }

    /// Lets go of every object the search holds. Call on the main actor.
    func release() {
        let objects = state.withLock { s -> [AnyObject] in
            defer { s.objects = [] }
            return s.objects
        }
        // Released here, outside the lock, where the app's main-actor code runs.
        withExtendedLifetime(objects) {}
    }

    /// Whether `object` is one of napkin's builders or components (a
    /// subclass of `Napkin.Builder`, `Napkin.ComponentizedBuilder`,
    /// `Napkin.MultiStageComponentizedBuilder` or `Napkin.Component`), by
    /// its classes' names: the one place the search names the framework's
    /// types, which it cannot import.
    private static func isNapkinPlumbing(_ object: AnyObject) -> Bool {
        var type: AnyClass? = Swift.type(of: object)
        while let current = type {
            let name = _typeName(current, qualified: true)
            if plumbingPrefixes.contains(where: name.hasPrefix) { return true }
            type = _getSuperclass(current)
        }
        return false
    }

    private static let plumbingPrefixes = ["Napkin.Builder<", "Napkin.Component<", "Napkin.ComponentizedBuilder<",
                                           "Napkin.MultiStageComponentizedBuilder<"]

    /// How a path names an object that is not traced: its type.
    private static func typeName(_ object: AnyObject) -> String {
        String(describing: type(of: object))
    }

    // MARK: - Result

    /// The graph and counts, with `target`'s node as the graph's target.
    /// Call before ``release()``: the object is identified by address.
    func summary(target: LiveObjects.Entry) -> Summary {
        guard let object = target.reference.load() else {
            return Summary(graph: nil, visited: 0, truncated: false, unsearched: [])
        }
        let identifier = ObjectIdentifier(object)
        return withExtendedLifetime(object) { state.withLock { s in
            guard let index = s.index[identifier] else {
                return Summary(graph: nil, visited: s.visited, truncated: s.truncated, unsearched: s.unsearched)
            }
            let graph = ReferenceGraph(nodes: s.nodes, target: index, roots: s.roots)
            return Summary(graph: graph, visited: s.visited, truncated: s.truncated, unsearched: s.unsearched)
        } }
    }
}
