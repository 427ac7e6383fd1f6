// The one place NapkinTests differs between C libraries (glibc or musl on
// Linux, libSystem on macOS): looking symbols up, spawning TraceProbe with
// nothing of the test process's open, finding the built products, and
// reading the heap's size. Each Darwin branch is a few lines next to its
// Linux twin; the rest of the target calls `CLibrary`.
import Foundation
import NapkinTrace
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

#if canImport(Darwin)
/// `posix_spawn_file_actions_t` as the spawn functions take it: on Darwin an
/// opaque pointer, nil until `posix_spawn_file_actions_init` sets it.
typealias SpawnFileActions = posix_spawn_file_actions_t?
/// `posix_spawnattr_t` as `posix_spawn` takes it (an opaque pointer on Darwin).
typealias SpawnAttributes = posix_spawnattr_t?
#else
/// `posix_spawn_file_actions_t` as the spawn functions take it (a struct in glibc and musl).
typealias SpawnFileActions = posix_spawn_file_actions_t
/// `posix_spawnattr_t` as `posix_spawn` takes it (a struct in glibc and musl).
typealias SpawnAttributes = posix_spawnattr_t
#endif

enum CLibrary {
    /// Empty file actions, for `posix_spawn_file_actions_init`.
    static func emptyFileActions() -> SpawnFileActions {
        #if canImport(Darwin)
        return nil
        #else
        return posix_spawn_file_actions_t()
        #endif
    }

    /// `RTLD_DEFAULT`: the `dlsym` handle that searches every image the
    /// process has loaded. glibc's is a null pointer; Darwin's `<dlfcn.h>`
    /// defines it as `(void *)-2`, and there a null handle is not a search of
    /// every image (dlsym(3)).
    static var defaultHandle: UnsafeMutableRawPointer? {
        #if canImport(Darwin)
        return UnsafeMutableRawPointer(bitPattern: -2)
        #else
        return nil
        #endif
    }

    /// The address of the C symbol `name` in any image of the process, or nil.
    static func symbol(_ name: String) -> UnsafeMutableRawPointer? {
        dlsym(defaultHandle, name)
    }

    /// Whether a sanitizer replaced malloc in this process (`swift test --sanitize=thread` or `=address`).
    static let sanitized = symbol("__tsan_init") != nil || symbol("__asan_init") != nil

    /// `pipe2(2)` where the C library has it (glibc and musl do; Darwin does not,
    /// and Swift's Glibc module does not export it).
    private static let pipe2: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32)? = {
        guard let address = symbol("pipe2") else { return nil }
        return unsafeBitCast(address, to: (@convention(c) (UnsafeMutablePointer<Int32>, Int32) -> Int32).self)
    }()

    /// A pipe whose two ends are close-on-exec in this process, so that
    /// children other tests spawn meanwhile never hold them open.
    static func makePipe() throws -> (read: Int32, write: Int32) {
        var fds: [Int32] = [-1, -1]
        if let pipe2 {
            guard pipe2(&fds, Int32(O_CLOEXEC)) == 0 else { throw ProbeError("pipe2 failed: errno \(errno)") }
        } else {
            guard pipe(&fds) == 0 else { throw ProbeError("pipe failed: errno \(errno)") }
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

    /// `posix_spawn(path, actions, argv, envp)`, where every descriptor from
    /// `firstClosed` up that the file actions do not set up is closed in the
    /// child; 0 or posix_spawn's error. glibc: the file actions end with
    /// `posix_spawn_file_actions_addclosefrom_np(firstClosed)` (where the
    /// library has it: else descriptors without close-on-exec leak). Darwin:
    /// `POSIX_SPAWN_CLOEXEC_DEFAULT` (only descriptors the file actions
    /// describe stay open), with those below `firstClosed` that this process
    /// has open marked inherited (standard input, unless the actions set it).
    static func spawn(_ pid: inout pid_t, _ path: String, _ actions: inout SpawnFileActions, closingFrom firstClosed: Int32,
                      _ argv: [UnsafeMutablePointer<CChar>?], _ envp: [UnsafeMutablePointer<CChar>?]) -> Int32 {
        #if canImport(Darwin)
        for fd in 0..<firstClosed where fcntl(fd, F_GETFD) != -1 { posix_spawn_file_actions_addinherit_np(&actions, fd) }
        var attributes: SpawnAttributes = nil
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_CLOEXEC_DEFAULT))
        return posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        #else
        if let addCloseFrom { _ = addCloseFrom(&actions, firstClosed) }
        return posix_spawn(&pid, path, &actions, nil, argv, envp)
        #endif
    }

    /// Where SwiftPM may have put the built products (TraceProbe among them),
    /// most likely first. Linux: the directory of the test executable
    /// (`/proc/self/exe`). macOS: the directory holding the `.xctest` bundle
    /// that contains this code (`Bundle(for:)` gives the bundle that loaded a
    /// class), whichever process (`xctest`, `swiftpm-testing-helper`) loaded it.
    static var productDirectories: [String] {
        var directories: [String] = []
        #if os(Linux)
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            directories.append((exe as NSString).deletingLastPathComponent)
        }
        #elseif canImport(Darwin)
        directories.append((Bundle(for: BundleAnchor.self).bundlePath as NSString).deletingLastPathComponent)
        #endif
        directories.append((CommandLine.arguments[0] as NSString).deletingLastPathComponent)
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            directories.append((bundle.bundlePath as NSString).deletingLastPathComponent)
        }
        return directories
    }

    /// Heap bytes in use, from glibc's `mallinfo2()` (the same measurement as
    /// TraceProbe's `alloc` mode); nil where it cannot be called: elsewhere
    /// than glibc on x86-64 (Darwin included), the tests that need it are skipped.
    static func heapBytesInUse() -> Int? {
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

#if canImport(Darwin)
/// A class of this test bundle, for `Bundle(for:)`.
private final class BundleAnchor {}
#endif

/// A TCP port on 127.0.0.1 that refuses connections while this value is
/// open: a socket bound to it that never listens. Nobody else can bind the
/// port meanwhile, as another test's listener did to a port merely found
/// free on a busy machine.
final class RefusingPort {
    /// The port, bound and refusing.
    let port: UInt16
    private let fd: Int32

    /// Binds a socket to a port the kernel picks, without listening.
    init() throws {
        #if canImport(Darwin)
        let type = SOCK_STREAM
        #else
        let type = Int32(SOCK_STREAM.rawValue)
        #endif
        let fd = socket(AF_INET, type, 0)
        guard fd >= 0 else { throw ProbeError("socket: errno \(errno)") }
        var address = sockaddr_in()
        #if canImport(Darwin)
        address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
        #endif
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, let port = Platform.boundPort(of: fd) else {
            Foundation.close(fd)
            throw ProbeError("bind 127.0.0.1:0: errno \(errno)")
        }
        self.fd = fd
        self.port = port
    }

    /// Releases the port.
    func close() { Foundation.close(fd) }
}
