import Dispatch

/// The retainer search: which strong references hold a router or interactor
/// that should have gone, found where the objects live.
///
/// It walks the strong references of every traced object still alive
/// (``LiveObjects``), of the roots the app named
/// (``NapkinTrace/retainerRoot(_:named:)``) and of the object itself, and
/// of everything they reach, then explains every reference into the object
/// by a path (``ReferenceGraph``).
///
/// Isolation: an object is read only in the isolation that guards its
/// mutable state. An actor (an interactor) is read isolated to it, with
/// everything reached only through it (what its state holds is in its
/// region); every other object is read on the main actor, where routers,
/// views and the app's UI state live. So a read never races with the code
/// that writes the field, and the thread sanitizer sees none. What this
/// cannot guard: a class the app shares across threads behind a lock of its
/// own (`@unchecked Sendable`) is read on the main actor without that lock.
/// `docs/detect.md`, "Who retains it", says so.
///
/// Lifetimes: the objects the walk reaches are held while it runs (at most
/// ``Limits/time``) and let go on the main actor before it returns
/// (``Exploration``); nothing is held past the search. An object is only
/// ever reached through a weak reference (which is nil once its deinit
/// started) or a strong field of an object held, so the search never
/// retains an object that is going away. If the object itself goes during
/// the search, there is nothing to explain and the result is nil.
///
/// Cost: nothing until a finding asks; then bounded by ``Limits`` (objects
/// visited and time), measured in `docs/benchmarks.md`. The main actor and
/// each actor are taken for at most ``Exploration/objectsPerStep`` objects
/// at a time, so the app's own work runs between steps.
package enum RetainerSearch {
    /// How far a search may go.
    package struct Limits: Sendable {
        /// The most objects it reads.
        package var objects: Int
        /// The longest it reads (the time spent walking objects, not the
        /// wait for the main actor or an actor to let it).
        package var time: Duration

        /// Limits (100,000 objects, 2 s by default).
        package init(objects: Int = 100_000, time: Duration = .seconds(2)) {
            self.objects = objects
            self.time = time
        }
    }

    /// What the trace knows that the walk uses.
    package struct Context: Sendable {
        /// Routers in the live tree and their interactors: objects meant to be alive.
        package var expectedAlive: Set<NodeID>
        /// Tasks still running that could hold the object (`LoggedInInteractor#5 'poller'`).
        package var runningTasks: [String]

        /// A context.
        package init(expectedAlive: Set<NodeID> = [], runningTasks: [String] = []) {
            self.expectedAlive = expectedAlive
            self.runningTasks = runningTasks
        }

        /// The context a trace's state gives for `target`: the live tree,
        /// and the tasks running for the target (its own, or its
        /// interactor's when it is a router).
        package init(state: TraceState, target: NodeID) {
            var expected: Set<NodeID> = []
            for placed in state.liveTree() {
                expected.insert(placed.node.id)
                if let interactor = placed.node.interactor, state[interactor]?.isActive == true {
                    expected.insert(interactor)
                }
            }
            let owner = state[target].flatMap { $0.kind == .router ? $0.interactor : $0.id }
            let tasks = state.runningTasks().filter { $0.owner == owner }
                .map { "\($0.ownerType)#\($0.owner) \($0.displayName)" }
            self.init(expectedAlive: expected, runningTasks: tasks)
        }
    }

    /// Searches what holds the object traced as `target` in `objects`;
    /// nil when it is not kept there or went during the search.
    package static func run(target: NodeID, in objects: LiveObjects, context: Context,
                            limits: Limits = Limits()) async -> Retainers? {
        await SearchTurns.shared.run { await search(target: target, in: objects, context: context, limits: limits) }
    }

    /// One search, in its turn.
    private static func search(target: NodeID, in objects: LiveObjects, context: Context,
                               limits: Limits) async -> Retainers? {
        guard let targetEntry = objects.entry(target), targetEntry.reference.isAlive else { return nil }
        let exploration = Exploration(limits: limits)
        let entries = objects.aliveEntries()
        let roots = RetainerRoots.alive()
        exploration.seed(entries: entries, roots: roots, context: context)
        while let batch = exploration.nextBatch() {
            switch batch.domain {
            case .main:
                let left = await MainActor.run { exploration.expand(batch.items) }
                exploration.requeue(left, in: batch.domain)
            case .actor(let node):
                guard let actor = exploration.actor(at: node) else { continue }
                let left = await expand(batch.items, isolatedTo: actor, exploration: exploration)
                exploration.requeue(left, in: batch.domain)
            }
        }
        let summary = exploration.summary(target: targetEntry)
        await MainActor.run { exploration.release() }
        guard let total = strongReferences(to: targetEntry.reference) else { return nil }
        guard let graph = summary.graph else { return nil }
        let (found, paths) = graph.paths()
        let note = Self.note(found: found, total: total, summary: summary, rootCount: roots.count,
                             tracedCount: entries.count, runningTasks: context.runningTasks)
        return Retainers(paths: paths, found: found, total: total, note: note)
    }

    /// Reads `items` isolated to `actor`; returns those left for the next step.
    private static func expand(_ items: [Int], isolatedTo actor: isolated any Actor, exploration: Exploration) -> [Int] {
        exploration.expand(items)
    }

    // MARK: - The runtime's count

    /// Strong references to the object `reference` names, this function's
    /// own excluded (calibrated on an object held once); nil once it is gone.
    static func strongReferences(to reference: WeakReference) -> Int? {
        let probe = CountProbe()
        let probeReference = WeakReference(probe)
        let own = withExtendedLifetime(probe) { retainCount(probeReference) ?? 1 } - 1
        guard let measured = retainCount(reference) else { return nil }
        return max(measured - own, 0)
    }

    @inline(never)
    private static func retainCount(_ reference: WeakReference) -> Int? {
        guard let object = reference.load() else { return nil }
        return withExtendedLifetime(object) { Int(_getRetainCount(object)) }
    }

    /// An object held by exactly one local reference, to calibrate the count.
    private final class CountProbe {}

    // MARK: - The note

    /// One sentence for references the paths do not account for, or nil.
    static func note(found: Int, total: Int, summary: Exploration.Summary, rootCount: Int,
                     tracedCount: Int, runningTasks: [String]) -> String? {
        guard found < total || summary.truncated else { return nil }
        var text = "searched \(summary.visited) object\(summary.visited == 1 ? "" : "s") reached from \(tracedCount) traced object\(tracedCount == 1 ? "" : "s")"
        if rootCount > 0 { text += " and \(rootCount) named root\(rootCount == 1 ? "" : "s")" }
        if found == 0 {
            text += ": no strong reference to it found"
        } else if found < total {
            text += ": \(total - found) more not found"
        }
        if found < total {
            text += "; it can still be held by a global or static variable, a singleton not named with NapkinTrace.retainerRoot, a running task or a closure not stored in a property, or an unowned(unsafe) or Unmanaged reference"
        }
        if !runningTasks.isEmpty { text += "; still running: " + runningTasks.prefix(3).joined(separator: ", ") }
        if !summary.unsearched.isEmpty { text += "; not read: " + summary.unsearched.sorted().joined(separator: ", ") }
        if summary.truncated { text += "; the search stopped at its limit (\(summary.visited) objects, or its time)" }
        return text.prefix(1).uppercased() + text.dropFirst() + "."
    }
}

