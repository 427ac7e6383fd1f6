import Foundation

/// Runs a program with tracing switched on, for `live -- CMD` and `check -- CMD`.
///
/// The program inherits the terminal's standard input, output and error
/// (unless redirected), so its own output stays the user's; its trace
/// reaches us through the environment variable `NAPKIN_TRACE`.
final class ChildProcess {
    private let pid: pid_t
    /// The exit status, once the child has been reaped.
    private var status: Int32?

    /// Starts `command` (looked up on PATH) with `extra` added to our environment.
    ///
    /// - Parameters:
    ///   - outputFD: when set, the child's stdout and stderr go there instead of ours.
    ///   - stdoutToStderr: the child's standard output goes to our standard
    ///     error (ours carries a report another program parses).
    init(command: [String], environment extra: [String: String], outputFD: Int32? = nil,
         stdoutToStderr: Bool = false) throws(CommandFailure) {
        guard let program = command.first else { throw CommandFailure("no command to run") }
        var actions = Platform.emptySpawnFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        // The child gets the output pipe as 1 and 2 only: an extra copy would keep
        // it open after the child exits (no end of its output).
        if stdoutToStderr && outputFD == nil { posix_spawn_file_actions_adddup2(&actions, 2, 1) }
        if let outputFD {
            posix_spawn_file_actions_adddup2(&actions, outputFD, 1)
            posix_spawn_file_actions_adddup2(&actions, outputFD, 2)
            if outputFD > 2 { posix_spawn_file_actions_addclose(&actions, outputFD) }
        }
        var attributes = Platform.emptySpawnAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child gets default SIGINT/SIGPIPE/SIGTERM handling even if we ignore them.
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGINT)
        sigaddset(&defaults, SIGPIPE)
        sigaddset(&defaults, SIGTERM)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var noSignals = sigset_t()
        sigemptyset(&noSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK))

        var environment = ProcessInfo.processInfo.environment
        for (key, value) in extra { environment[key] = value }
        let environmentStrings = environment.map { "\($0.key)=\($0.value)" }

        var pid: pid_t = 0
        let result = withCStrings(command) { argv in
            withCStrings(environmentStrings) { envp in
                posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            }
        }
        guard result == 0 else {
            let reason = result == ENOENT ? "command not found (check the name and PATH)" : String(cString: strerror(result))
            throw CommandFailure("cannot run '\(program)': \(reason)")
        }
        self.pid = pid
    }

    /// Runs `command` to its end and returns its status; meanwhile Ctrl-C is
    /// left to the command (which gets it from the terminal) instead of stopping us.
    static func run(_ command: [String], environment: [String: String], stdoutToStderr: Bool = false) throws(CommandFailure) -> Int32 {
        let previous = signal(SIGINT, SIG_IGN)
        defer { signal(SIGINT, previous) }
        return try ChildProcess(command: command, environment: environment, stdoutToStderr: stdoutToStderr).wait()
    }

    /// Waits for the child to exit; returns its status as a shell reports it
    /// (the exit code, or 128 + the signal that killed it).
    @discardableResult
    func wait() -> Int32 {
        if let status { return status }
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            if errno != EINTR { status = 1; return 1 }
        }
        let code = ChildProcess.shellStatus(raw)
        status = code
        return code
    }

    /// Checks without blocking whether the child has exited; returns its status if so.
    func poll() -> Int32? {
        if let status { return status }
        var raw: Int32 = 0
        let r = waitpid(pid, &raw, WNOHANG)
        guard r == pid else { return nil }
        let code = ChildProcess.shellStatus(raw)
        status = code
        return code
    }

    /// Sends `signal` to the child, unless it has been reaped.
    func send(_ signal: Int32) {
        if status == nil { kill(pid, signal) }
    }

    /// Stops the child politely: SIGTERM, then SIGKILL if it still runs 2 s later; waits for it.
    func stop() {
        if poll() == nil {
            send(SIGTERM)
            var waited = 0
            while poll() == nil && waited < 40 {
                Platform.sleep(nanoseconds: 50_000_000)
                waited += 1
            }
            if poll() == nil { send(SIGKILL) }
        }
        wait()
    }

    private static func shellStatus(_ raw: Int32) -> Int32 {
        let signalNumber = raw & 0x7f
        if signalNumber == 0 { return (raw >> 8) & 0xff }
        return 128 + signalNumber
    }
}

/// Calls `body` with a NULL-terminated C array of the strings.
private func withCStrings<R>(_ strings: [String], _ body: ([UnsafeMutablePointer<CChar>?]) -> R) -> R {
    var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
    pointers.append(nil)
    defer { for pointer in pointers { free(pointer) } }
    return body(pointers)
}
