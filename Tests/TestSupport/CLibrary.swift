// The one place the tests name the C library (glibc or musl on Linux,
// libSystem on Apple platforms), and where they differ between them:
// looking symbols up, spawn types, pipes whose ends children never inherit,
// the heap's size. Each Darwin branch is a few lines next to its Linux twin.
//
// `@_exported` makes the C library visible to every file that imports
// TestSupport, so that no test file repeats the import ladder.
import Foundation
import NapkinTrace
@_exported import NapkinLibc

#if canImport(Darwin)
/// `posix_spawn_file_actions_t` as the spawn functions take it: on Darwin an
/// opaque pointer, nil until `posix_spawn_file_actions_init` sets it.
public typealias SpawnFileActions = posix_spawn_file_actions_t?
/// `posix_spawnattr_t` as `posix_spawn` takes it (an opaque pointer on Darwin).
public typealias SpawnAttributes = posix_spawnattr_t?
#else
/// `posix_spawn_file_actions_t` as the spawn functions take it (a struct in glibc and musl).
public typealias SpawnFileActions = posix_spawn_file_actions_t
/// `posix_spawnattr_t` as `posix_spawn` takes it (a struct in glibc and musl).
public typealias SpawnAttributes = posix_spawnattr_t
#endif

/// What differs between C libraries, behind one name.
public enum CLibrary {
    /// Empty file actions, for `posix_spawn_file_actions_init`.
    public static func emptyFileActions() -> SpawnFileActions {
        #if canImport(Darwin)
        return nil
        #else
        return posix_spawn_file_actions_t()
        #endif
    }

    /// Empty spawn attributes, for `posix_spawnattr_init`.
    public static func emptyAttributes() -> SpawnAttributes {
        #if canImport(Darwin)
        return nil
        #else
        return posix_spawnattr_t()
        #endif
    }