// MARK: - Which findings ask

extension RetainerSearch {
    /// Whether `finding` is about a router or interactor alive past when it
    /// should have gone, so that what holds it explains it
    /// (``Finding/Rule/searchesRetainers``).
    package static func asks(_ finding: Finding) -> Bool {
        finding.isExplainedByRetainers
    }

    /// Explains every finding that ``asks(_:)`` (at most
    /// ``maxSearchesPerCall``, one search per object), records each result
    /// in `tracer`'s trace (a `retained` record) and returns the findings
    /// with their ``Finding/retainers``. `state` is the trace's state now.
    package static func explain(_ findings: [Finding], state: TraceState, tracer: Tracer,
                                limits: Limits = Limits()) async -> [Finding] {
        var results: [NodeID: Retainers] = [:]
        var searched = 0
        var explained = findings
        for index in explained.indices where asks(explained[index]) {
            let id = explained[index].id
            if results[id] == nil && searched < maxSearchesPerCall {
                searched += 1
                if let found = await run(target: id, in: tracer.liveObjects, context: Context(state: state, target: id), limits: limits) {
                    results[id] = found
                    tracer.recordRetainers(found, of: id)
                }
            }
            explained[index].retainers = results[id]
        }
        return explained
    }

    /// How long, beyond its reading time, a waiting caller lets a search
    /// wait for the main actor and the actors it reads (seconds).
    package static let patienceSeconds = 5

    /// The most searches one call of ``explain(_:state:tracer:limits:)`` runs.
    package static let maxSearchesPerCall = 20

    /// ``run(target:in:context:limits:)`` from a thread that may wait
    /// (the detector's reporting thread; never the main thread): waits at
    /// most the search's time and ``patienceSeconds`` more, then gives up with a
    /// result that says so (the main actor or the object's actor did not
    /// run: blocked, or too busy). Nil when the object is gone.
    package static func runWaiting(target: NodeID, in objects: LiveObjects, context: Context,
                                   limits: Limits = Limits()) -> Retainers? {
        let outcome = Locked<Retainers??>(nil)
        let done = DispatchSemaphore(value: 0)
        Task.detached(priority: .utility) {
            let found = await run(target: target, in: objects, context: context, limits: limits)
            outcome.withLock { $0 = .some(found) }
            done.signal()
        }
        let (seconds, _) = limits.time.components
        let wait = Int(seconds) + patienceSeconds
        let deadline = DispatchTime.now() + .seconds(wait)
        while done.wait(timeout: min(deadline, .now() + .milliseconds(20))) == .timedOut {
            if SearchCutShort.isSet { return SearchCutShort.result }
            if DispatchTime.now() >= deadline {
                return Retainers(paths: [], found: 0, total: nil,
                                 note: "Not searched: the main actor (or the object's actor) did not let the search run within \(wait) s; it is blocked or very busy.")
            }
        }
        return outcome.withLock { $0 } ?? nil
    }
}
