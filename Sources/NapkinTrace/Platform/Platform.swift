// With Sockets.swift, the only file of NapkinTrace that talks to the C library. Everything else
// calls the wrappers below, so Glibc, Musl and Darwin are handled in one place
// and the same way. The import is `internal`: no libc type can appear in a
// package or public declaration, and nothing of libc leaks to clients.
// It is also the only file of NapkinTrace that names UIKit or AppKit (the
// notifications after which an app may be killed, see FlushTriggers).
#if canImport(Glibc)
internal import Glibc
#elseif canImport(Musl)
internal import Musl
#elseif canImport(Darwin)
internal import Darwin
#endif
import Foundation
#if canImport(UIKit)
internal import UIKit
#elseif canImport(AppKit)
internal import AppKit
#endif

/// Thin wrappers around the C library facilities NapkinTrace needs: file
/// descriptors, file facts, waiting, signals, process exit and locks.
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

    /// What one `read(2)` or `write(2)` call did.
    package enum Transfer: Equatable, Sendable {
        /// This many bytes (more than zero) were moved.
        case bytes(Int)
        /// Zero bytes: the end of the file for a read; for a write, the
        /// descriptor accepted nothing.
        case nothing
        /// A signal interrupted the call before it moved anything (`EINTR`); try again.
        case interrupted
        /// The descriptor is non-blocking and not ready (`EAGAIN`); wait and try again.
        case wouldBlock
        /// The call failed.
        case failed(SystemError)
    }

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
            default: return false
            }
        }
        return true
    }

    /// The size up to which a write to a pipe is atomic and, once `poll`
    /// reports room, does not block (`PIPE_BUF`).
    package static var atomicPipeWriteSize: Int { Int(PIPE_BUF) }

    @inline(__always)
    private static func transfer(_ n: Int) -> Transfer {
        if n > 0 { return .bytes(n) }
        if n == 0 { return .nothing }
        let code = errno
        if code == EINTR { return .interrupted }
        if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
        return .failed(SystemError(code: code))
    }

    // MARK: - File facts and position

    /// The read/write position of `fd` (`lseek(fd, 0, SEEK_CUR)`); -1 if it has none.
    package static func currentOffset(of fd: Int32) -> Int64 {
        Int64(lseek(fd, 0, SEEK_CUR))
    }

    /// Moves the read/write position of `fd` back to the start of the file.
    package static func rewind(_ fd: Int32) {
        _ = lseek(fd, 0, SEEK_SET)
    }

    // MARK: - Trace destinations

    /// What kind of file a path or a descriptor names (`st_mode & S_IFMT`).
    package enum FileKind: Equatable, Sendable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A FIFO: a named pipe, or an anonymous pipe's end.
        case fifo
        /// A character device such as `/dev/null`, `/dev/full` or a terminal.
        case characterDevice
        /// A block device: a disk or a partition.
        case blockDevice
        /// A socket, or a socket file in the file system.
        case socket
        /// A symbolic link (only seen by calls that do not follow links).
        case symbolicLink
        /// Anything else.
        case other
    }

    /// What `stat(2)` says about a file: which file it is (two facts name
    /// the same file exactly when device and inode are equal; a file replaced
    /// at the same path gets a new inode), its kind and its size.
    package struct FileFacts: Equatable, Sendable {
        /// The device the file lives on (`st_dev`).
        package var device: UInt64
        /// The inode number on that device (`st_ino`).
        package var inode: UInt64
        /// The kind of file.
        package var kind: FileKind
        /// The size in bytes.
        package var size: Int64

        /// Whether both name the same file (device and inode).
        package func isSameFile(as other: FileFacts) -> Bool {
            device == other.device && inode == other.inode
        }
    }

    /// The facts of the open descriptor `fd` (`fstat`), or `nil` if it cannot be examined.
    package static func fileFacts(of fd: Int32) -> FileFacts? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return nil }
        return facts(info)
    }

    /// The facts of the file at `path`, following symbolic links (`stat`),
    /// or `nil` if there is none (a dangling link included) or it cannot be examined.
    package static func fileFacts(atPath path: String) -> FileFacts? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return facts(info)
    }

    private static func facts(_ info: stat) -> FileFacts {
        let kind: FileKind
        switch info.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFIFO: kind = .fifo
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        case S_IFSOCK: kind = .socket
        case S_IFLNK: kind = .symbolicLink
        default: kind = .other
        }
        // `dev_t` is signed on Apple platforms (`Int32`) and unsigned on Linux:
        // keep its bits (no conversion that traps on a negative device number).
        // `ino_t` is unsigned and `off_t` a signed 64-bit integer on both.
        return FileFacts(device: UInt64(truncatingIfNeeded: info.st_dev), inode: UInt64(truncatingIfNeeded: info.st_ino),
                         kind: kind, size: Int64(info.st_size))
    }

    /// Opens `path` for writing a trace, creating it (mode 0644) if it does
    /// not exist, but never emptying it, and never waiting: `O_WRONLY |
    /// O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC`. Symbolic links are
    /// followed. A FIFO without a reader fails at once with `ENXIO` (see
    /// ``SystemError/isNoReader``) instead of waiting for one; the descriptor
    /// stays non-blocking (``setBlocking(_:)`` undoes that).
    package static func openForTraceWriting(_ path: String) throws(SystemError) -> Int32 {
        let fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw SystemError.current }
        return fd
    }

    /// Empties the regular file open as `fd` (`ftruncate(fd, 0)`).
    package static func truncateToEmpty(_ fd: Int32) throws(SystemError) {
        guard ftruncate(fd, 0) == 0 else { throw SystemError.current }
    }

    /// Clears `O_NONBLOCK` on `fd`, so that its reads and writes wait again.
    package static func setBlocking(_ fd: Int32) {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, flags & O_NONBLOCK != 0 else { return }
        _ = fcntl(fd, F_SETFL, flags & ~O_NONBLOCK)
    }

    /// What an open descriptor may be used for (its `O_ACCMODE`).
    package enum DescriptorAccess: Equatable, Sendable {
        /// Open for reading only: writes fail with `EBADF`.
        case readOnly
        /// Open for writing only.
        case writeOnly
        /// Open for reading and writing.
        case readWrite
    }

    /// The access mode of `fd`, or `nil` if `fd` is not an open descriptor of
    /// this process (`fcntl(F_GETFD)` fails). Reads only flags; changes nothing.
    package static func descriptorAccess(of fd: Int32) -> DescriptorAccess? {
        guard fd >= 0, fcntl(fd, F_GETFD) != -1 else { return nil }
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0 else { return nil }
        switch flags & O_ACCMODE {
        case O_WRONLY: return .writeOnly
        case O_RDWR: return .readWrite
        default: return .readOnly   // O_RDONLY, and Linux's O_PATH descriptors
        }
    }

    // MARK: - Waiting

    /// What a wait for a descriptor (`poll(2)`) ended with.
    package enum PollOutcome: Equatable, Sendable {
        /// The descriptor is ready (or has an error or hang-up to report).
        case ready
        /// The timeout passed first.
        case timedOut
        /// A signal interrupted the wait (`EINTR`).
        case interrupted
        /// The wait failed.
        case failed(SystemError)
    }

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

    // MARK: - Searching bytes

    /// The offset of the first newline (`\n`) in the `count` bytes at `start`,
    /// or `nil`: one `memchr` call, the reader's inner loop.
    @inline(__always)
    package static func offsetOfNewline(in start: UnsafeRawPointer, count: Int) -> Int? {
        guard let hit = memchr(start, 10, count) else { return nil }
        return start.distance(to: UnsafeRawPointer(hit))
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
    /// app is ended with `SIGKILL`) and terminating; on AppKit, terminating;
    /// none elsewhere. On the main actor, where AppKit declares its name.
    @MainActor
    package static var appLifecycleFlushNotifications: [Notification.Name] {
        #if canImport(UIKit)
        [UIApplication.didEnterBackgroundNotification, UIApplication.willTerminateNotification]
        #elseif canImport(AppKit)
        [NSApplication.willTerminateNotification]
        #else
        []
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
