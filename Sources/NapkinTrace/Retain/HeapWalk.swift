/// One retainer search's walk, in one go on one thread: from the named
/// roots and the traced objects alive, breadth first, every strong
/// reference ``ReferenceWalker`` may read under its policy, into a graph
/// of names (``WalkResult``) that holds no object.
///
/// It runs where nothing can change under it: in a forked child, a frozen
/// copy of the process with one thread (``ReferenceWalker/Policy/snapshot``),
/// or in the app's process in one step on the main actor, reading only what
/// no other thread can change (``ReferenceWalker/Policy/inPlace``). Either
/// way every reference it records existed at one moment, and the count of
/// the object's strong references is read at that moment too, before the
/// walk holds anything.
///
/// The objects it reaches are held until it returns (so no address is
/// reused by another object while it runs); in the child that costs the
/// app nothing, and in the app's process the step is bounded (``Limits``).
struct HeapWalk {
    /// What the walk starts from: a named root or a traced object.
    struct Seed: Sendable {
        let name: String
        let reference: WeakReference
        var expectedAlive = false
        var isRouter = false
        var isInteractor = false
        var isNamedRoot = false
    }

    /// How far it may go.
    struct Limits: Sendable {
        /// Objects read, at most.
        var objects: Int
        /// Values and collection elements read, at most, in all.
        var values: Int
        /// Reading time, at most (ns).
        var nanoseconds: UInt64
    }

    let policy: ReferenceWalker.Policy
    let limits: Limits

    /// Walks from `seeds` and explains `target`; calls `heartbeat` about
    /// every 20 ms while it reads.
    func run(seeds: [Seed], target: WeakReference, heartbeat: @escaping () -> Void = {}) -> WalkResult {
        heartbeat()
        // The count first, before the walk holds anything.
        guard let total = RetainerSearch.strongReferences(to: target) else { return .gone }
        guard let targetObject = target.load() else { return .gone }
        let targetID = ObjectIdentifier(targetObject)
        let budget = ReferenceWalker.Budget(values: limits.values,
                                            deadline: MonotonicClock.now() &+ limits.nanoseconds)
        budget.heartbeat = heartbeat
        var beatAt = MonotonicClock.now()
        var result = WalkResult()
        result.total = total
        var objects: [AnyObject] = []
        var index: [ObjectIdentifier: Int] = [:]
        var queue: [Int] = []
        /// Each class's name and whether it is napkin's plumbing, worked out once.
        var names: [ObjectIdentifier: (String, Bool)] = [:]

        func add(_ object: AnyObject, _ node: ReferenceGraph.Node) -> Int {
            let id = ObjectIdentifier(object)
            if let known = index[id] { return known }
            let position = result.nodes.count
            result.nodes.append(node)
            objects.append(object)
            index[id] = position
            queue.append(position)
            return position
        }

        for seed in seeds {
            guard let object = seed.reference.load() else { continue }
            var node = ReferenceGraph.Node(name: seed.name)
            node.expectedAlive = seed.expectedAlive
            node.isRouter = seed.isRouter
            node.isInteractor = seed.isInteractor
            node.isNamedRoot = seed.isNamedRoot
            let position = add(object, node)
            if !result.roots.contains(position) { result.roots.append(position) }
        }

        var head = 0
        while head < queue.count {
            if result.visited >= limits.objects || budget.checkDeadline() {
                result.truncated = true
                break
            }
            let position = queue[head]
            head += 1
            if head % 64 == 0, MonotonicClock.now() &- beatAt > 20_000_000 {
                heartbeat()
                beatAt = MonotonicClock.now()
            }
            let (references, unsearched) = ReferenceWalker.references(of: objects[position], policy: policy, budget: budget,
                                                                          onlyFirstExcept: targetID)
            var edges: [ReferenceGraph.Edge] = []
            edges.reserveCapacity(references.count)
            for reference in references {
                let to: Int
                if let known = index[ObjectIdentifier(reference.object)] {
                    to = known
                } else {
                    let type = ObjectIdentifier(Swift.type(of: reference.object))
                    let (name, isPlumbing) = names[type] ?? {
                        let named = (Self.typeName(reference.object), Self.isNapkinPlumbing(reference.object))
                        names[type] = named
                        return named
                    }()
                    var node = ReferenceGraph.Node(name: name)
                    node.isPlumbing = isPlumbing
                    to = add(reference.object, node)
                }
                edges.append(.init(label: reference.label, to: to, holder: reference.holder))
            }
            result.nodes[position].edges = edges
            result.visited += 1
            result.unsearched.formUnion(unsearched)
            if budget.isExhausted { result.truncated = true }
        }
        result.target = index[targetID]
        withExtendedLifetime(targetObject) {}
        withExtendedLifetime(objects) {}
        return result
    }

    // MARK: - Names

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

    /// How a path names an object that is not traced: its type (the
    /// runtime's name, never the app's `description`).
    private static func typeName(_ object: AnyObject) -> String {
        _typeName(type(of: object), qualified: false)
    }
}

/// Whether this process is a snapshot's reader (a forked child): there the
/// walk takes none of the caches' locks, which another thread of the app
/// may have held at the fork (and holds forever in the child).
enum SnapshotChild {
    /// Set once, in the child, before it walks; the child has one thread.
    nonisolated(unsafe) private(set) static var isCurrent = false

    /// Marks this process as a snapshot's reader (call in the child only).
    static func enter() {
        isCurrent = true
    }
}
