/// A value guarded by a pthread mutex: the lock of the emitting side and of
/// the framework's `InteractorLifecycle`.
///
/// Not `Synchronization.Mutex`: on Linux it locks with raw futex calls that
/// ThreadSanitizer cannot see, so every app that runs its tests under TSan
/// with tracing on would get false race reports from inside napkin.
/// ThreadSanitizer understands pthread mutexes.
///
/// The value and its mutex live in one heap block (a `ManagedBuffer`: the
/// value is its header, the mutex its tail, which never moves): one
/// allocation per lock. Copies of a `Locked` share that block, like
/// references to a class.
///
/// `@unchecked Sendable`: the value is only ever reached inside `withLock`,
/// with the mutex held. It is reached through a pointer, so access needs no
/// dynamic exclusivity check.
package struct Locked<Value>: @unchecked Sendable {
    /// The value (header) and the mutex (tail, ``Platform/mutexWords`` words).
    @usableFromInline
    final class Storage: ManagedBuffer<Value, UInt64> {
        deinit {
            // The header (the value) is destroyed by ManagedBuffer.
            withUnsafeMutablePointerToElements { Platform.destroyMutex(at: UnsafeMutableRawPointer($0)) }
        }
    }

    @usableFromInline
    let storage: Storage

    /// Creates the lock around `value`.
    package init(_ value: Value) {
        let buffer = Storage.create(minimumCapacity: Platform.mutexWords) { _ in value }
        storage = unsafeDowncast(buffer, to: Storage.self)
        storage.withUnsafeMutablePointerToElements { Platform.initializeMutex(at: UnsafeMutableRawPointer($0)) }
    }

    /// Runs `body` with the lock held and the value borrowed for mutation.
    ///
    /// Inlinable, so that a caller in another module of the package (the
    /// framework's `InteractorLifecycle`) gets it specialised for its value:
    /// no generic metadata lookup and no closure call per lock.
    @inlinable
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try storage.withUnsafeMutablePointers { value, words in
            let mutex = UnsafeMutableRawPointer(words)
            Platform.lockMutex(at: mutex)
            defer { Platform.unlockMutex(at: mutex) }
            return try body(&value.pointee)
        }
    }
}
