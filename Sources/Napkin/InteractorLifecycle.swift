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
/// All state is guarded by one lock (a pthread mutex, see `Locked`); the
/// trace binding and the "creation record written" flag are atomics. Every
/// member is safe to call from any actor or thread.
///
/// ## Tracing
/// A lifecycle reports to the trace its interactor was created in, or, if it
/// was created untraced, to the trace of the first traced router that owns it
/// or whose subtree it joins (*adoption*, see ``Router``). The binding (tracer
/// and id) is set once and never changes; while it is unset, every trace hook
/// is one atomic load that finds nil.
///
/// A transition is recorded as `activate` (or `deactivate`) before its hook
/// runs and `hook_end` when the hook returns, so a hook that never returns
/// (a `for await` loop written in `didBecomeActive`) shows in the trace as
/// a start without an end (`stuck-hook` in `docs/findings.md`).
public final class InteractorLifecycle: Sendable {
    private enum Phase: Sendable { case inactive, activating, active, deactivating }

    private struct BoundTask: Sendable {
        let task: Task<Void, Never>
        /// The task's id in the trace; 0 while the lifecycle is untraced.
        var traceID: NodeID
        /// The name given with `task(named:)`, to announce the task if the lifecycle is adopted.
        let label: String?
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
        /// The binding an adoption installed (nil for a lifecycle traced from
        /// creation or untraced): a task that started untraced finds its trace
        /// here when it ends, even after the lifecycle is gone.
        var adoption: TraceBinding?
        /// Ids the adoption gave to tasks that started untraced, by task key, until they end.
        var adoptedTasks: [UInt64: NodeID] = [:]
    }

    /// Captured strongly by bound tasks (never the lifecycle itself, which they must not keep alive).
    private let state = Locked(State())
    /// Whether the interactor's creation record has been written.
    private let announced = Atomic<Bool>(false)
    /// Where this interactor reports: the bits of a retained `Tracer`
    /// reference, 0 while untraced. Set at creation when tracing is on, or by
    /// an adoption (with `state`'s lock held), at most once; read without a
    /// lock; released at deinit. An `Atomic<UInt>` rather than an
    /// `AtomicLazyReference`, whose unspecialised `load()` looks up generic
    /// metadata on every call: this load sits on every transition, traced or not.
    /// ``boundID`` is stored first, so whoever loads the tracer sees the id.
    private let boundTracer = Atomic<UInt>(0)
    /// This interactor's id in ``boundTracer``'s trace (written once, before the tracer).
    private let boundID = Atomic<NodeID>(0)

    /// The binding, or nil (one atomic load); constant nil when hooks are compiled out.
    @inline(__always)
    private var trace: TraceBinding? {
        #if NAPKIN_NO_TRACE_HOOKS
        return nil
        #else
        let bits = boundTracer.load(ordering: .acquiring)
        guard bits != 0, let pointer = UnsafeRawPointer(bitPattern: bits) else { return nil }
        return TraceBinding(tracer: Unmanaged<Tracer>.fromOpaque(pointer).takeUnretainedValue(),
                            id: boundID.load(ordering: .relaxed))
        #endif
    }

    /// Binds this lifecycle to `tracer` with a new id, unless it is bound
    /// already; returns the binding in force. Called at creation, or by an
    /// adoption with `state`'s lock held: never by two callers at once.
    private func bind(to tracer: Tracer) -> TraceBinding {
        if let existing = trace { return existing }
        let id = tracer.nextID()
        boundID.store(id, ordering: .relaxed)
        boundTracer.store(UInt(bitPattern: Unmanaged.passRetained(tracer).toOpaque()), ordering: .releasing)
        return TraceBinding(tracer: tracer, id: id)
    }

    /// Where this interactor's transitions are traced; `nil` while untraced
    /// (tracing was off at creation and no traced router has adopted it).
    package var tracer: Tracer? { trace?.tracer }
    /// This interactor's id in the trace (0 while untraced).
    package var traceID: NodeID { trace?.id ?? 0 }

