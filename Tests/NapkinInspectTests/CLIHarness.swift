import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What a program run by ``CLIHarness`` did.
struct CLIResult: Sendable, CustomStringConvertible {
    var command: [String]
    /// The exit code, or 128 + the signal that killed it (as a shell reports it).
    var status: Int32
    var stdout: String
    var stderr: String

    /// Non-empty lines of standard output.
    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }
    /// Non-empty lines of standard error.
    var stderrLines: [String] { stderr.split(separator: "\n").map(String.init) }

    var description: String {
        "`\(command.joined(separator: " "))` exited \(status)\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)---"
    }
}

/// A program that did not finish in time; it and its process group were killed.
struct CLITimeout: Error, CustomStringConvertible {
    var command: [String]
    var seconds: Double
    var stdout: String
    var stderr: String

    var description: String {
        "`\(command.joined(separator: " "))` did not finish within \(seconds)s and was killed\n--- stdout:\n\(stdout)--- stderr:\n\(stderr)---"
    }
}

/// What a program reads on standard input.
enum CLIInput: Sendable {
    /// `/dev/null`.
    case none
    /// These bytes.
    case data(Data)
    /// This file.
    case file(String)
}

/// Runs the built `napkin-inspect` and `rib-house` (and other programs) as a
/// user would: working directory = the repository root, standard output and
/// error captured to temporary files (no pipe can fill up and deadlock), in a
/// process group of their own that is killed if it outlives the timeout.
enum CLIHarness {
    /// The repository root (this file is Tests/NapkinInspectTests/CLIHarness.swift).
    static let repoRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The directory holding the built products (next to the test executable).
    static let productsDirectory: URL = {
        var candidates: [URL] = []
        #if os(Linux)
        candidates.append(URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent())
        #endif
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent())
        for bundle in Bundle.allBundles where bundle.bundlePath.hasSuffix(".xctest") {
            candidates.append(bundle.bundleURL.deletingLastPathComponent())
        }
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("napkin-inspect").path) }
            ?? candidates[0]
    }()

    static var inspectPath: String { productsDirectory.appendingPathComponent("napkin-inspect").path }
    static var ribHousePath: String { productsDirectory.appendingPathComponent("rib-house").path }

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

    static func executable(named name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") + ["/usr/bin", "/bin", "/usr/local/bin", "/opt/homebrew/bin"] {
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
                        timeout: Double = 60) async throws -> CLIResult {
        try await run(inspectPath, arguments, environment: environment, stdin: stdin, timeout: timeout)
    }

    /// Runs `executable ARGUMENTS` with the test process's environment minus
    /// `NO_COLOR` and `NAPKIN_TRACE`, plus `environment` (a nil value removes a variable).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                    stdin: CLIInput = .none, timeout: Double = 60) async throws -> CLIResult {
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

        // `sh` changes to the repository root and execs the program (posix_spawn
        // has no portable chdir).
        let command = [executable] + arguments
        let argv = ["/bin/sh", "-c", "cd -- \"$1\" && shift && exec \"$@\"", "sh", repoRoot.path] + command
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
        let stdoutText = read(outPath), stderrText = read(errPath)
        guard let status else {
            _ = reapBlocking(pid)
            throw CLITimeout(command: command, seconds: timeout, stdout: read(outPath), stderr: read(errPath))
        }
        return CLIResult(command: command, status: status, stdout: stdoutText, stderr: stderrText)
    }

    // MARK: - Processes

    /// At most a few programs at once: the machine may have only 2 cores, and
    /// `rib-house` runs with short grace periods.
    private static let slots = Slots(4)

    private actor Slots {
        private var available: Int
        private var waiting: [CheckedContinuation<Void, Never>] = []

        init(_ count: Int) { available = count }

        func acquire() async {
            if available > 0 {
                available -= 1
                return
            }
            await withCheckedContinuation { waiting.append($0) }
        }

        func release() {
            if waiting.isEmpty { available += 1 } else { waiting.removeFirst().resume() }
        }
    }

    private struct SpawnError: Error, CustomStringConvertible {
        var program: String
        var code: Int32
        var description: String { "cannot start \(program): \(String(cString: strerror(code)))" }
    }

    private static func spawn(_ argv: [String], environment: [String], stdin: String, stdout: String, stderr: String) throws -> pid_t {
        #if canImport(Darwin)
        var actions: posix_spawn_file_actions_t?
        var attributes: posix_spawnattr_t?
        #else
        var actions = posix_spawn_file_actions_t()
        var attributes = posix_spawnattr_t()
        #endif
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

    private static func read(_ path: String) -> String {
        String(decoding: FileManager.default.contents(atPath: path) ?? Data(), as: UTF8.self)
    }
}

/// A uniquely named temporary directory, removed when the value goes away.
final class ScratchDirectory: Sendable {
    let url: URL
    var path: String { url.path }

    init(_ label: String = "scratch") throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("napkin-e2e-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Writes `text` to a file in the directory and returns its path.
    @discardableResult
    func write(_ name: String, _ text: String) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(text.utf8).write(to: file)
        return file.path
    }

    /// Writes `bytes` to a file in the directory and returns its path.
    @discardableResult
    func write(_ name: String, bytes: [UInt8]) throws -> String {
        let file = url.appendingPathComponent(name)
        try Data(bytes).write(to: file)
        return file.path
    }

    func file(_ name: String) -> String { url.appendingPathComponent(name).path }

    deinit { try? FileManager.default.removeItem(at: url) }
}

extension String {
    /// Whether the text holds an ANSI escape sequence (a colour).
    var hasANSIEscape: Bool { contains("\u{1B}[") }

    /// The contents of a file under the repository root.
    static func repoFile(_ relativePath: String) throws -> String {
        try String(contentsOf: CLIHarness.repoRoot.appendingPathComponent(relativePath), encoding: .utf8)
    }
}

extension CLIResult {
    /// Expects exit status `status`, nothing on standard output when
    /// `emptyStdout`, and exactly one line on standard error; returns that line.
    @discardableResult
    func expectOneStderrLine(status: Int32, emptyStdout: Bool, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        #expect(self.status == status, "\(self)", sourceLocation: sourceLocation)
        if emptyStdout { #expect(stdout.isEmpty, "\(self)", sourceLocation: sourceLocation) }
        #expect(stderrLines.count == 1, "\(self)", sourceLocation: sourceLocation)
        return try #require(stderrLines.first, "\(self)", sourceLocation: sourceLocation)
    }
}
