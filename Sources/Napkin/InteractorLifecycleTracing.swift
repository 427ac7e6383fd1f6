import NapkinTrace

/// What an ``InteractorLifecycle`` writes to a trace beyond its transitions:
/// its creation record, once, and, when a traced router adopts it, its
/// creation record and current state (see ``Router``, docs/lifecycle.md 7.2).
extension InteractorLifecycle {
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
            trace.tracer.emit(.interactorCreated(id: trace.id, type: ownerType.map(traceName(of:)) ?? "Interactor"),
                              at: createdAt)
        }
    }
}
