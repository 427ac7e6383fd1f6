import Foundation

/// Runs `body` on a new thread and returns its result to the awaiting task,
/// which is suspended meanwhile: for a blocking call (a read of a pipe, a
/// wait for a child process or another thread) made from `async` test code,
/// which must not hold a thread of the cooperative pool while it blocks
/// (see `docs/contributing.md`, "A test that a busy machine cannot fail").
public func onOwnThread<T: Sendable>(_ name: String = "test-blocking-call", _ body: @escaping @Sendable () -> T) async -> T {
    await withCheckedContinuation { continuation in
        let thread = Thread { continuation.resume(returning: body()) }
        thread.name = name
        thread.start()
    }
}