    /// `RTLD_DEFAULT`: the `dlsym` handle that searches every image the
    /// process has loaded. glibc's is a null pointer; Darwin's `<dlfcn.h>`
    /// defines it as `(void *)-2`, and there a null handle is not a search of
    /// every image (dlsym(3)).
    public static var defaultHandle: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        return UnsafeMutableRawPointer(bitPattern: -2)
        #else
        return nil
        #endif
    }

    /// The address of the C symbol `name` in any image of the process, or nil.
    public static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(defaultHandle, name)
    }

    /// What `dladdr(3)` says of `address`: the path of the image (executable
    /// or library) whose mapping holds it, and the name of the nearest symbol
    /// below it, if the image exports one; nil when no image holds it.
    /// (`dladdr` is looked up by name: Glibc's module leaves it out without
    /// `_GNU_SOURCE`. Its `Dl_info` is four pointers on glibc, musl and Darwin.)
    public static func imageAndSymbol(at address: UInt) -> (image: String, symbol: String?)? {
        struct Info {
            var fname: UnsafePointer<CChar>?, fbase: UnsafeMutableRawPointer?
            var sname: UnsafePointer<CChar>?, saddr: UnsafeMutableRawPointer?
        }
        typealias DLAddr = @convention(c) (UnsafeRawPointer?, UnsafeMutableRawPointer) -> Int32
        guard let found = symbol("dladdr") else { return nil }
        var info = Info(fname: nil, fbase: nil, sname: nil, saddr: nil)
        let dladdr = unsafeBitCast(found, to: DLAddr.self)
        let status = withUnsafeMutablePointer(to: &info) { dladdr(UnsafeRawPointer(bitPattern: address), UnsafeMutableRawPointer($0)) }
        guard status != 0, let image = info.fname else { return nil }
        return (String(cString: image), info.sname.map { String(cString: $0) })
    }

    /// `write(2)`, for code inside types that have a `write` method of their own.
    public static func write(_ fd: Int32, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        #if canImport(Glibc)
        Glibc.write(fd, buffer, count)
        #elseif canImport(Musl)
        Musl.write(fd, buffer, count)
        #else
        Darwin.write(fd, buffer, count)
        #endif
    }

    /// `pipe2(2)` where the C library has it (glibc and musl do; Darwin does not,
    /// and Swift's Glibc module does not export it).
    private static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
        guard let address = symbol("pipe2") else { return nil }
        return unsafeBitCast(address, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()

    /// A pipe whose two ends are close-on-exec in this process, so that
    /// children other tests spawn meanwhile never hold them open.
    public static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        if let pipe2 {
            guard pipe2(&fds, Int32(O_CLOEXEC)) == 0 else { throw TestFailure("pipe2 failed: errno \(errno)") }
        } else {
            guard pipe(&fds) == 0 else { throw TestFailure("pipe failed: errno \(errno)") }
            _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
            _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
        }
        return (fds[0], fds[1])
    }

    #if !canImport(Darwin)
    /// `posix_spawn_file_actions_addclosefrom_np` (glibc 2.34 and later), not exported by Swift's Glibc module.
    private static let addCloseFrom: (@convention(c) (UnsafeMutablePointer<SpawnFileActions>, Int32) -> Int32)? = {
        guard let address = symbol("posix_spawn_file_actions_addclosefrom_np") else { return nil }
        return unsafeBitCast(address, to: (@convention(c) (UnsafeMutablePointer<SpawnFileActions>, Int32) -> Int32).self)
    }()
    #endif

    /// `posix_spawn(path, actions, attributes, argv, envp)`, where every
    /// descriptor from `firstClosed` up that the file actions do not set up
    /// is closed in the child; 0 or posix_spawn's error. `flags` are the
    /// attributes' flags the caller set (`posix_spawnattr_setflags` is called
    /// here, with them). glibc: the file actions end with
    /// `posix_spawn_file_actions_addclosefrom_np(firstClosed)` (where the
    /// library has it: else descriptors without close-on-exec leak). Darwin:
    /// `POSIX_SPAWN_CLOEXEC_DEFAULT` (only descriptors the file actions
    /// describe stay open), with those below `firstClosed` that this process
    /// has open marked inherited (standard input, unless the actions set it).
    public static func spawn(_ pid: inout pid_t, _ path: String, _ actions: inout SpawnFileActions,
                             _ attributes: inout SpawnAttributes, flags: Int32, closingFrom firstClosed: Int32,
                             _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?]) -> Int32 {
        #if canImport(Darwin)
        for fd in 0..<firstClosed where fcntl(fd, F_GETFD) != -1 { posix_spawn_file_actions_addinherit_np(&actions, fd) }
        posix_spawnattr_setflags(&attributes, Int16(flags | POSIX_SPAWN_CLOEXEC_DEFAULT))
        #else
        if let addCloseFrom { _ = addCloseFrom(&actions, firstClosed) }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        #endif
        return posix_spawn(&pid, path, &actions, &attributes, argv, envp)
    }

    /// Heap bytes in use, from glibc's `mallinfo2()` (the same measurement as
    /// TraceProbe's `alloc` mode); nil where it cannot be called: elsewhere
    /// than glibc on x86-64 (Darwin included), the tests that need it are skipped.
    public static func heapBytesInUse() -> Int? {
        #if os(Linux) && arch(x86_64)
        // mallinfo2 is not in Swift's Glibc module. Its 80-byte result is returned
        // through a hidden pointer passed as the first argument (System V x86-64).
        typealias MallInfo2 = @convention(c) (UnsafeMutableRawPointer) -> UnsafeMutableRawPointer?
        guard let address = symbol("mallinfo2") else { return nil }
        let mallinfo2 = unsafeBitCast(address, to: MallInfo2.self)
        var fields: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        _ = withUnsafeMutableBytes(of: &fields) { mallinfo2($0.baseAddress!) }
        return fields.4 + fields.7 // hblkhd (mmapped) + uordblks (in use)
        #else
        return nil
        #endif
    }
}
