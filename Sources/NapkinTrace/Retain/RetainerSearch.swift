import Dispatch

/// The retainer search: which strong references hold a router or interactor
/// that should have gone, found where the objects live.
///
/// It walks the strong references of every traced object still alive
/// (``LiveObjects``), of the roots the app named
/// (``NapkinTrace/retainerRoot(_:named:)``) and of the object itself, and
/// of everything they reach (``HeapWalk``), then explains every reference
/// into the object by a path (``ReferenceGraph``).
///
/// Where it reads (``Site``), decided so that a read can neither hurt the
/// app nor join references of two moments (`docs/detect.md`, "Who retains
/// it"):
/// - On Linux and macOS, in a frozen copy of the process: a forked child
///   with one thread walks the heap as it was at the fork, and sends back
///   names and numbers (``WalkResult``). The app's process holds nothing
///   the app lets go, waits for no actor, and a read that goes wrong kills
///   only the child (``Platform/startReader(timeoutMS:_:)``).
/// - Elsewhere (iOS), in the app's process, in one step on the main actor
///   of at most ``inPlaceStep``: only `let` fields, and the `var` fields of
///   objects isolated to the main actor by construction (napkin's routers).
///   What it may not read is named in the note.
///
/// Either way a search is bounded (``Limits``, and a deadline for the
/// whole search, the wait included), runs no code of the app's, and the
/// runtime's count of the object's references is read at the moment of the
/// walk.
package enum RetainerSearch {
    /// How far a search may go.
    package struct Limits: Sendable {
        /// The most objects it reads.
        package var objects: Int
        /// The longest it reads in a snapshot (the whole search may take a
        /// second more: the copy, and the answer's way back).
        package var time: Duration
        /// The most values and collection elements it reads, in all.
        package var values: Int
        /// The longest one in-place step holds the main actor (one frame,
        /// ``RetainerSearch/inPlaceStep``, unless a test asks for more).
        package var inPlaceStep: Duration

        /// Limits (100,000 objects, 2 s and 2,000,000 values by default).
        package init(objects: Int = 100_000, time: Duration = .seconds(2), values: Int = 2_000_000,
                     inPlaceStep: Duration = RetainerSearch.inPlaceStep) {
            self.objects = objects
            self.time = time
            self.values = values
            self.inPlaceStep = inPlaceStep
        }

        /// The reading time in milliseconds.
        var milliseconds: Int {
            let (seconds, attoseconds) = time.components
            return Int(max(seconds, 0)) * 1000 + Int(max(attoseconds, 0) / 1_000_000_000_000_000)
        }
    }

    /// Where a search reads.
    package enum Site: Sendable, Equatable {
        /// A forked copy of the process (Linux, macOS).
        case snapshot
        /// The app's process, in one bounded main-actor step.
        case inPlace

        /// The platform's: a snapshot where the platform can fork.
        package static var `default`: Site { Platform.canSnapshot ? .snapshot : .inPlace }
    }

    /// The longest one in-place step holds the main actor (one frame).
    package static let inPlaceStep: Duration = .milliseconds(12)

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
    /// nil when it is not kept there or went before the search. Waits on a
    /// thread of its own, never on the caller's executor.
    package static func run(target: NodeID, in objects: LiveObjects, context: Context,
                            limits: Limits = Limits(), site: Site = .default) async -> Retainers? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .utility).async {
                continuation.resume(returning: runWaiting(target: target, in: objects, context: context, limits: limits, site: site))
            }
        }
    }

    /// How long, beyond its reading time, a caller lets a search wait for
    /// the copy of the process or the main actor (seconds).
    package static let patienceSeconds = 1

    /// ``run(target:in:context:limits:site:)`` from a thread that may wait
    /// (the detector's reporting thread, a queue's; never the main thread):
    /// waits at most the search's time and ``patienceSeconds`` more, and
    /// stops at once when ``SearchCutShort`` says the process is exiting,
    /// then gives up with a result that says so. Nil when the object is gone.
    package static func runWaiting(target: NodeID, in objects: LiveObjects, context: Context,
                                   limits: Limits = Limits(), site: Site = .default) -> Retainers? {
        if SearchCutShort.isSet { return SearchCutShort.result }
        let outcome: WalkOutcome
        switch site {
        case .snapshot: outcome = readSnapshot(target: target, in: objects, context: context, limits: limits)
        case .inPlace: outcome = readInPlace(target: target, in: objects, context: context, limits: limits)
        }
        switch outcome {
        case .gone:
            return nil
        case .notSearched(let why):
            if SearchCutShort.isSet { return SearchCutShort.result }
            return Retainers(paths: [], found: 0, total: nil, note: "Not searched: \(why).")
        case .walked(let result, let seeds):
            return retainers(from: result, seeds: seeds, context: context)
        }
    }

    /// What one walk gave.
    private enum WalkOutcome {
        case gone
        case notSearched(String)
        case walked(WalkResult, seeds: (traced: Int, roots: Int))
    }

    // MARK: - Where it reads

    /// Held while a search makes its seeds and copies the process (not
    /// while it waits for the answer): making a seed holds its object for
    /// an instant, which a copy made meanwhile by another search would
    /// count as a reference.
    private static let copyTurn = Locked(0)

    /// The seeds: the named roots, then every traced object alive, in id
    /// order; and the target. Holds no object when it returns.
    private static func seeds(target: NodeID, in objects: LiveObjects, context: Context)
        -> (seeds: [HeapWalk.Seed], target: WeakReference, counts: (traced: Int, roots: Int))? {
        guard let targetEntry = objects.entry(target) else { return nil }
        var seeds: [HeapWalk.Seed] = []
        let roots = RetainerRoots.alive()
        for root in roots {
            seeds.append(HeapWalk.Seed(name: root.name, reference: root.reference, expectedAlive: true, isNamedRoot: true))
        }
        let entries = objects.aliveEntries()
        for entry in entries {
            seeds.append(HeapWalk.Seed(name: entry.name, reference: entry.reference,
                                       expectedAlive: context.expectedAlive.contains(entry.id),
                                       isRouter: entry.kind == .router, isInteractor: entry.kind == .interactor))
        }
        return (seeds, targetEntry.reference, (entries.count, roots.count))
    }

    /// A walk in a forked copy of the process.
    private static func readSnapshot(target: NodeID, in objects: LiveObjects, context: Context, limits: Limits) -> WalkOutcome {
        let walk = HeapWalk(policy: .snapshot, limits: .init(objects: limits.objects, values: limits.values,
                                                             nanoseconds: UInt64(limits.milliseconds) * 1_000_000))
        let timeout = limits.milliseconds + patienceSeconds * 1000
        ReferenceWalker.prepare()
        // A child that does not answer in time most likely waits for a lock
        // another thread held at the copy: another copy, at another moment.
        let attemptTimeout = limits.milliseconds + 1_000
        let deadline = MonotonicClock.now() &+ UInt64(timeout + limits.milliseconds) &* 1_000_000
        var attempt = 0
        while true {
            attempt += 1
            let started = copyTurn.withLock { copies -> (Result<Platform.SnapshotReader, Platform.SnapshotFailure>, (traced: Int, roots: Int))? in
                copies &+= 1
                guard let (seeds, reference, counts) = Self.seeds(target: target, in: objects, context: context) else { return nil }
                let reader = Platform.startReader(timeoutMS: attemptTimeout, stallMS: Self.stallMilliseconds) { heartbeat in
                    SnapshotChild.enter()
                    return walk.run(seeds: seeds, target: reference, heartbeat: heartbeat).encoded()
                }
                return (reader, counts)
            }
            guard let (reader, counts) = started else { return .gone }
            let outcome: Platform.SnapshotOutcome
            switch reader {
            case .failure(let failure): outcome = .failed(failure.why)
            case .success(let child): outcome = Platform.collect(child, cancelled: { SearchCutShort.isSet })
            }
            switch outcome {
            case .failed(let why):
                return .notSearched(why)
            case .timedOut(let why):
                if attempt >= snapshotAttempts || MonotonicClock.now() &+ UInt64(Self.stallMilliseconds) &* 1_000_000 > deadline {
                    return .notSearched(why)
                }
            case .crashed(let why):
                // Another moment: a store in progress at this one tore a value.
                if attempt >= snapshotAttempts { return .notSearched(why + (attempt > 1 ? ", \(attempt) times" : "")) }
                Platform.sleep(microseconds: 2_000)
            case .finished(let bytes):
                guard let result = WalkResult(decoding: bytes) else {
                    return .notSearched("the snapshot's reader sent back an incomplete answer")
                }
                return result.isGone ? .gone : .walked(result, seeds: counts)
            }
        }
    }

    /// How long a snapshot's reader may stay silent before it is taken for
    /// stuck on a lock another thread held at the copy (it beats every
    /// 20 ms while it reads): long enough for a busy machine's scheduler.
    static let stallMilliseconds = 2_000

    /// Copies made, at most, when the reader of one dies on a signal.
    static let snapshotAttempts = 5

    /// A walk in the app's process, in one step on the main actor.
    private static func readInPlace(target: NodeID, in objects: LiveObjects, context: Context, limits: Limits) -> WalkOutcome {
        let (seconds, attoseconds) = limits.inPlaceStep.components
        let step = UInt64(seconds) * 1_000_000_000 + UInt64(attoseconds / 1_000_000_000)
        let walk = HeapWalk(policy: .inPlace, limits: .init(objects: min(limits.objects, 10_000),
                                                            values: min(limits.values, 100_000), nanoseconds: step))
        let outcome = Locked<WalkOutcome?>(nil)
        let abandoned = Locked(false)
        let done = DispatchSemaphore(value: 0)
        Task.detached(priority: .utility) {
            let result = await MainActor.run { () -> WalkOutcome? in
                // Given up on while it waited: it reads nothing.
                guard !abandoned.withLock({ $0 }) else { return nil }
                guard let (seeds, reference, counts) = Self.seeds(target: target, in: objects, context: context) else { return .gone }
                let result = walk.run(seeds: seeds, target: reference)
                return result.isGone ? .gone : .walked(result, seeds: counts)
            }
            outcome.withLock { $0 = result }
            done.signal()
        }
        let wait = limits.milliseconds + patienceSeconds * 1000
        let deadline = DispatchTime.now() + .milliseconds(wait)
        while done.wait(timeout: min(deadline, .now() + .milliseconds(20))) == .timedOut {
            if SearchCutShort.isSet || DispatchTime.now() >= deadline {
                abandoned.withLock { $0 = true }
                return .notSearched(SearchCutShort.isSet ? "cut short: the process was exiting"
                                    : "the main actor did not let the search run within \(wait) ms; it is blocked or very busy")
            }
        }
        return outcome.withLock { $0 } ?? .notSearched("the main actor did not let the search run")
    }

    /// The paths and the note a walk gives.
    private static func retainers(from result: WalkResult, seeds: (traced: Int, roots: Int), context: Context) -> Retainers? {
        guard let graph = result.graph else { return nil }
        let total = result.total
        let (found, paths) = graph.paths()
        if let total, found > total {
            // Never "2 of 1": a path that counts what is not there is not shown.
            return Retainers(paths: [], found: 0, total: total,
                             note: "Not shown: the search found more references than the runtime counts (\(found) of \(total)), so one of its paths is wrong.")
        }
        let note = Self.note(found: found, total: total ?? found, result: result, rootCount: seeds.roots,
                             tracedCount: seeds.traced, runningTasks: context.runningTasks)
        return Retainers(paths: paths, found: found, total: total, note: note)
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

    /// The most things not read a note names.
    static let maxUnsearchedNamed = 4

    /// One sentence for references the paths do not account for, or nil.
    static func note(found: Int, total: Int, result: WalkResult, rootCount: Int,
                     tracedCount: Int, runningTasks: [String]) -> String? {
        guard found < total || result.truncated else { return nil }
        var text = "searched \(result.visited) object\(result.visited == 1 ? "" : "s") reached from \(tracedCount) traced object\(tracedCount == 1 ? "" : "s")"
        if rootCount > 0 { text += " and \(rootCount) named root\(rootCount == 1 ? "" : "s")" }
        if found == 0 {
            text += ": no strong reference to it found"
        } else if found < total {
            let missing = total - found
            text += ": \(missing) reference\(missing == 1 ? "" : "s") not found"
        }
        if found < total {
            text += "; it can still be held by a global or static variable, a singleton not named with NapkinTrace.retainerRoot, a running task or a closure not stored in a property, or an unowned(unsafe) or Unmanaged reference"
        }
        if !runningTasks.isEmpty { text += "; still running: " + runningTasks.prefix(3).joined(separator: ", ") }
        if !result.unsearched.isEmpty {
            let named = result.unsearched.sorted()
            text += "; not read: " + named.prefix(maxUnsearchedNamed).joined(separator: ", ")
            if named.count > maxUnsearchedNamed { text += " and \(named.count - maxUnsearchedNamed) more" }
        }
        if result.truncated { text += "; the search stopped at its limit (\(result.visited) objects, or its time)" }
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

    /// The most searches one call of ``explain(_:state:tracer:limits:)`` runs.
    package static let maxSearchesPerCall = 20
}
