import Foundation

/// Child processes that keep the CPU busy while a test runs (a loaded CI
/// runner, on demand): each is a shell spinning in a loop at normal
/// priority. They stop when ``stop()`` is called, and in any case after
/// ``maxSeconds`` (a test that crashes leaves nothing spinning for long).
final class BusyLoops {
    /// The longest a loop spins, whatever happens to the test.
    static let maxSeconds = 300

    private let processes: [Process]

    /// Starts `count` loops.
    init(count: Int) throws {
        var started: [Process] = []
        for _ in 0..<count {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            // Bounded by the clock, checked every 100,000 turns (a loop that forks `date` each turn would not spin).
            process.arguments = ["-c", "end=$(( $(date +%s) + \(Self.maxSeconds) )); while [ \"$(date +%s)\" -lt \"$end\" ]; do i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; done"]
            process.standardInput = FileHandle.nullDevice
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            started.append(process)
        }
        processes = started
    }

    /// Stops every loop (it is not waited for: killed processes are reaped by Foundation).
    func stop() {
        for process in processes where process.isRunning { process.terminate() }
    }
}
