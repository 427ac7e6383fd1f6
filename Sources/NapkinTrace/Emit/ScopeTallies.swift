import Synchronization

/// Which test made each object of the process trace: under
/// `napkin-inspect check -- swift test` every test's objects report to the
/// one process-wide tracer, and the leak check of each test waits for its
/// own objects only (a busy neighbour neither delays nor colours it).
///
/// A test runs inside ``withScope(_:_:)``, a task-local ``ScopeActivity``.
/// A router or interactor created there, and a task started by one of the
/// scope's interactors (or inside the scope), is counted in that scope when
/// its creation is traced, and uncounted when its deallocation or end is.
/// Off until the first scope: until then the tracer pays one atomic load.
package enum ScopeTallies {
    private static let on = Atomic<Bool>(false)
    /// The scope of each counted object and task, by trace id, until it goes.
    private static let owners = Locked<[NodeID: ScopeActivity]>([:])

    /// The scope of the running test, if it runs inside ``withScope(_:_:)``.
    @TaskLocal package static var scope: ScopeActivity?

    /// Whether some scope was ever opened (cheap to read on every event).
    @inline(__always)
    package static var isOn: Bool { on.load(ordering: .relaxed) }

    /// Runs `body` inside `scope`: what it creates is counted there.
    nonisolated(nonsending) package static func withScope<Result>(
        _ scope: ScopeActivity, _ body: () async throws -> Result) async rethrows -> Result {
        on.store(true, ordering: .relaxed)
        return try await $scope.withValue(scope) { try await body() }
    }

    /// ``withScope(_:_:)`` for a synchronous `body`.
    package static func withScope<Result>(_ scope: ScopeActivity, _ body: () throws -> Result) rethrows -> Result {
        on.store(true, ordering: .relaxed)
        return try $scope.withValue(scope) { try body() }
    }

    /// Counts `kind`, an event of the process trace, in the scope it belongs to.
    package static func note(_ kind: TraceEvent.Kind) {
        let change: (scope: ScopeActivity, delta: Int)?
        switch kind {
        case .interactorCreated(let id, _):
            change = made(id, in: scope)
        case .routerCreated(let id, _, _, _):
            change = made(id, in: scope)
        case .taskStart(let task, let owner, _):
            change = made(task, in: owners.withLock { $0[owner] } ?? scope)
        case .deallocated(let id):
            change = gone(id)
        case .taskEnd(let task, _):
            change = gone(task)
        case .attach(_, let child), .detach(_, let child):
            change = touched(child)
        case .activate(let id), .deactivate(let id), .hookEnd(let id):
            change = touched(id)
        case .load(let id), .launch(let id), .view(let id, _), .taskCancel(let id):
            change = touched(id)
        case .sessionStart, .mark, .dropped, .sessionEnd, .retained:
            // A `retained` record is a search's result, written after a verdict: no activity of the test.
            change = nil
        }
        if let change { change.scope.note(change.delta) }
    }

    /// What `kind` does to a tally of everything in its trace (a
    /// ``TraceRecorder``'s): +1 for a creation or a task's start, -1 for a
    /// deallocation or a task's end, 0 otherwise.
    package static func delta(of kind: TraceEvent.Kind) -> Int {
        switch kind {
        case .interactorCreated, .routerCreated, .taskStart: 1
        case .deallocated, .taskEnd: -1
        case .attach, .detach, .activate, .deactivate, .hookEnd, .load, .launch, .view, .taskCancel,
             .sessionStart, .mark, .dropped, .sessionEnd, .retained: 0
        }
    }

    private static func made(_ id: NodeID, in scope: ScopeActivity?) -> (scope: ScopeActivity, delta: Int)? {
        guard let scope else { return nil }
        owners.withLock { $0[id] = scope }
        return (scope, 1)
    }

    private static func gone(_ id: NodeID) -> (scope: ScopeActivity, delta: Int)? {
        owners.withLock { $0.removeValue(forKey: id) }.map { ($0, -1) }
    }

    private static func touched(_ id: NodeID) -> (scope: ScopeActivity, delta: Int)? {
        owners.withLock { $0[id] }.map { ($0, 0) }
    }
}
