import NapkinTrace
import Synchronization

/// The active state of one interactor: its transitions, the tasks bound to its
/// active scope and the observers of its state.
///
/// Every ``Interactable`` owns one (`nonisolated let lifecycle = InteractorLifecycle()`);
/// the protocol's default `activate()`, `deactivate()`, `task(_:)`,
/// `isActive` and `isActiveStream` forward to it. Every member is safe to
/// call from any actor or thread. Its guarantees (serialised, idempotent
/// transitions; `isActive` from the start of an activation to the end of a
/// deactivation; bound tasks cancelled after `willResignActive`) and the
/// trace it reports to are in docs/lifecycle.md (sections 2 and 7); how it
/// keeps them (one runner, one lock, two atomics) in docs/internals.md, "The
/// interactor lifecycle". Bound tasks are in `InteractorLifecycleTasks.swift`,
/// the trace records of adoption in `InteractorLifecycleTracing.swift`.
public final class InteractorLifecycle: Sendable {
    // MARK: - State

    /// Where the lifecycle is: at rest, or running a hook.
    enum Phase: Sendable { case inactive, activating, active, deactivating }

    /// A task bound to the active scope, still running.
    struct BoundTask: Sendable {
        /// Its handle, to cancel it.
        let task: Task<Void, Never>
        /// The task's id in the trace; 0 while the lifecycle is untraced.
        var traceID: NodeID
        /// The name given with `task(named:)`, to announce the task if the lifecycle is adopted.
        let label: String?
    }

    /// Everything behind the lock.
    struct State: Sendable {
        /// The transition in progress, or the state at rest.
        var phase: Phase = .inactive
        /// The state most recently requested.
        var desired = false
        /// Whether a caller is running transitions (the runner).
        var running = false
        /// The bound tasks still running, by key.
        var tasks: [UInt64: BoundTask] = [:]
        /// The key the next bound task gets.
        var nextTaskKey: UInt64 = 0
        /// Tasks that finished before their handle was stored.
        var finishedEarly: Set<UInt64> = []
        /// Keys below this were handed out before the last cancellation sweep.
        var cancelledBelow: UInt64 = 0
        /// The `isActiveStream` continuations, by key.
        var streams: [UInt64: AsyncStream<Bool>.Continuation] = [:]
        /// The key the next stream gets.
        var nextStreamKey: UInt64 = 0
        /// The binding an adoption installed (nil for a lifecycle traced from
        /// creation or untraced): a task that started untraced finds its trace
        /// here when it ends, even after the lifecycle is gone.
        var adoption: TraceBinding?
        /// Ids the adoption gave to tasks that started untraced, by task key, until they end.
        var adoptedTasks: [UInt64: NodeID] = [:]
    }

    /// Captured strongly by bound tasks (never the lifecycle itself, which they must not keep alive).
    let state = Locked(State())
    /// Whether the interactor's creation record has been written.
    let announced = Atomic<Bool>(false)
    /// Where this interactor reports: the bits of a retained `Tracer`
    /// reference, 0 while untraced. Set at creation when tracing is on, or by
    /// an adoption (with `state`'s lock held), at most once; read without a
    /// lock; released at deinit. An `Atomic<UInt>` rather than an
    /// `AtomicLazyReference`, whose unspecialised `load()` looks up generic
    /// metadata on every call: this load sits on every transition, traced or not.
    /// ``boundID`` is stored first, so whoever loads the tracer sees the id.
    let boundTracer = Atomic<UInt>(0)
    /// This interactor's id in ``boundTracer``'s trace (written once, before the tracer).
    private let boundID = Atomic<NodeID>(0)
    /// The line that created the interactor, when it was created traced and
    /// the call stack gives one (see `CreationSite`): its creation record names it.
    let createdAt: CodeLocation?

    /// The binding, or nil (one atomic load); constant nil when hooks are compiled out.
    @inline(__always)
    var trace: TraceBinding? {
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
    func bind(to tracer: Tracer) -> TraceBinding {
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

    // MARK: - Transitions and state

    /// Creates an inactive lifecycle.
    public init() {
        let tracer = tracerForNewObject()
        createdAt = tracer == nil ? nil : CreationSite.location(skippingInitializersOf: nil)
        if let tracer {
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
            case .inactive, .active, nil:
                return
            }
        }
    }

    // MARK: - Going away

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
