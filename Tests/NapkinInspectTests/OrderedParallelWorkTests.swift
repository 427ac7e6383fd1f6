import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect

/// ``OrderedParallelWork``, the thread pool behind `check --jobs`: results in
/// order, each piece once, truly at once on several threads, and bounded.
@Suite("OrderedParallelWork")
struct OrderedParallelWorkTests {
    /// What the pieces saw while they ran.
    struct Counters {
        var running = 0
        var mostRunning = 0
        var started = 0
        var delivered = 0
        var mostAhead = 0
        var threads: Set<String> = []
    }

    @Test("every piece once, delivered in order on the calling thread, at most `jobs` running and a window ahead", arguments: [1, 2, 3, 8])
    func orderAndBounds(_ jobs: Int) {
        let counters = Locked(Counters())
        let caller = Thread.current.description
        var delivered: [Int] = []
        OrderedParallelWork.run(count: 200, jobs: jobs, work: { index in
            counters.withLock {
                $0.running += 1
                $0.started += 1
                $0.mostRunning = max($0.mostRunning, $0.running)
                $0.mostAhead = max($0.mostAhead, $0.started - $0.delivered)
                $0.threads.insert(Thread.current.description)
            }
            // Later pieces finish sooner, so results arrive out of order.
            var sum = 0
            for step in 0..<((200 - index) * 50) { sum &+= step }
            counters.withLock { $0.running -= 1 }
            return index * 2 + (sum == -1 ? 1 : 0)
        }) { index, result in
            #expect(Thread.current.description == caller)
            #expect(result == index * 2)
            delivered.append(index)
            counters.withLock { $0.delivered += 1 }
        }
        #expect(delivered == Array(0..<200))
        let seen = counters.withLock { $0 }
        #expect(seen.mostRunning <= jobs)
        // Started and not yet delivered: the window, and the one being delivered.
        #expect(seen.mostAhead <= OrderedParallelWork.window(jobs: jobs) + 1)
        if jobs == 1 { #expect(seen.threads == [caller], "one job runs on the calling thread") }
        #expect(seen.threads.count <= jobs, "the calling thread and jobs - 1 threads")
    }

    @Test("two jobs really run at once: piece 0 waits for piece 1 to start (a deadlock if they ran one after the other)")
    func simultaneous() {
        let secondStarted = DispatchSemaphore(value: 0)
        let waitedInVain = Locked(false)
        OrderedParallelWork.run(count: 2, jobs: 2, work: { index in
            if index == 1 {
                secondStarted.signal()
            } else if secondStarted.wait(timeout: .now() + 60) == .timedOut {
                // A guard against hanging the suite, not a timing assertion.
                waitedInVain.withLock { $0 = true }
            }
            return index
        }) { _, _ in }
        #expect(waitedInVain.withLock { $0 } == false)
    }

    @Test("no piece: nothing delivered, no thread left; more jobs than pieces")
    func edges() {
        var calls = 0
        OrderedParallelWork.run(count: 0, jobs: 4, work: { $0 }) { _, _ in calls += 1 }
        #expect(calls == 0)
        var results: [Int] = []
        OrderedParallelWork.run(count: 3, jobs: 64, work: { $0 + 10 }) { _, result in results.append(result) }
        #expect(results == [10, 11, 12])
    }
}
