import Foundation

/// The state the worker threads of ``OrderedParallelWork`` and the thread
/// that delivers their results share: which piece starts next, the results not
/// yet delivered, how many workers still run.
///
/// `@unchecked Sendable`: every `var` is read and written only with
/// `condition` locked (an `NSCondition`, a pthread mutex with its condition
/// variable, which ThreadSanitizer understands); the `let`s never change.
final class OrderedWorkQueue<Result: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    /// How many pieces there are.
    private let count: Int
    /// How many pieces may be started and not yet delivered.
    private let window: Int
    /// The next piece a worker takes.
    private var nextToStart = 0
    /// The next piece to deliver.
    private var nextToDeliver = 0
    /// The results finished and not yet delivered, by piece.
    private var finished: [Int: Result] = [:]
    /// Workers that have not yet ended.
    private var workersRunning: Int

    /// A queue of `count` pieces, at most `window` of them started and not delivered, for `workers` threads.
    init(count: Int, window: Int, workers: Int) {
        self.count = count
        self.window = window
        workersRunning = workers
    }

    /// A worker thread's life: takes pieces and runs `body` on them until none is left.
    func work(_ body: (Int) -> Result) {
        while let index = claim() {
            let result = body(index)
            condition.lock()
            finished[index] = result
            condition.broadcast()
            condition.unlock()
        }
        condition.lock()
        workersRunning -= 1
        condition.broadcast()
        condition.unlock()
    }

    /// The next piece to run, once the window has room for it; nil when every piece is taken.
    private func claim() -> Int? {
        condition.lock()
        defer { condition.unlock() }
        while nextToStart < count && nextToStart >= nextToDeliver + window { condition.wait() }
        guard nextToStart < count else { return nil }
        nextToStart += 1
        return nextToStart - 1
    }

    /// Waits for the result of piece `index` (the next to deliver) and takes it out of the queue.
    func take(_ index: Int) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while finished[index] == nil { condition.wait() }
        nextToDeliver = index + 1
        condition.broadcast()
        return finished.removeValue(forKey: index)!
    }

    /// Waits until every worker has ended.
    func waitForWorkers() {
        condition.lock()
        defer { condition.unlock() }
        while workersRunning > 0 { condition.wait() }
    }
}