    /// Creates an inactive lifecycle.
    public init() {
        if let tracer = tracerForNewObject() {
            _ = bind(to: tracer)
        }
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
        if trace != nil { announce(ownerType) }
        let isRunner = state.withLock { s -> Bool in
            s.desired = target
            if s.running { return false }
            s.running = true
            return true
        }
        guard isRunner else { return }
        while true {
            // The binding is read with the lock held, with the phase change: an
            // adoption (which announces the phase with the lock held) either
            // comes first and is seen here, or comes later and sees the new
            // phase. The transition is recorded once, never twice or not at all.
            let (step, trace) = state.withLock { s -> (Phase?, TraceBinding?) in
                if s.desired && s.phase == .inactive && canActivate {
                    s.phase = .activating
                    for continuation in s.streams.values { continuation.yield(true) }
                    return (.activating, self.trace)
                }
                if !s.desired && s.phase == .active && canDeactivate {
                    s.phase = .deactivating
                    return (.deactivating, self.trace)
                }
                s.running = false
                return (nil, nil)
            }
            switch step {
            case .activating:
                if let trace { trace.tracer.emit(.activate(interactor: trace.id)) }
                await didBecomeActive()
                // The end is recorded by whoever recorded the start: this
                // runner, or an adoption that came while the hook ran (read
                // with the phase change, as at the start; an adoption after
                // it records the end itself).
                let trace = state.withLock { s -> TraceBinding? in
                    s.phase = .active
                    return self.trace
                }
                if let trace { trace.tracer.emit(.hookEnd(interactor: trace.id)) }
            case .deactivating:
                if let trace { trace.tracer.emit(.deactivate(interactor: trace.id)) }
                await willResignActive()
                let (tasks, trace) = state.withLock { s -> ([BoundTask], TraceBinding?) in
                    s.phase = .inactive
                    for continuation in s.streams.values { continuation.yield(false) }
                    let tasks = Array(s.tasks.values)
                    s.tasks.removeAll()
                    s.cancelledBelow = s.nextTaskKey
                    s.finishedEarly.removeAll()
                    return (tasks, self.trace)
                }
                // The hook's end, then the cancellations it lets through.
                if let trace { trace.tracer.emit(.hookEnd(interactor: trace.id)) }
                Self.cancel(tasks, reportingTo: trace)
            default:
                return
            }
        }
    }

    /// Starts a bound task; `label`, `ownerType` and `location` (the code
    /// that started it) only feed the trace.
    @discardableResult
    package func register(label: String?, ownerType: Any.Type?, priority: TaskPriority?,
                          from location: CodeLocation? = nil,
                          _ work: @Sendable @escaping () async -> Void) -> Task<Void, Never> {
        let trace = self.trace
        if trace != nil { announce(ownerType) }
        let taskID = trace?.tracer.nextID() ?? 0
        let key = state.withLock { s in
            let key = s.nextTaskKey
            s.nextTaskKey &+= 1
            return key
        }
        // The start is emitted before the task exists, so it precedes the
        // task's end and any cancellation in sequence order.
        if let trace { trace.tracer.emit(.taskStart(task: taskID, owner: trace.id, label: label), at: location) }
        let state = self.state
        let task = Task(priority: priority) {
            await work()
            if let trace {
                trace.tracer.emit(.taskEnd(task: taskID, outcome: Task.isCancelled ? .cancelled : .completed))
            }
            // A task that started untraced and was adopted meanwhile ends in its adopter's trace.
            if let (tracer, adoptedID) = Self.taskFinished(key, in: state) {
                tracer.emit(.taskEnd(task: adoptedID, outcome: Task.isCancelled ? .cancelled : .completed))
            }
        }
        state.withLock { s in
            // A task that already finished removed nothing; do not keep its handle.
            guard s.finishedEarly.remove(key) == nil else { return }
            var id = taskID
            if id == 0, let adoption = s.adoption {
                // Adopted since `trace` was read: announce it as the adoption
                // announced the tasks it found (the lock orders the two).
                id = adoption.tracer.nextID()
                s.adoptedTasks[key] = id
                adoption.tracer.emit(.taskStart(task: id, owner: adoption.id, label: label))
            }
            s.tasks[key] = BoundTask(task: task, traceID: id, label: label)
        }
        return task
    }

