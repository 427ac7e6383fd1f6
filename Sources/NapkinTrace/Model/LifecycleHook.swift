/// One of the two hooks an interactor's transitions run.
public enum LifecycleHook: String, Sendable, Hashable, CaseIterable {
    /// `didBecomeActive()`, started by an `activate` record.
    case didBecomeActive
    /// `willResignActive()`, started by a `deactivate` record.
    case willResignActive
}

/// A lifecycle hook that started and has not returned yet.
public struct RunningHook: Sendable, Hashable {
    /// Which hook.
    public var hook: LifecycleHook
    /// The `activate` or `deactivate` record that started it.
    public var since: TraceMoment

    /// Creates a running hook.
    public init(_ hook: LifecycleHook, since: TraceMoment) {
        self.hook = hook
        self.since = since
    }
}
