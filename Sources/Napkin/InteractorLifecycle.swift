import NapkinTrace
import Synchronization

/// The active state of one interactor: its transitions, the tasks bound to its
/// active scope and the observers of its state.
///
/// Every ``Interactable`` owns one (`nonisolated let lifecycle = InteractorLifecycle()`);
/// the protocol's default `activate()`, `deactivate()`, `task(_:)`,
/// `isActive` and `isActiveStream` forward to it.
///
/// ## Guarantees
/// - Transitions are serialised: one caller at a time (the *runner*) runs
///   `didBecomeActive` or `willResignActive`. A caller that arrives while a
///   transition is running records the state it wants and returns at once;
///   the runner, when its hook returns, moves on to the most recently
///   requested state. So `activate`/`deactivate` are idempotent, two
///   concurrent deactivations run `willResignActive` exactly once, a request
///   made from inside a hook (a child that detaches itself while activating)
///   is never lost and never deadlocks.
/// - `isActive` is `true` from the moment activation starts (before
///   `didBecomeActive`) until deactivation finishes (after `willResignActive`).
/// - Deactivation calls `willResignActive`, then marks the lifecycle inactive,
///   yields `false` to every `isActiveStream`, then cancels the bound tasks.
/// - Deinit cancels the remaining bound tasks and finishes every stream.
///
/// All state is guarded by one lock (a pthread mutex, see `Locked`) (the "creation record written" flag
/// is an atomic), so every member is safe to call from
/// any actor or thread.
public final class InteractorLifecycle: Sendable {
    private enum Phase: Sendable { case inactive, activating, active, deactivating }

    private struct BoundTask: Sendable {
        let task: Task<Void, Never>
        let traceID: NodeID
    }

    private struct State: Sendable {
        var phase: Phase = .inactive
        var desired = false
        var running = false
        var tasks: [UInt64: BoundTask] = [:]
        var nextTaskKey: UInt64 = 0
        /// Tasks that finished before their handle was stored.
        var finishedEarly: Set<UInt64> = []
        /// Keys below this were handed out before the last cancellation sweep.
        var cancelledBelow: UInt64 = 0
        var streams: [UInt64: AsyncStream<Bool>.Continuation] = [:]
        var nextStreamKey: UInt64 = 0
    }

    private let state = Locked(State())
    /// Whether the interactor's creation record has been written.
    private let announced = Atomic<Bool>(false)
    /// Where this interactor's transitions are traced; `nil` when tracing was off at creation.
    package var tracer: Tracer? { traced(storedTracer) }
    private let storedTracer: Tracer?
    /// This interactor's id in the trace (0 when untraced).
    package let traceID: NodeID

    /// Creates an inactive lifecycle.
    public init() {
        let tracer = tracerForNewObject()
        self.storedTracer = tracer
        self.traceID = tracer?.nextID() ?? 0
    }

    /// Whether the interactor is active (including while it activates or resigns).
    public var isActive: Bool {
        get async { isActiveNow }
    }

    /// The same as ``isActive``, read synchronously.
    package var isActiveNow: Bool {
        state.withLock { $0.phase != .inactive }
    }

    /// A new stream that yields the current state first, then every change,
    /// and finishes when the lifecycle is deallocated. Each access makes an
    /// independent stream.
    public var isActiveStream: AsyncStream<Bool> {
        AsyncStream { continuation in
            let key = state.withLock { s in
                let key = s.nextStreamKey
                s.nextStreamKey &+= 1
                s.streams[key] = continuation
                continuation.yield(s.phase != .inactive)
                return key
            }
            continuation.onTermination = { [weak self] _ in
                self?.state.withLock { _ = $0.streams.removeValue(forKey: key) }
            }
        }
    }

    /// Activates: marks the lifecycle active, then runs `didBecomeActive`.
    /// Idempotent; see the type's guarantees for concurrent calls.
    ///
    /// Prefer the interactor's `activate()`: a lifecycle driven only through
    /// this method cannot run `willResignActive` for a deactivation requested
    /// while `didBecomeActive` runs; that request takes effect on the next call.
    nonisolated(nonsending) public func activate(invoking didBecomeActive: () async -> Void) async {
        await converge(to: true, ownerType: nil, didBecomeActive: didBecomeActive, willResignActive: {},
                       canActivate: true, canDeactivate: false)
    }

    /// Deactivates: runs `willResignActive`, then marks the lifecycle inactive
    /// and cancels the bound tasks. Idempotent; of concurrent callers exactly
    /// one runs `willResignActive`.
    nonisolated(nonsending) public func deactivate(invoking willResignActive: () async -> Void) async {
        await converge(to: false, ownerType: nil, didBecomeActive: {}, willResignActive: willResignActive,
                       canActivate: false, canDeactivate: true)
    }

