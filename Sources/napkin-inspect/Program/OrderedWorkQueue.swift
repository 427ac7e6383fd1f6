import Foundation

/// The state the worker threads of ``OrderedParallelWork`` and the thread
/// that delivers their results share: which piece starts next, the results not
/// yet delivered, how many workers are running.
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
    /// The next piece to start: every piece before it is taken.
    private var nextToStart = 0
    /// The next piece to deliver.
    private var nextToDeliver = 0
    /// The results finished and not yet delivered, by piece.
    private var finished: [Int: Result] = [:]
    /// Workers that have started and not yet ended.
    private var workersRunning = 0

    /// A queue of `count` pieces, at most `window` of them started and not delivered.
    init(count: Int, window: Int) {
        self.count = count
        self.window = window
    }

    /// A worker thread's life: takes pieces and runs `body` on them until none is left.
    func work(_ body: (Int) -> Result) {
        condition.lock()
        workersRunning += 1
        condition.unlock()
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

    /// The result of piece `index`, the next to deliver. While it is not
    /// finished, the calling thread does a worker's job: it runs the next
    /// piece to start with `body` (the window allowing), or waits.
    func take(_ index: Int, helpingWith body: (Int) -> Result) -> Result {
        condition.lock()
        defer { condition.unlock() }
        while finished[index] == nil {
            if nextToStart < count && nextToStart < nextToDeliver + window {
                let piece = nextToStart
                nextToStart += 1
                condition.unlock()
                let result = body(piece)
                condition.lock()
                finished[piece] = result
            } else {
                condition.wait()
            }
        }
        nextToDeliver = index + 1
        condition.broadcast()
        return finished.removeValue(forKey: index)!
    }

    /// Waits until every worker that started has ended.
    func waitForWorkers() {
        condition.lock()
        defer { condition.unlock() }
        while workersRunning > 0 { condition.wait() }
    }
}
