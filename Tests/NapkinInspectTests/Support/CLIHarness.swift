import Foundation
import Testing
import TestSupport

/// Runs the built `napkin-inspect` and `rib-house` (and other programs) as a
/// user would: working directory = the repository root, standard output and
/// error captured to temporary files (no pipe can fill up and deadlock), in a
/// process group of their own that is killed if it outlives the timeout.
enum CLIHarness {
    /// The directory holding the built products (next to the test executable).
    static let productsDirectory: URL = {
        let candidates = BuiltProducts.directories
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.appendingPathComponent("napkin-inspect").path) }
            ?? candidates[0]
    }()

    /// The built `napkin-inspect`.
    static var inspectPath: String { productsDirectory.appendingPathComponent("napkin-inspect").path }

    /// Whether the built programs run under an address-space limit of 2 GiB
    /// (`ulimit -v`): not when they are built with ThreadSanitizer, which
    /// reserves terabytes of shadow memory. Without it, memory is not limited.
    static let memoryLimitsWork: Bool = {
        let argv = ["/bin/sh", "-c", "ulimit -v 2097152 && exec \"$0\" --version > /dev/null 2>&1", inspectPath]
        guard let child = try? spawn(argv, environment: [], stdin: "/dev/null", stdout: "/dev/null", stderr: "/dev/null") else { return false }
        return child.waitBlocking().shellStatus == 0
    }()
    /// The built `rib-house`.
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
    /// A fixture trace's path relative to the repository root, as the programs see it.
    static func fixture(_ name: String) -> String { Fixtures.relativePath(name) }

    /// Runs `napkin-inspect ARGUMENTS`.
    static func inspect(_ arguments: [String], environment: [String: String?] = [:], stdin: CLIInput = .none,
                        timeout: Double = Double(childHangBound.components.seconds), memoryLimit: Int? = nil) async throws -> CLIResult {
        try await run(inspectPath, arguments, environment: environment, stdin: stdin, timeout: timeout, memoryLimit: memoryLimit)
    }

    /// Runs `executable ARGUMENTS` with the test process's environment minus
    /// `NO_COLOR`, `NAPKIN_TRACE` and `NAPKIN_DETECT`, plus `environment` (a nil value removes a
    /// variable); with `memoryLimit`, its address space is limited to that many
    /// MiB (`ulimit -v`), when ``memoryLimitsWork``. A program waits for one
    /// of a few ``slots``; `takesSlot: false` is for commands that return at
    /// once (tmux's), whose caller polls against a deadline and must not wait
    /// behind other tests' long runs (a capture queued for minutes looked like a hang).
    static func run(_ executable: String, _ arguments: [String], environment: [String: String?] = [:],
                    stdin: CLIInput = .none, timeout: Double = Double(childHangBound.components.seconds), memoryLimit: Int? = nil,
                    takesSlot: Bool = true) async throws -> CLIResult {
        if takesSlot { await slots.acquire() }
        defer { if takesSlot { Task { await slots.release() } } }

        let env = ChildProcess.environment(removing: ["NO_COLOR", "NAPKIN_TRACE", "NAPKIN_DETECT", "CLICOLOR_FORCE", "FORCE_COLOR"], adding: environment)

        let scratch = try ScratchDirectory("cli")
        defer { scratch.remove() }
        let outPath = scratch.file("stdout")
        let errPath = scratch.file("stderr")
        let inPath: String
        switch stdin {
        case .none: inPath = "/dev/null"
        case .file(let path): inPath = path
        case .data(let data): inPath = try scratch.write("stdin", bytes: Array(data))
        }

        // `sh` changes to the repository root, limits the address space if asked,
        // and execs the program (posix_spawn has no portable chdir).
        let command = [executable] + arguments
        let limit = memoryLimit.flatMap { memoryLimitsWork ? String($0 * 1024) : nil } ?? "unlimited"
        let script = "cd -- \"$1\" || exit 125; ulimit -v \"$2\" || exit 125; shift 2; exec \"$@\""
        let argv = ["/bin/sh", "-c", script, "sh", PackagePaths.root.path, limit] + command
        let child = try spawn(argv, environment: env, stdin: inPath, stdout: outPath, stderr: errPath)

        let status: ChildProcess.Status?
        do {
            status = try await child.wait(until: ContinuousClock.now + .milliseconds(Int(timeout * 1000)))
        } catch {
            child.killGroup()
            _ = child.waitBlocking()
            throw error
        }
        // Nothing the program started may outlive the test.
        child.killGroup()
        let stdoutData = read(outPath), stderrData = read(errPath)
        guard let status else {
            _ = child.waitBlocking()
            throw CLITimeout(command: command, seconds: timeout, stdout: CLIResult.excerpt(read(outPath)), stderr: CLIResult.excerpt(read(errPath)))
        }
        return CLIResult(command: command, status: status.shellStatus, stdoutData: stdoutData, stderrData: stderrData)
    }

    // MARK: - Processes

    /// At most a few programs at once: the machine may have only 2 cores, and
    /// `rib-house` runs with short grace periods.
    private static let slots = Slots(4)

    /// Starts `argv` with these files as its standard input, output and
    /// error, in a process group of its own (so a timeout kills everything it
    /// started), with default signal handling and no blocked signals,
    /// whatever the test runner uses.
    private static func spawn(_ argv: [String], environment: [String], stdin: String, stdout: String, stderr: String) throws -> ChildProcess {
        try ChildProcess.spawn(argv, environment: environment, descriptors: [.reading(stdin), .writing(stdout), .writing(stderr)],
                               ownProcessGroup: true, defaultSignals: true)
    }

    private static func read(_ path: String) -> Data {
        FileManager.default.contents(atPath: path) ?? Data()
    }
}
