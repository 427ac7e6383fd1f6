import Foundation

/// Runs independent pieces of work on several threads at once and hands each
/// result back on the calling thread in the order of the pieces, as soon as it
/// and every piece before it are done: `check` analyses many traces on all
/// cores (`--jobs`) and still writes exactly what checking them one after the
/// other writes.
///
/// Plain threads, not a `TaskGroup`: a piece (reading a trace file and folding
/// it into a model) is synchronous CPU work with blocking reads, which the
/// cooperative pool is not meant to be handed; the commands are synchronous,
/// so a task group would also need the calling thread blocked on a semaphore
/// until async work ends; and with threads of its own, `--jobs N` means N
/// pieces truly running at once, whatever the width of the cooperative pool.
///
/// The calling thread is one of the jobs: it starts `jobs - 1` threads, and
/// while the next result to deliver is not ready it runs pieces itself. So
/// the work gets done even when the system refuses to start a thread
/// (Foundation's `Thread` does not say), on the calling thread alone in the
/// worst case.
///
/// Bounded: at most `jobs` pieces run at once, and a thread starts a piece
/// only while fewer than ``window(jobs:)`` pieces are started and not yet
/// delivered, so one slow piece cannot make the finished ones behind it pile up.
enum OrderedParallelWork {
    /// The most jobs `--jobs` takes.
    static let maxJobs = 1_024

    /// One job per core: the default of `--jobs`.
    static var defaultJobs: Int { max(1, ProcessInfo.processInfo.activeProcessorCount) }

    /// How many pieces may be started and not yet delivered, with `jobs` jobs.
    static func window(jobs: Int) -> Int { 2 * jobs }

    /// The stack of each thread: as large as the main thread's usual 8 MiB,
    /// since the pieces run code that otherwise runs on the main thread.
    private static let stackSize = 8 << 20

    /// Runs `work` for each index in `0..<count`, at most `jobs` at once, and
    /// calls `deliver` on the calling thread with each index and its result,
    /// in index order. With one job (or one piece), everything runs on the
    /// calling thread, one piece after the other, each delivered before the
    /// next starts. Returns once every result is delivered and every thread
    /// that started has finished.
    static func run<Result: Sendable>(count: Int, jobs: Int, work: @escaping @Sendable (Int) -> Result,
                                      deliver: (Int, Result) -> Void) {
        let threads = min(max(jobs, 1), count) - 1
        guard threads > 0 else {
            for index in 0..<count { deliver(index, work(index)) }
            return
        }
        let queue = OrderedWorkQueue<Result>(count: count, window: window(jobs: threads + 1))
        for number in 1...threads {
            let thread = Thread { queue.work(work) }
            thread.name = "napkin-job-\(number)"
            thread.stackSize = stackSize
            thread.start()
        }
        for index in 0..<count { deliver(index, queue.take(index, helpingWith: work)) }
        queue.waitForWorkers()
    }
}
