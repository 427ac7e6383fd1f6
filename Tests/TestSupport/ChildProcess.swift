// Starting a child process with the descriptors a test chooses, and nothing
// else of the test process's open; waiting for it without holding a thread
// of the cooperative pool; how it ended.
import Foundation

/// One program the tests start: `posix_spawn` with exactly the descriptors
/// the test chose (its 0, 1, 2, ...), every other one closed, in a process
/// group of its own if asked, with default signal handling if asked.
public struct ChildProcess: Sendable {
    /// What the child gets as one of its descriptors.
    public enum Descriptor: Sendable {
        /// What the test process has at that number (standard input, usually).
        case inherited
        /// A copy of this descriptor of the test process, whatever its number.
        case copy(of: Int32)
        /// This file, opened for reading.
        case reading(String)
        /// This file, created or emptied, opened for writing.
        case writing(String)
        /// Nothing: the number is closed in the child.
        case closed
    }

    /// The child's process id.
    public let pid: pid_t
    /// The program, for messages.
    public let program: String

    /// Starts `argv[0]` (a path) with `argv` and `environment`
    /// (`NAME=value` strings). `descriptors[i]` becomes the child's
    /// descriptor `i`; every descriptor above them is closed in the child,
    /// and so are those of `closing` (a number the test may have open
    /// without close-on-exec). With `ownProcessGroup`, the child leads a
    /// process group of its own (``killGroup()`` then reaches everything it
    /// started); with `defaultSignals`, it starts with default handling of
    /// the usual signals and none blocked, whatever the test runner uses.
    public static func spawn(_ argv: [String], environment: [String], descriptors: [Descriptor], closing: [Int32] = [],
                             ownProcessGroup: Bool = false, defaultSignals: Bool = false) throws -> ChildProcess {
        var actions = CLibrary.emptyFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // Copies go above every source first, so that the dup2s below never
        // overwrite each other's sources. (Not a fixed number: a test process
        // running the whole suite on a busy machine can have a hundred
        // descriptors open, and a source at 100 was overwritten before it was copied.)
        let sources = descriptors.compactMap { if case .copy(let fd) = $0 { fd } else { nil } }
        let above = max((sources.max() ?? 0) + 1, Int32(descriptors.count), 10)
        var staged: [(from: Int32, to: Int32)] = []
        for (index, descriptor) in descriptors.enumerated() {
            if case .copy(let fd) = descriptor {
                let staging = above + Int32(staged.count)
                posix_spawn_file_actions_adddup2(&actions, fd, staging)
                staged.append((staging, Int32(index)))
            }
        }
        for (index, descriptor) in descriptors.enumerated() {
            let fd = Int32(index)
            switch descriptor {
            case .inherited, .copy: break
            case .reading(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_RDONLY, 0)
            case .writing(let path): posix_spawn_file_actions_addopen(&actions, fd, path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            case .closed: close(fd, in: &actions)
            }
        }
        for (staging, fd) in staged { posix_spawn_file_actions_adddup2(&actions, staging, fd) }
        for (staging, _) in staged { posix_spawn_file_actions_addclose(&actions, staging) }
        for fd in closing { close(fd, in: &actions) }

        var attributes = CLibrary.emptyAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var flags: Int32 = 0
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        if defaultSignals {
            var defaults = sigset_t()
            sigemptyset(&defaults)
            for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD, SIGWINCH] { sigaddset(&defaults, signal) }
            posix_spawnattr_setsigdefault(&attributes, &defaults)
            var noSignals = sigset_t()
            sigemptyset(&noSignals)
            posix_spawnattr_setsigmask(&attributes, &noSignals)
            flags |= Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
        }

        let cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        let cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in cArgs { free(pointer) }
            for pointer in cEnv { free(pointer) }
        }
        var pid: pid_t = 0
        let result = CLibrary.spawn(&pid, argv[0], &actions, &attributes, flags: flags,
                                    closingFrom: Int32(descriptors.count), cArgs, cEnv)
        guard result == 0 else { throw TestFailure("cannot start \(argv[0]): \(String(cString: strerror(result)))") }
        return ChildProcess(pid: pid, program: argv[0])
    }

    /// The test process's environment, without `removing`, with `adding`
    /// (a nil value removes a variable), as `NAME=value` strings.
    public static func environment(removing: [String] = [], adding: [String: String?] = [:]) -> [String] {
        var environment = ProcessInfo.processInfo.environment
        for name in removing { environment[name] = nil }
        for (name, value) in adding { environment[name] = value }
        return environment.map { "\($0.key)=\($0.value)" }
    }

    /// A file action that closes `fd` in the child, whatever the test
    /// process has open there (a dup2 first, so that the close has
    /// something to close).
    private static func close(_ fd: Int32, in actions: inout SpawnFileActions) {
        posix_spawn_file_actions_adddup2(&actions, 2, fd)
        posix_spawn_file_actions_addclose(&actions, fd)
    }

    // MARK: - Ending

    /// How the child ended, if it has, without blocking (nil: still running).
    /// A child that cannot be waited for (someone else reaped it) ended ``Status/lost``.
    public func exitStatus() -> Status? {
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        if r == pid { return Status(waitStatus: raw) }
        if r < 0 && errno != EINTR { return .lost }
        return nil
    }

    /// Waits for the child to end, blocking the calling thread.
    public func waitBlocking() -> Status {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            if errno != EINTR { return .lost }
        }
        return Status(waitStatus: raw)
    }

    /// Waits for the child to end, polling every few milliseconds without
    /// holding a thread between polls, until `deadline`: nil if it is still
    /// running then. Throws only if the task is cancelled.
    public func wait(until deadline: ContinuousClock.Instant) async throws -> Status? {
        while true {
            if let status = exitStatus() { return status }
            if ContinuousClock.now >= deadline { return nil }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Kills the child (SIGKILL) and waits for it: how it ended, as
    /// ``waitBlocking()`` says (killed, or what it ended with before).
    @discardableResult
    public func kill() -> Status {
        sendSignal(pid, SIGKILL)
        return waitBlocking()
    }

    /// Sends SIGKILL to the child's process group (it must have been started
    /// with `ownProcessGroup`): everything it started that is still there.
    public func killGroup() {
        sendSignal(-pid, SIGKILL)
    }
}

/// `kill(2)`, outside ``ChildProcess``, whose `kill()` would hide it.
private func sendSignal(_ pid: pid_t, _ signal: Int32) {
    _ = kill(pid, signal)
}

extension ChildProcess {
    /// How a child process ended: its exit code, or the signal that killed it.
    public struct Status: Sendable, Equatable, CustomStringConvertible {
        /// The exit code, if it exited.
        public var code: Int32?
        /// The signal that killed it, if one did.
        public var signal: Int32?

        /// A status as `waitpid` reports it.
        public init(waitStatus raw: Int32) {
            if raw & 0x7f == 0 {
                code = (raw >> 8) & 0xff
            } else {
                signal = raw & 0x7f
            }
        }

        /// A child that could not be waited for: as if it exited with 255.
        public static let lost = Status(waitStatus: 255 << 8)

        /// As a shell reports it: the exit code, or 128 + the signal.
        public var shellStatus: Int32 { code ?? 128 + (signal ?? 0) }

        /// `exit N` or `signal N`.
        public var description: String { code.map { "exit \($0)" } ?? "signal \(signal ?? 0)" }
    }
}
