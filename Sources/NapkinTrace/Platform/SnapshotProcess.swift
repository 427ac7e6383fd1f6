// A frozen copy of the process to read: `fork()` makes a child with one
// thread and a copy-on-write image of the parent's memory at one moment,
// so a walk of the heap in the child sees every object as it was then, and
// nothing another thread does can change a value under a read. A read that
// still goes wrong (a value torn by a store in progress at the fork, an
// object freed between a load and a retain) can kill only the child: the
// app's process never reads a byte of it. Linux and macOS only (iOS forbids
// `fork`); the caller reads in place elsewhere.
//
// Unsafe by nature, and what keeps it sound:
// - The child runs only the body it is given: synchronous code, no new
//   thread, no Swift concurrency, no `exit()` (the app's `atexit` handlers
//   would flush the parent's buffers a second time); it leaves by `_exit`.
// - Before the body runs the child closes every descriptor but its result
//   pipe, so nothing it does (a deinit the walk ends up running, say)
//   writes to the app's files, sockets or terminal; it restores the default
//   action of the crash and termination signals and forbids a core file, so
//   a crash (or a signal to the app's process group) ends it quietly instead
//   of running the app's crash reporter or exit handler; and `alarm` ends
//   it if its parent's deadline is somehow missed.
// - A lock another thread held at the fork stays held in the child: a body
//   that needs it waits forever, and the parent kills the child at its
//   deadline. The C library's allocator is prepared for `fork` (glibc's
//   and Darwin's take their locks around it).
// - The parent never blocks the app: it runs on the caller's thread (never
//   the main thread), waits at most the deadline, and reaps the child.
internal import NapkinLibc

extension Platform {
    /// How a read in a child process ended.
    package enum SnapshotOutcome: Sendable {
        /// The child wrote these bytes and exited normally.
        case finished([UInt8])
        /// It did not: why, in words for a note.
        case failed(String)
        /// It did not answer in time (a lock another thread held at the
        /// fork, most likely): a copy made at another moment may.
        case timedOut(String)
        /// It died on a signal: a value torn by a store in progress at the
        /// fork, most likely; a copy made at another moment may read well.
        case crashed(String)
    }

    /// Whether this platform can read a frozen copy of the process.
    package static var canSnapshot: Bool {
        #if os(Linux) || os(macOS)
        true
        #else
        false
        #endif
    }

    /// The most bytes a child may send back (its result is a graph of names).
    static let maxSnapshotBytes = 64 << 20

    /// A child started by ``startReader(timeoutMS:stallMS:_:)``, whose
    /// answer is still to be collected.
    package struct SnapshotReader: Sendable {
        fileprivate let pid: Int32
        fileprivate let readEnd: Int32
        fileprivate let timeoutMS: Int
        fileprivate let stallMS: Int
    }

    /// What a child writes while it works (one byte, now and then), so
    /// that one stuck on a lock another thread held at the fork is told
    /// from one still reading.
    private static let heartbeatByte: UInt8 = 0x01
    /// What a child writes before its answer.
    private static let answerByte: UInt8 = 0x02

    /// Forks a child that runs `body` and writes what it returns; the
    /// caller collects it with ``collect(_:cancelled:)``. The fork is the
    /// moment the child sees. `body` is given a heartbeat to call as it
    /// works: a child silent for `stallMS` is taken for stuck.
    package static func startReader(timeoutMS: Int, stallMS: Int,
                                    _ body: (_ heartbeat: @escaping () -> Void) -> [UInt8]) -> Result<SnapshotReader, SnapshotFailure> {
        #if os(Linux) || os(macOS)
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { return .failure(.init(why: "no pipe for the snapshot (\(SystemError.current))")) }
        let (readEnd, writeEnd) = (ends[0], ends[1])
        let pid = fork()
        if pid == 0 {
            prepareChild(keeping: writeEnd, seconds: UInt32(max(1, (timeoutMS + 999) / 1000 + 1)))
            let bytes = body {
                var beat = heartbeatByte
                _ = write(writeEnd, &beat, 1)
            }
            var marker = answerByte
            _ = write(writeEnd, &marker, 1)
            _ = bytes.withUnsafeBytes { writeAll(writeEnd, $0) }
            _exit(0)
        }
        close(writeEnd)
        guard pid > 0 else {
            close(readEnd)
            return .failure(.init(why: "the process could not be copied (fork: \(SystemError.current))"))
        }
        return .success(SnapshotReader(pid: pid, readEnd: readEnd, timeoutMS: timeoutMS, stallMS: stallMS))
        #else
        return .failure(.init(why: "this platform cannot copy the process"))
        #endif
    }

    /// Why a snapshot gave no answer.
    package struct SnapshotFailure: Error, Sendable {
        /// In words, for a note.
        package let why: String
    }

