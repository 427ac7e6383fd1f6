/// At most a fixed number of holders at once; the others wait (suspended,
/// holding no thread) in the order they came. For tests that must not all
/// run together: child processes on a small machine, heavy tests on their
/// own threads (``DedicatedThread``).
public actor Slots {
    private var available: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// `count` slots, all free.
    public init(_ count: Int) { available = count }

    /// Takes a slot, waiting for one to be released if none is free.
    public func acquire() async {
        if available > 0 {
            available -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    /// Gives a slot back (to the longest waiter, if any).
    public func release() {
        if waiting.isEmpty { available += 1 } else { waiting.removeFirst().resume() }
    }
}
