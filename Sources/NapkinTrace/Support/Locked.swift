/// A value guarded by a pthread mutex: the lock of the emitting side and of
/// the framework's `InteractorLifecycle`.
///
/// Not `Synchronization.Mutex`: on Linux it locks with raw futex calls that
/// ThreadSanitizer cannot see, so every app that runs its tests under TSan
/// with tracing on would get false race reports from inside napkin.
/// ThreadSanitizer understands pthread mutexes (`Platform.PthreadMutex`).
///
/// `@unchecked Sendable`: the value is only ever reached inside `withLock`,
/// with `mutex` held. It lives behind a pointer so that access needs no
/// dynamic exclusivity check.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex = Platform.PthreadMutex()
    private let storage: UnsafeMutablePointer<Value>

    /// Creates the lock around `value`.
    package init(_ value: Value) {
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        // `mutex` is destroyed after this body, like every stored property.
    }

    /// Runs `body` with the lock held and the value borrowed for mutation.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        mutex.lock()
        defer { mutex.unlock() }
        return try body(&storage.pointee)
    }
}