    /// Waits for `reader`'s answer, at most its timeout, giving up at once
    /// when `cancelled()` says so (polled every 20 ms); the child is reaped
    /// (killed first when its answer is not whole). Never call on the main thread.
    package static func collect(_ reader: SnapshotReader, cancelled: () -> Bool) -> SnapshotOutcome {
        #if os(Linux) || os(macOS)
        let (pid, readEnd, timeoutMS) = (reader.pid, reader.readEnd, reader.timeoutMS)
        defer { close(readEnd) }
        let deadline = MonotonicClock.now() &+ UInt64(max(timeoutMS, 0)) &* 1_000_000
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        var ended = false
        var stop: String? = nil
        var timedOut = false
        var stalled = false
        var heardAt = MonotonicClock.now()
        var answering = false
        while !ended {
            if cancelled() { stop = "cut short: the process was exiting"; break }
            let now = MonotonicClock.now()
            if now >= deadline { timedOut = true; break }
            if now &- heardAt > UInt64(reader.stallMS) &* 1_000_000 {
                // Silent, but waiting for a core on a busy machine, not for a
                // lock: it is given until the deadline.
                guard isWaitingForCPU(pid) else { stalled = true; break }
                heardAt = now
            }
            guard waitUntilReadable(readEnd, timeoutMS: 20) == .ready else { continue }
            let count = chunk.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                heardAt = MonotonicClock.now()
                var start = 0
                while !answering && start < count {
                    if chunk[start] == answerByte { answering = true }
                    start += 1
                }
                received.append(contentsOf: chunk[start..<count])
                if received.count > maxSnapshotBytes { stop = "the snapshot's reader sent too much"; break }
            } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                ended = true
            }
        }
        if stop != nil || timedOut || stalled { kill(pid, SIGKILL) }
        let status = reap(pid)
        if timedOut { return .timedOut("the snapshot's reader did not finish within \(timeoutMS) ms") }
        if stalled { return .timedOut("the snapshot's reader stopped answering (a lock another thread held when the process was copied)") }
        if let stop { return .failed(stop) }
        switch status {
        case .exited(0), .unknown:
            return answering ? .finished(received) : .failed("the snapshot's reader ended without an answer")
        case .exited(let code): return .failed("the snapshot's reader exited with status \(code)")
        case .signalled(let signal): return .crashed("the snapshot's reader stopped on signal \(signal) (a value was being changed when the process was copied)")
        }
        #else
        return .failed("this platform cannot copy the process")
        #endif
    }

    #if os(Linux) || os(macOS)
    /// Whether the child `pid` is running or runnable (or in an
    /// uninterruptible wait, a page being read in), not asleep: a child
    /// that waits for a lock held at the fork sleeps in the kernel (a futex).
    /// Linux's `/proc/PID/stat`, its state the letter after the command's
    /// closing parenthesis; false elsewhere, or when it cannot be read.
    private static func isWaitingForCPU(_ pid: pid_t) -> Bool {
        #if os(Linux)
        let fd = open("/proc/\(pid)/stat", O_RDONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 512)
        let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        guard count > 0, let paren = bytes[..<count].lastIndex(of: UInt8(ascii: ")")), paren + 2 < count else { return false }
        let state = bytes[paren + 2]
        return state == UInt8(ascii: "R") || state == UInt8(ascii: "D")
        #else
        return false
        #endif
    }

    /// How the child ended.
    private enum ChildStatus { case exited(Int32), signalled(Int32), unknown }

    /// Waits for the child (killed, or done writing) to end.
    private static func reap(_ pid: pid_t) -> ChildStatus {
        var status: Int32 = 0
        var result: pid_t
        repeat { result = waitpid(pid, &status, 0) } while result < 0 && errno == EINTR
        // Reaped by someone else (an app's SIGCHLD handler): what it wrote is all we know.
        guard result == pid else { return .unknown }
        let signal = status & 0x7F
        if signal == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(signal)
    }

    /// The child's first steps: nothing of the app's is written to, a crash
    /// ends it quietly, and it cannot outlive its deadline by much.
    private static func prepareChild(keeping pipe: Int32, seconds: UInt32) {
        for signal in [SIGSEGV, SIGBUS, SIGILL, SIGTRAP, SIGABRT, SIGFPE, SIGSYS, SIGALRM, SIGPIPE, SIGTERM, SIGINT, SIGHUP, SIGQUIT] {
            _ = restoreDefaultAction(signal)
        }
        var unblocked = sigset_t()
        sigemptyset(&unblocked)
        sigprocmask(SIG_SETMASK, &unblocked, nil)
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        #if os(Linux)
        _ = setrlimit(__rlimit_resource_t(RLIMIT_CORE.rawValue), &none)
        #else
        _ = setrlimit(RLIMIT_CORE, &none)
        #endif
        closeDescriptors(except: pipe)
        alarm(seconds)
    }

    /// Restores the default action of `signal`.
    private static func restoreDefaultAction(_ signal: Int32) -> Int32 {
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        #if os(Linux)
        action.__sigaction_handler.sa_handler = SIG_DFL
        #else
        action.__sigaction_u.__sa_handler = SIG_DFL
        #endif
        return sigaction(signal, &action, nil)
    }

    /// Closes every descriptor of the child but `kept`.
    private static func closeDescriptors(except kept: Int32) {
        let limit = Int32(min(max(sysconf(Int32(_SC_OPEN_MAX)), 256), 65_536))
        var fd: Int32 = 0
        while fd < limit {
            if fd != kept { close(fd) }
            fd += 1
        }
    }
    #endif
}
