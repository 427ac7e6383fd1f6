// The one place napkin-inspect names the C library (NapkinLibc, the package's
// one import of it).
//
// `@_exported` makes the C library visible to every file of this module, so no
// other file repeats the import ladder. That is acceptable here because
// napkin-inspect is an executable: no client module imports it, so the
// re-export leaks nowhere (its tests use `@testable import` for its own types).
@_exported import NapkinLibc

/// Small wrappers over the C library that several files need.
enum Platform {
    /// Writes all of `bytes` to `fd`, retrying after a signal interrupts the
    /// write; gives up at the first error (a closed pipe, a full disk) and
    /// returns false (`errno` says why).
    @discardableResult
    static func writeAll(_ bytes: UnsafeRawBufferPointer, to fd: Int32) -> Bool {
        guard let base = bytes.baseAddress else { return true }
        var offset = 0
        while offset < bytes.count {
            let written = write(fd, base + offset, bytes.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0 && errno == EINTR {
                continue
            } else {
                if written == 0 { errno = EIO }
                return false
            }
        }
        return true
    }

    /// The monotonic clock, in nanoseconds (unaffected by changes to the wall clock).
    static func monotonicNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    /// Sleeps for about `nanoseconds` (to the microsecond).
    static func sleep(nanoseconds: UInt64) {
        usleep(useconds_t(nanoseconds / 1_000))
    }
}

#if canImport(Darwin)
/// `posix_spawn_file_actions_t` as `posix_spawn` takes it (an optional pointer on Darwin).
typealias SpawnFileActions = posix_spawn_file_actions_t?
/// `posix_spawnattr_t` as `posix_spawn` takes it (an optional pointer on Darwin).
typealias SpawnAttributes = posix_spawnattr_t?
#else
/// `posix_spawn_file_actions_t` as `posix_spawn` takes it (a struct on Linux).
typealias SpawnFileActions = posix_spawn_file_actions_t
/// `posix_spawnattr_t` as `posix_spawn` takes it (a struct on Linux).
typealias SpawnAttributes = posix_spawnattr_t
#endif

extension Platform {
    /// Empty spawn file actions, for `posix_spawn_file_actions_init`.
    static func emptySpawnFileActions() -> SpawnFileActions {
        #if canImport(Darwin)
        nil
        #else
        posix_spawn_file_actions_t()
        #endif
    }

    /// Empty spawn attributes, for `posix_spawnattr_init`.
    static func emptySpawnAttributes() -> SpawnAttributes {
        #if canImport(Darwin)
        nil
        #else
        posix_spawnattr_t()
        #endif
    }
}
