/// One signal's waiting items (encoded spans or log records), oldest first:
/// appended at the back, taken from the front in batches. The front is an
/// offset, compacted when it passes half the storage, so taking a batch
/// from a long queue (an outage's worth) costs the batch, not the queue.
struct OTLPQueue {
    private var storage: [[UInt8]] = []
    private var head = 0

    /// Items waiting.
    var count: Int { storage.count - head }
    var isEmpty: Bool { count == 0 }

    mutating func append(contentsOf items: some Sequence<[UInt8]>) {
        storage.append(contentsOf: items)
    }

    /// The oldest `limit` items, left in the queue.
    func first(_ limit: Int) -> [[UInt8]] {
        Array(storage[head..<min(head + limit, storage.count)])
    }

    /// Removes the oldest `n` items.
    mutating func removeFirst(_ n: Int) {
        head = min(head + n, storage.count)
        if head == storage.count {
            storage.removeAll(keepingCapacity: storage.count <= 4_096)
            head = 0
        } else if head > storage.count / 2 {
            storage.removeFirst(head)
            head = 0
        }
    }

    /// Empties the queue.
    mutating func removeAll() {
        storage = []
        head = 0
    }
}
