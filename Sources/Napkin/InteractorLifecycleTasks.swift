import NapkinTrace

/// The tasks an ``InteractorLifecycle`` binds to its active scope: starting
/// one (traced as the lifecycle is, or adopted later), forgetting it when it
/// returns, cancelling them at a deactivation or at deinit.
extension InteractorLifecycle {
    /// Starts `work` in a new task bound to the active scope: it is cancelled
    /// when the interactor deactivates or is deallocated.
    ///
    /// A task registered while the interactor is inactive runs too (and is
    /// cancelled at the next deactivation); the trace flags it.
    @discardableResult
    public func register(priority: TaskPriority? = nil, _ work: @Sendable @escaping () async -> Void) -> Task<Void, Never> {
        register(label: nil, ownerType: nil, priority: priority, work)
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
    static func cancel(_ tasks: [BoundTask], reportingTo trace: TraceBinding?) {
        for bound in tasks {
            if let trace, bound.traceID != 0 { trace.tracer.emit(.taskCancel(task: bound.traceID)) }
            bound.task.cancel()
        }
    }
}