    /// Makes the interactor report to `tracer`, the trace of a router that
    /// owns it or whose subtree it joins, then calls `announceRouter` with its
    /// id there (0 if it reports to another trace) for the router's creation record.
    ///
    /// - Untraced: it is *adopted*. With the lock held (so that no transition
    ///   or bound task is missed or recorded twice), it gets an id and writes
    ///   its creation record, the router's (`announceRouter`), then its state:
    ///   `activate` if active (followed by `hook_end` unless
    ///   `didBecomeActive` is still running), `task_start` (with its label)
    ///   for each bound task still running, `deactivate` if resigning (its
    ///   `hook_end` comes from the runner when `willResignActive` returns).
    /// - Traced by `tracer`: its creation record is written if it was not yet.
    /// - Traced by another tracer: it keeps it; nothing is written for it.
    package func enterTrace(_ tracer: Tracer, ownerType: Any.Type, announcingRouter announceRouter: (NodeID) -> Void) {
        if let trace {
            if trace.tracer === tracer {
                announce(ownerType)
                announceRouter(trace.id)
            } else {
                announceRouter(0)
            }
            return
        }
        let typeName = traceName(of: ownerType)
        state.withLock { s in
            // Before the binding is published: whoever sees the binding sees the flag.
            announced.store(true, ordering: .releasing)
            let wasBound = boundTracer.load(ordering: .acquiring) != 0
            let trace = bind(to: tracer)
            guard !wasBound else {
                // Adopted by another router first (a shared interactor); it did the writing.
                announceRouter(trace.tracer === tracer ? trace.id : 0)
                return
            }
            s.adoption = trace
            tracer.emit(.interactorCreated(id: trace.id, type: typeName))
            announceRouter(trace.id)
            if s.phase != .inactive { tracer.emit(.activate(interactor: trace.id)) }
            // didBecomeActive has returned unless the lifecycle is still
            // activating (then the runner records the end when it returns).
            if s.phase == .active || s.phase == .deactivating { tracer.emit(.hookEnd(interactor: trace.id)) }
            for key in s.tasks.keys.sorted() {
                let id = tracer.nextID()
                s.tasks[key]!.traceID = id
                s.adoptedTasks[key] = id
                tracer.emit(.taskStart(task: id, owner: trace.id, label: s.tasks[key]!.label))
            }
            if s.phase == .deactivating { tracer.emit(.deactivate(interactor: trace.id)) }
        }
    }

    /// Writes the interactor's creation record, once, before its first other event.
    package func announce(_ ownerType: Any.Type?) {
        guard let trace else { return }
        // After the first call this is one atomic load, not a lock.
        if announced.load(ordering: .relaxed) { return }
        if !announced.exchange(true, ordering: .acquiringAndReleasing) {
            trace.tracer.emit(.interactorCreated(id: trace.id, type: ownerType.map(traceName(of:)) ?? "Interactor"))
        }
    }

    /// Forgets the bound task `key`, which returned; returns where to record
    /// its end if it started untraced and an adoption announced it.
    private static func taskFinished(_ key: UInt64, in state: Locked<State>) -> (Tracer, NodeID)? {
        state.withLock { s in
            if s.tasks.removeValue(forKey: key) == nil && key >= s.cancelledBelow {
                s.finishedEarly.insert(key)
            }
            guard !s.adoptedTasks.isEmpty, let id = s.adoptedTasks.removeValue(forKey: key),
                  let adoption = s.adoption else { return nil }
            return (adoption.tracer, id)
        }
    }

    /// Cancels `tasks`, recording each cancellation in `trace` (tasks without an id are not in it).
    private static func cancel(_ tasks: [BoundTask], reportingTo trace: TraceBinding?) {
        for bound in tasks {
            if let trace, bound.traceID != 0 { trace.tracer.emit(.taskCancel(task: bound.traceID)) }
            bound.task.cancel()
        }
    }

    deinit {
        let announced = self.announced.load(ordering: .acquiring)
        let trace = self.trace
        let (tasks, streams) = state.withLock { s in
            let result = (Array(s.tasks.values), Array(s.streams.values))
            s.tasks.removeAll()
            s.streams.removeAll()
            s.phase = .inactive
            // Tasks still running outlive the state's owner: nothing to remember when they end.
            s.cancelledBelow = s.nextTaskKey
            s.finishedEarly.removeAll()
            return result
        }
        Self.cancel(tasks, reportingTo: trace)
        for continuation in streams { continuation.finish() }
        if announced, let trace { trace.tracer.emit(.deallocated(id: trace.id)) }
        // The reference `bind(to:)` retained.
        let bits = boundTracer.load(ordering: .acquiring)
        if bits != 0, let pointer = UnsafeRawPointer(bitPattern: bits) {
            Unmanaged<Tracer>.fromOpaque(pointer).release()
        }
    }
}
