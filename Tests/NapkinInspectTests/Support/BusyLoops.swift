import Foundation
import TestSupport

/// Child processes that keep the CPU busy while a test runs (a loaded CI
/// runner, on demand): each is a shell spinning in a loop at normal
/// priority. They stop when ``stop()`` is called, and in any case after
/// ``maxSeconds`` (a test that crashes leaves nothing spinning for long).
final class BusyLoops {
    /// The longest a loop spins, whatever happens to the test.
    static let maxSeconds = 300

    private let loops: [ChildProcess]

    /// Starts `count` loops.
    init(count: Int) throws {
        // Bounded by the clock, checked every 100,000 turns (a loop that forks `date` each turn would not spin).
        let script = "end=$(( $(date +%s) + \(Self.maxSeconds) )); while [ \"$(date +%s)\" -lt \"$end\" ]; do i=0; while [ $i -lt 100000 ]; do i=$((i+1)); done; done"
        var started: [ChildProcess] = []
        for _ in 0..<count {
            started.append(try ChildProcess.spawn(["/bin/sh", "-c", script], environment: ChildProcess.environment(),
                                                  descriptors: [.reading("/dev/null"), .writing("/dev/null"), .writing("/dev/null")]))
        }
        loops = started
    }

    /// Stops every loop, and waits for it to be gone.
    func stop() {
        for loop in loops { loop.kill() }
    }
}
