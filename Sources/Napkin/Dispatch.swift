/// Runs `action` in a new task: the bridge from a synchronous main-actor
/// event handler (a button) to an interactor's async listener method.
///
/// ```swift
/// Button("Log in") { dispatch { [listener] in await listener?.didTapLogin() } }
/// ```
@MainActor
@discardableResult
public func dispatch(priority: TaskPriority? = nil, _ action: @escaping @Sendable () async -> Void) -> Task<Void, Never> {
    Task(priority: priority) { await action() }
}
