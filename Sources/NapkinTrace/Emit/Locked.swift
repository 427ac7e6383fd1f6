#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value guarded by a pthread mutex: the lock of the emitting side and of
/// `InteractorLifecycle`.
///
/// Not `Synchronization.Mutex`: on Linux it locks with raw futex calls that
/// ThreadSanitizer cannot see, so every app that runs its tests under TSan
/// with tracing on would get false race reports from inside napkin.
/// ThreadSanitizer understands pthread mutexes.
///
/// `@unchecked Sendable`: the value is only ever reached inside `withLock`,
/// with `mutex` held. It lives behind a pointer so that access needs no
/// dynamic exclusivity check.
package final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private let storage: UnsafeMutablePointer<Value>

    /// Creates the lock around `value`.
    package init(_ value: Value) {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
        storage = .allocate(capacity: 1)
        storage.initialize(to: value)
    }

    deinit {
        storage.deinitialize(count: 1)
        storage.deallocate()
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    /// Runs `body` with the lock held and the value borrowed for mutation.
    @inline(__always)
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&storage.pointee)
    }
}
