#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation

// The benchmark's one platform file. Spawning differs between glibc and
// Darwin in the type of the file actions (a struct in glibc; on Darwin an
// opaque pointer, nil until initialized), and in how a program reaches its
// environment (glibc's `environ`, Darwin's `_NSGetEnviron()`): the child is
// given this process's environment as an explicit array on both.
#if canImport(Darwin)
typealias SpawnFileActions = posix_spawn_file_actions_t?
func emptySpawnFileActions() -> SpawnFileActions { nil }
#else
typealias SpawnFileActions = posix_spawn_file_actions_t
func emptySpawnFileActions() -> SpawnFileActions { posix_spawn_file_actions_t() }
#endif

/// One run of a program, measured: wall time, CPU time, peak memory, exit status.
struct ProcessRun {
    /// Wall seconds, from spawning to reaping.
    var seconds: Double = 0
    /// User and system CPU seconds, of all its threads.
    var cpuSeconds: Double = 0
    /// Peak resident memory, in MiB.
    var peakMiB: Double = 0
    /// The exit status; 128 + the signal that ended it; 127 when it could not start.
    var status: Int32 = 127

    /// Runs `program` with `arguments` to its end, its standard output into
    /// `stdout` (discarded by default) and its standard error discarded.
    init(_ program: String, _ arguments: [String], stdout: String = "/dev/null") {
        var actions = emptySpawnFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        let envp = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for p in argv + envp { free(p) } }
        var pid: pid_t = 0
        let start = DispatchTime.now().uptimeNanoseconds
        guard posix_spawn(&pid, program, &actions, nil, argv, envp) == 0 else { return }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
        seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        func inSeconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        cpuSeconds = inSeconds(usage.ru_utime) + inSeconds(usage.ru_stime)
        #if canImport(Darwin)
        peakMiB = Double(usage.ru_maxrss) / 1_048_576
        #else
        peakMiB = Double(usage.ru_maxrss) / 1024
        #endif
        self.status = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
