import Foundation
import Testing
import TestSupport

/// Runs the built `napkin-inspect` and `rib-house` (and other programs) as a
/// user would: working directory = the repository root, standard output and
/// error captured to temporary files (no pipe can fill up and deadlock), in a
/// process group of their own that is killed if it outlives the timeout.
enum CLIHarness {
    /// The repository root (this file is Tests/NapkinInspectTests/Support/CLIHarness.swift).
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The directory holding the built products (next to the test executable).
    static let productsDirectory: URL = {
        let candidates = testProductDirectories()
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("napkin-inspect").path) }
            ?? candidates[0]
    }()

    static var inspectPath: String { productsDirectory.appendingPathComponent("napkin-inspect").path }

    /// Whether the built programs run under an address-space limit of 2 GiB
    /// (`ulimit -v`): not when they are built with ThreadSanitizer, which
    /// reserves terabytes of shadow memory. Without it, memory is not limited.
    static let memoryLimitsWork: Bool = {
        let argv = ["/bin/sh", "-c", "ulimit -v 2097152 && exec \"$0\" --version > /dev/null 2>&1", inspectPath]
        guard let pid = try? spawn(argv, environment: [], stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null") else { return false }
        return reapBlocking(pid) == 0
    }()
    static var ribHousePath: String { productsDirectory.appendingPathComponent("rib-house").path }
    /// `TraceProbe`: with `send FILE`, an app that streams FILE's bytes to the socket in `NAPKIN_TRACE`.
    static var traceProbePath: String { productsDirectory.appendingPathComponent("TraceProbe").path }

    /// `tmux`, when installed.
    static let tmuxPath: String? = executable(named: "tmux")
    /// `script` (util-linux), when installed: runs a program on a pseudo-terminal.
    static let scriptPath: String? = {
        #if os(Linux)
        return executable(named: "script")
        #else
        return nil // BSD script takes different arguments
        #endif
    }()

    /// The first executable `name` in the directories of `searchPath` (the
    /// test process's `PATH` by default), then in the usual places.
    static func executable(named name: String, searchPath: String? = nil) -> String? {
        let path = searchPath ?? ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        // `String(...)`: without it, `+` takes the Character-sequence `split`, and each
        // directory interpolates as an array of characters (only the fallbacks matched).
        for directory in path.split(separator: ":").map(String.init) + ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }

    /// A path relative to the repository root, as the programs see it.
    static func exampleTrace(_ name: String) -> String { "Examples/traces/\(name).ndjson" }
    static func fixture(_ name: String) -> String { "Tests/Fixtures/traces/\(name).ndjson" }

    /// Runs `napkin-inspect ARGUMENTS`.
    static func inspect(_ arguments: [String], environment: [String: String?] = [:], stdin: CLIInput = .none,
                        timeout: Double = 60, memoryLimit: Int? = nil) async throws -> CLIResult {
        try await run(inspectPath, arguments, environment: environment, stdin: stdin, timeout: timeout, memoryLimit: memoryLimit)
    }

    /// Runs `executable ARGUMENTS` with the test process's environment minus
    /// `NO_COLOR` and `NAPKIN_TRACE`, plus `environment` (a nil value removes a
    /// variable); with `memoryLimit`, its address space is limited to that many
    /// MiB (`ulimit -v`), when ``memoryLimitsWork``.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                    stdin: CLIInput = .none, timeout: Double = 60, memoryLimit: Int? = nil) async throws -> CLIResult {
        await slots.acquire()
        defer { Task { await slots.release() } }

        var env = ProcessInfo.processInfo.environment
        for name in ["NO_COLOR", "NAPKIN_TRACE", "CLICOLOR_FORCE", "FORCE_COLOR"] { env[name] = nil }
        for (name, value) in environment { env[name] = value }

        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("napkin-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outPath = scratch.appendingPathComponent("stdout").path
        let errPath = scratch.appendingPathComponent("stderr").path
        let inPath: String
        switch stdin {
        case .none: inPath = "/dev/null"
        case .file(let path): inPath = path
        case .data(let data):
            inPath = scratch.appendingPathComponent("stdin").path
            try data.write(to: URL(fileURLWithPath: inPath))
        }

        // `sh` changes to the repository root, limits the address space if asked,
        // and execs the program (posix_spawn has no portable chdir).
        let command = [executable] + arguments
        let limit = memoryLimit.flatMap { memoryLimitsWork ? String($0 * 1024) : nil } ?? "unlimited"
        let script = "cd -- \"$1\" || exit 125; ulimit -v \"$2\" || exit 125; shift 2; exec \"$@\""
        let argv = ["/bin/sh", "-c", script, "sh", repoRoot.path, limit] + command
        let pid = try spawn(argv, environment: env.map { "\($0.key)=\($0.value)" }, stdin: inPath, stdout: outPath, stderr: errPath)

        let clock = ContinuousClock()
        let deadline = clock.now + .milliseconds(Int(timeout * 1000))
        var status: Int32?
        do {
            while true {
                if let code = reap(pid) {
                    status = code
                    break
                }
                if clock.now >= deadline { break }
                try await Task.sleep(for: .milliseconds(5))
            }
        } catch {
            kill(-pid, SIGKILL)
            _ = reapBlocking(pid)
            throw error
        }
        // Nothing the program started may outlive the test.
        kill(-pid, SIGKILL)
        let stdoutData = read(outPath), stderrData = read(errPath)
        guard let status else {
            _ = reapBlocking(pid)
            throw CLITimeout(command: command, seconds: timeout, stdout: CLIResult.excerpt(read(outPath)), stderr: CLIResult.excerpt(read(errPath)))
        }
        return CLIResult(command: command, status: status, stdoutData: stdoutData, stderrData: stderrData)
    }

    // MARK: - Processes

    /// At most a few programs at once: the machine may have only 2 cores, and
    /// `rib-house` runs with short grace periods.
    private static let slots = Slots(4)

    private struct SpawnError: Error, CustomStringConvertible {
        var program: String
        var code: Int32
        var description: String { "cannot start \(program): \(String(cString: strerror(code)))" }
    }

    private static func spawn(_ argv: [String], environment: [String], stdin: String, stdout: String, stderr: String) throws -> pid_t {
        var (actions, attributes) = emptySpawnSettings()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, stdin, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Its own process group (so a timeout kills everything it started),
        // default signal handling and no blocked signals, whatever the test runner uses.
        posix_spawnattr_setpgroup(&attributes, 0)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGINT, SIGTERM, SIGPIPE, SIGHUP, SIGQUIT, SIGCHLD, SIGWINCH] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var cArgs: [UnsafeMutablePointer<CChar>?] = argv.map { strdup($0) } + [nil]
        var cEnv: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) } + [nil]
        defer {
            for pointer in cArgs { free(pointer) }
            for pointer in cEnv { free(pointer) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, argv[0], &actions, &attributes, &cArgs, &cEnv)
        guard result == 0 else { throw SpawnError(program: argv[0], code: result) }
        return pid
    }

    /// The status if `pid` has exited, without blocking.
    private static func reap(_ pid: pid_t) -> Int32? {
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        if r == pid { return shellStatus(raw) }
        if r < 0 && errno != EINTR { return 255 } // lost (someone else reaped it)
        return nil
    }

    private static func reapBlocking(_ pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            if errno != EINTR { return 255 }
        }
        return shellStatus(raw)
    }

    private static func shellStatus(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    private static func read(_ path: String) -> Data {
        FileManager.default.contents(atPath: path) ?? Data()
    }
}