    /// Starts `work` in a new task bound to the active scope: it is cancelled
    /// when the interactor deactivates or is deallocated.
    ///
    /// A task registered while the interactor is inactive runs too (and is
    /// cancelled at the next deactivation); the trace flags it.
    @discardableResult
    public func register(priority: TaskPriority? = nil, _ work: @Sendable @escaping () async -> Void) -> Task<Void, Never> {
        register(label: nil, ownerType: nil, priority: priority, work)
    }

    /// Moves the lifecycle to `target`, running the hooks, unless another
    /// caller is already running transitions (then it records `target` and returns).
    nonisolated(nonsending) package func converge(
        to target: Bool, ownerType: Any.Type?,
        didBecomeActive: () async -> Void, willResignActive: () async -> Void,
        canActivate: Bool = true, canDeactivate: Bool = true
    ) async {
        if tracer != nil { announce(ownerType) }
        let isRunner = state.withLock { s -> Bool in
            s.desired = target
            if s.running { return false }
            s.running = true
            return true
        }
        guard isRunner else { return }
        while true {
            let step = state.withLock { s -> Phase? in
                if s.desired && s.phase == .inactive && canActivate {
                    s.phase = .activating
                    for continuation in s.streams.values { continuation.yield(true) }
                    return .activating
                }
                if !s.desired && s.phase == .active && canDeactivate {
                    s.phase = .deactivating
                    return .deactivating
                }
                s.running = false
                return nil
            }
            switch step {
            case .activating:
                tracer?.emit(.activate(interactor: traceID))
                await didBecomeActive()
                state.withLock { $0.phase = .active }
            case .deactivating:
                tracer?.emit(.deactivate(interactor: traceID))
                await willResignActive()
                let tasks = state.withLock { s -> [BoundTask] in
                    s.phase = .inactive
                    for continuation in s.streams.values { continuation.yield(false) }
                    let tasks = Array(s.tasks.values)
                    s.tasks.removeAll()
                    s.cancelledBelow = s.nextTaskKey
                    s.finishedEarly.removeAll()
                    return tasks
                }
                cancel(tasks)
            default:
                return
            }
        }
    }

    /// Starts a bound task; `label` and `ownerType` only feed the trace.
    @discardableResult
    package func register(label: String?, ownerType: Any.Type?, priority: TaskPriority?,
                          _ work: @Sendable @escaping () async -> Void) -> Task<Void, Never> {
        let tracer = self.tracer
        if tracer != nil { announce(ownerType) }
        let taskID = tracer?.nextID() ?? 0
        let key = state.withLock { s in
            let key = s.nextTaskKey
            s.nextTaskKey &+= 1
            return key
        }
        // The start is emitted before the task exists, so it precedes the
        // task's end and any cancellation in sequence order.
        tracer?.emit(.taskStart(task: taskID, owner: traceID, label: label))
        let task = Task(priority: priority) { [weak self] in
            await work()
            tracer?.emit(.taskEnd(task: taskID, outcome: Task.isCancelled ? .cancelled : .completed))
            self?.taskFinished(key)
        }
        state.withLock { s in
            // A task that already finished removed nothing; do not keep its handle.
            if s.finishedEarly.remove(key) == nil {
                s.tasks[key] = BoundTask(task: task, traceID: taskID)
            }
        }
        return task
    }

    /// Writes the interactor's creation record, once, before its first other event.
    package func announce(_ ownerType: Any.Type?) {
        guard let tracer else { return }
        // After the first call this is one atomic load, not a lock.
        if announced.load(ordering: .relaxed) { return }
        if !announced.exchange(true, ordering: .acquiringAndReleasing) {
            tracer.emit(.interactorCreated(id: traceID, type: ownerType.map(traceName(of:)) ?? "Interactor"))
        }
    }

    private func taskFinished(_ key: UInt64) {
        state.withLock { s in
            if s.tasks.removeValue(forKey: key) == nil && key >= s.cancelledBelow {
                s.finishedEarly.insert(key)
            }
        }
    }

    private func cancel(_ tasks: [BoundTask]) {
        for bound in tasks {
            tracer?.emit(.taskCancel(task: bound.traceID))
            bound.task.cancel()
        }
    }

    deinit {
        let announced = self.announced.load(ordering: .acquiring)
        let (tasks, streams) = state.withLock { s in
            let result = (Array(s.tasks.values), Array(s.streams.values))
            s.tasks.removeAll()
            s.streams.removeAll()
            s.phase = .inactive
            return result
        }
        cancel(tasks)
        for continuation in streams { continuation.finish() }
        if announced { tracer?.emit(.deallocated(id: traceID)) }
    }
}
