// NapkinTrace's C-library layer: the files of Platform/ are the only ones of
// NapkinTrace that talk to the C library. Everything else calls their
// wrappers, so Glibc, Musl and Darwin are handled in one place and the same
// way. The imports are `internal`: no libc type can appear in a package or
// public declaration, and nothing of libc leaks to clients. This file holds
// the `Platform` namespace: errors, descriptors (opening, reading, writing,
// searching, waiting), signals and exit, locks, and the clocks; it is also
// the only file of NapkinTrace that names UIKit (the notifications after
// which an app may be killed, see FlushTriggers). It names no AppKit: every
// macOS command-line tool that links NapkinTrace (napkin-inspect) would link
// AppKit for one notification name; the framework, which an AppKit app links
// anyway, adds AppKit's (`ExitFlush.alsoFlush(on:)`). File facts and
// sockets have files of their own (FileFacts.swift, Sockets.swift), and so
// do the values reads, writes and waits report (PlatformOutcomes.swift).
internal import NapkinLibc
import Foundation
#if canImport(UIKit)
internal import UIKit
#endif

/// Thin wrappers around the C library facilities NapkinTrace needs: file
/// descriptors, file facts, waiting, signals, process exit and locks (file
/// facts and sockets in files of their own in `Platform/`).
///
/// The wrappers keep libc's semantics (a read may return fewer bytes, a
/// descriptor stays open until closed) but report errors as values instead of
/// through `errno`, which they read right after the failing call.
package enum Platform {
    // MARK: - Errors

    /// An `errno` value, captured right after the call that failed.
    package struct SystemError: Error, Equatable, Sendable, CustomStringConvertible {
        /// The raw `errno` code.
        package let code: Int32

        /// The error the last failing call on this thread left in `errno`.
        @inline(__always)
        package static var current: SystemError { SystemError(code: errno) }

        /// The C library's message for the code (`strerror`).
        package var description: String { String(cString: strerror(code)) }

        /// `ENOENT`: the path names nothing.
        package var isNoSuchFile: Bool { code == ENOENT }

        /// `EACCES`: the process may not open the path.
        package var isPermissionDenied: Bool { code == EACCES }

        /// `ENXIO`: for a non-blocking open of a FIFO for writing, no process
        /// has the FIFO open for reading; for a socket file, it cannot be opened.
        package var isNoReader: Bool { code == ENXIO }

        /// `EISDIR`: the path names a directory.
        package var isDirectory: Bool { code == EISDIR }

        /// `EADDRINUSE`: something already listens on the address.
        package static var addressInUse: Int32 { EADDRINUSE }
    }

    // MARK: - Opening and closing

    /// Opens `path` read-only (close-on-exec); with `nonBlocking`, opening and
    /// reading a FIFO or a device never waits.
    package static func openForReading(_ path: String, nonBlocking: Bool = false) throws(SystemError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | (nonBlocking ? O_NONBLOCK : 0))
        guard fd >= 0 else { throw SystemError.current }
        return fd
    }

    /// Creates `path`, or empties it if it exists, for writing (mode 0644, close-on-exec).
    package static func openForWriting(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError.current }
        return fd
    }

    /// Closes `fd`, ignoring failures (there is nothing left to do about them).
    @inline(__always)
    package static func closeDescriptor(_ fd: Int32) {
        _ = close(fd)
    }

    // MARK: - Reading and writing

    /// Reads at most `count` bytes from `fd` into `buffer` (one `read(2)` call).
    @inline(__always)
    package static func readSome(_ fd: Int32, into buffer: UnsafeMutableRawPointer, count: Int) -> Transfer {
        transfer(read(fd, buffer, count))
    }

    /// Writes at most `count` bytes from `bytes` to `fd` (one `write(2)` call).
    @inline(__always)
    package static func writeSome(_ fd: Int32, from bytes: UnsafeRawPointer, count: Int) -> Transfer {
        transfer(write(fd, bytes, count))
    }

    /// Writes all of `bytes` to `fd`, retrying after signals; gives up at the
    /// first other failure. Returns whether everything was written.
    @discardableResult
    package static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            switch writeSome(fd, from: bytes.baseAddress! + offset, count: bytes.count - offset) {
            case .bytes(let n): offset += n
            case .interrupted: continue
            case .nothing, .wouldBlock, .failed: return false
            }
        }
        return true
    }

    /// The size up to which a write to a pipe is atomic and, once `poll`
    /// reports room, does not block (`PIPE_BUF`).
    package static var atomicPipeWriteSize: Int { Int(PIPE_BUF) }

    /// What a `read(2)` or `write(2)` that returned `n` did, from `errno` when it failed.
    @inline(__always)
    private static func transfer(_ n: Int) -> Transfer {
        if n > 0 { return .bytes(n) }
        if n == 0 { return .nothing }
        let code = errno
        if code == EINTR { return .interrupted }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        return .failed(SystemError(code: code))
    }

    // MARK: - Searching bytes

    /// The offset of the first newline (`\n`) in the `count` bytes at `start`,
    /// or `nil`: one `memchr` call, the reader's inner loop.
    @inline(__always)
    package static func offsetOfNewline(in start: UnsafeRawPointer, count: Int) -> Int? {
        guard let hit = memchr(start, 10, count) else { return nil }
        return start.distance(to: UnsafeRawPointer(hit))
    }

    // MARK: - Waiting

    /// Waits up to `timeoutMS` milliseconds until `fd` has data to read.
    @discardableResult
    package static func waitUntilReadable(_ fd: Int32, timeoutMS: Int32) -> PollOutcome {
        wait(fd, for: Int16(POLLIN), timeoutMS: timeoutMS)
    }

    /// Waits up to `timeoutMS` milliseconds until `fd` can take bytes.
    @discardableResult
    package static func waitUntilWritable(_ fd: Int32, timeoutMS: Int32) -> PollOutcome {
        wait(fd, for: Int16(POLLOUT), timeoutMS: timeoutMS)
    }

    /// One `poll(2)` of `fd` for `events`.
    private static func wait(_ fd: Int32, for events: Int16, timeoutMS: Int32) -> PollOutcome {
        var entry = pollfd(fd: fd, events: events, revents: 0)
        let ready = poll(&entry, 1, timeoutMS)
        if ready > 0 { return .ready }
        if ready == 0 { return .timedOut }
        let code = errno
        return code == EINTR ? .interrupted : .failed(SystemError(code: code))
    }

    /// Suspends the calling thread for `microseconds` (`usleep`; at most one second).
    package static func sleep(microseconds: Int) {
        _ = usleep(useconds_t(microseconds))
    }

    // MARK: - Signals and exit

    /// Runs `body` with SIGPIPE blocked on the calling thread, and swallows a
    /// SIGPIPE that `body` raised, so that writing to a pipe whose reader went
    /// away fails with `EPIPE` instead of killing the process. Enough where
    /// the signal goes to the writing thread (Linux); Apple platforms signal
    /// the process, see ``preventSIGPIPE(on:)``.
    package static func withBrokenPipeIgnored<R>(_ body: () -> R) -> R {
        var block = sigset_t()
        var previous = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        let result = body()
        var pending = sigset_t()
        sigemptyset(&pending)
        if sigpending(&pending) == 0 && sigismember(&pending, SIGPIPE) == 1 && sigismember(&previous, SIGPIPE) == 0 {
            var signal: Int32 = 0
            sigwait(&block, &signal)
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        return result
    }

    /// Makes a write to `fd` whose reader went away fail with `EPIPE` instead
    /// of raising `SIGPIPE`, where ``withBrokenPipeIgnored(_:)`` cannot: call
    /// it once on every pipe, FIFO or device a trace is written to, when the
    /// descriptor is adopted.
    ///
    /// On Apple platforms a failed write to a pipe or FIFO signals the whole
    /// process, not the writing thread, so masking the signal on the writer
    /// thread does not protect the app: the descriptor gets `F_SETNOSIGPIPE`
    /// (`fcntl(2)`; sockets get `SO_NOSIGPIPE` when they are made). The flag
    /// belongs to the open file description, which `dup` and inheritance
    /// share: another process writing to the same inherited pipe also gets
    /// `EPIPE` instead of the signal from then on. On Linux the signal goes
    /// to the writing thread, whose mask ``withBrokenPipeIgnored(_:)`` sets,
    /// so this does nothing there.
    package static func preventSIGPIPE(on fd: Int32) {
        #if canImport(Darwin)
        _ = fcntl(fd, setNoSIGPIPECommand, 1)
        #endif
    }

    #if canImport(Darwin)
    /// `F_SETNOSIGPIPE`, the `fcntl(2)` command documented in Apple's man
    /// page: 73 in xnu's `bsd/sys/fcntl.h` (and its `dev_t` is `__int32_t`,
    /// see ``fileFacts(of:)``). Written as the header's value so that the
    /// build does not depend on whether the Swift Darwin module imports that
    /// macro, which no Linux build can check.
    private static let setNoSIGPIPECommand: Int32 = 73
    #endif

    /// The notifications on which the trace is flushed because the process
    /// may end soon, perhaps without running its `atexit` handlers (see
    /// ``FlushTriggers``): on UIKit, entering the background (a suspended
    /// app is ended with `SIGKILL`) and terminating; none elsewhere (AppKit's
    /// termination is added by the framework, see ``ExitFlush/alsoFlush(on:)``).
    @MainActor
    package static var appLifecycleFlushNotifications: [Notification.Name] {
        #if canImport(UIKit)
        [UIApplication.didEnterBackgroundNotification, UIApplication.willTerminateNotification]
        #else
        []
        #endif
    }

    /// What keeps the app running while a lifecycle flush finishes, so that
    /// the main thread does not wait for it: a UIKit background task (none
    /// in an app extension, see `BackgroundTaskKeepAlive`); none elsewhere,
    /// where these notifications are none (AppKit's termination, added by
    /// the framework, waits for nothing: ``NormalExitFollows``).
    package static var appLifecycleKeepAlive: (any FlushKeepAlive)? {
        #if canImport(UIKit)
        BackgroundTaskKeepAlive()
        #else
        nil
        #endif
    }

    /// Runs `handler` when the process exits normally (`atexit`).
    package static func atExit(_ handler: @escaping @convention(c) () -> Void) {
        _ = atexit(handler)
    }

    // MARK: - Locks

    /// How many 8-byte words a pthread mutex takes: the room `Locked` keeps
    /// for one next to its value (a pthread mutex must never move, and tail
    /// storage never does). See `Locked` for why napkin locks with pthread mutexes.
    package static let mutexWords = (MemoryLayout<pthread_mutex_t>.size + 7) / 8

    /// Initialises an unlocked mutex at `address` (``mutexWords`` words, 8-aligned).
    package static func initializeMutex(at address: UnsafeMutableRawPointer) {
        let mutex = address.bindMemory(to: pthread_mutex_t.self, capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    /// Destroys the mutex at `address`, which nobody holds.
    package static func destroyMutex(at address: UnsafeMutableRawPointer) {
        pthread_mutex_destroy(address.assumingMemoryBound(to: pthread_mutex_t.self))
    }

    /// Waits for the mutex at `address` and takes it.
    @usableFromInline
    package static func lockMutex(at address: UnsafeMutableRawPointer) {
        pthread_mutex_lock(address.assumingMemoryBound(to: pthread_mutex_t.self))
    }

    /// Releases the mutex at `address`, taken with ``lockMutex(at:)``.
    @usableFromInline
    package static func unlockMutex(at address: UnsafeMutableRawPointer) {
        pthread_mutex_unlock(address.assumingMemoryBound(to: pthread_mutex_t.self))
    }
}

// MARK: - Clocks

/// Reads the clocks a trace is stamped with.
package enum MonotonicClock {
    /// Nanoseconds on a clock that never goes backwards (not affected by wall-clock changes).
    @inline(__always)
    package static func now() -> UInt64 {
        #if canImport(Darwin)
        return clock_gettime_nsec_np(CLOCK_UPTIME_RAW)
        #else
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return UInt64(ts.tv_sec) &* 1_000_000_000 &+ UInt64(ts.tv_nsec)
        #endif
    }

    /// Wall-clock time as Unix time in nanoseconds.
    package static func wallClock() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Int64(ts.tv_sec) &* 1_000_000_000 &+ Int64(ts.tv_nsec)
    }
}

#if canImport(UIKit)
/// UIKit's background tasks as a ``FlushKeepAlive``: `begin` (on the main
/// thread, where UIKit posts its lifecycle notifications) starts one with
/// `beginBackgroundTask(expirationHandler:)` on the app object, `end` ends
/// it on the main actor (`endBackgroundTask(_:)`); the expiration handler ends
/// it too, so that an unfinished flush never gets the app killed. The
/// identifiers stay on the main actor, under a token. Posted off the main
/// thread, nothing is begun (the flush still runs).
///
/// App extensions: `UIApplication.shared` is unavailable to them, and a
/// library an extension links is built under application-extension-only
/// API rules, so this code never names it. The app object is looked up at
/// run time instead (key-value coding, ``application``), and not at all in
/// an extension's bundle (`.appex`): there nothing is begun, the flush runs
/// without a keep-alive and the poster still does not wait.
struct BackgroundTaskKeepAlive: FlushKeepAlive {
    @MainActor private static var tasks: [Int: UIBackgroundTaskIdentifier] = [:]
    @MainActor private static var nextToken = 0

    /// The app object, or `nil` in an app extension (or before UIKit made one).
    @MainActor static var application: UIApplication? {
        guard Bundle.main.bundleURL.pathExtension != "appex" else { return nil }
        return UIApplication.value(forKey: "sharedApplication") as? UIApplication
    }

    func begin() -> Int {
        guard Thread.isMainThread else { return -1 }
        return MainActor.assumeIsolated {
            guard let application = Self.application else { return -1 }
            Self.nextToken += 1
            let token = Self.nextToken
            Self.tasks[token] = application.beginBackgroundTask { Self.endTask(token) }
            return token
        }
    }

    func end(_ token: Int) {
        guard token >= 0 else { return }
        Task { @MainActor in Self.endTask(token) }
    }

    @MainActor private static func endTask(_ token: Int) {
        guard let task = tasks.removeValue(forKey: token), let application else { return }
        application.endBackgroundTask(task)
    }
}
#endif
