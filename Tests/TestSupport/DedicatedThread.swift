import Dispatch
import Testing

/// Runs a test (or every test of a suite) on a thread of its own instead of
/// Swift's cooperative thread pool: `@Test(.dedicatedThread)`.
///
/// Swift Testing runs tests in parallel on the cooperative pool, which has
/// one thread per core: two on a small CI runner. A test that computes for
/// seconds (minutes under the thread sanitizer) or blocks its thread (a
/// child process, a semaphore, a blocking read) holds one of them for that
/// long, and every other test that is ready to run waits behind it, however
/// little it has to do: a test that needs microseconds then fails its time
/// limit. With this trait the test's code runs on a serial dispatch queue of
/// its own (which gets a thread of its own, outside the pool), so the system
/// shares the cores between it and the pool instead. Task-local values
/// (the current test, for `#expect`) are kept: it is the same task.
///
/// At most ``width`` such tests run at once (the others wait, suspended,
/// holding no thread): with two, the heavy tests and the pool share the
/// cores about half and half, so that neither starves the other. A test
/// with a time limit starts at once (its limit would count the wait).
///
/// A test isolated to an actor (`@MainActor`) runs on that actor; only
/// its nonisolated code moves.
public struct DedicatedThread: TestTrait, SuiteTrait, TestScoping {
    /// How many tests with the trait run at once.
    public static let width = 2
    private static let lanes = Slots(width)

    /// Applies to every test of a suite it marks.
    public var isRecursive: Bool { true }

    /// Runs the test with a task executor of its own.
    public func provideScope(for test: Test, testCase: Test.Case?,
                             performing function: @Sendable () async throws -> Void) async throws {
        // A suite's scope is not a test: only each test case gets a thread.
        guard testCase != nil else { return try await function() }
        // A test with a time limit does not queue for a lane: its limit
        // counts from its start, and is for a hang, not for the queue.
        let queues = test.timeLimit == nil
        if queues { await Self.lanes.acquire() }
        do {
            try await withTaskExecutorPreference(DedicatedExecutor(label: test.name)) {
                try await function()
            }
        } catch {
            if queues { await Self.lanes.release() }
            throw error
        }
        if queues { await Self.lanes.release() }
    }
}

extension DedicatedThread {
    /// Whether the calling code runs on a dedicated thread (a test with the
    /// trait), not on the cooperative pool.
    public static var isCurrent: Bool { DispatchQueue.getSpecific(key: DedicatedExecutor.marker) != nil }
}

extension Trait where Self == DedicatedThread {
    /// Runs the test on a thread of its own, not on the cooperative pool
    /// (see ``DedicatedThread``): for a test that computes for long or blocks.
    public static var dedicatedThread: Self { DedicatedThread() }
}

/// A task executor that runs its jobs, one at a time, on a serial dispatch
/// queue of its own; on Linux and Apple platforms such a queue is served by
/// a thread outside the cooperative pool.
final class DedicatedExecutor: TaskExecutor {
    /// Set on every dedicated queue (``DedicatedThread/isCurrent``).
    static let marker = DispatchSpecificKey<Bool>()
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: "test: \(label)")
        queue.setSpecific(key: Self.marker, value: true)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { [self] in job.runSynchronously(on: asUnownedTaskExecutor()) }
    }
}
