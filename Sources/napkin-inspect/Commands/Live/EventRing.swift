import NapkinTrace

/// The most recent events of a session, oldest first, each known by its
/// index in the session (0 for the first event read).
///
/// Storage comes in chunks of ``chunkSize`` events: the ring grows a chunk
/// at a time while it has not yet wrapped (``grow()``), then keeps its
/// capacity and overwrites its oldest events. Appending is O(1) and never
/// moves the events already kept (no reallocation of one big array).
struct EventRing {
    /// Events per chunk of storage.
    static let chunkSize = 1_024

    /// The storage: chunks of ``chunkSize`` events, slot `i` in chunk `i / chunkSize`.
    private var chunks: [[TraceEvent]] = []
    /// The index one past the newest event: how many events were appended in all.
    private(set) var endIndex = 0
    /// How many events are kept.
    private(set) var count = 0
    /// Where the next event goes in the storage.
    private var writeSlot = 0

    /// An empty ring with no storage yet.
    init() {}

    /// How many events the ring can keep before it overwrites the oldest.
    var capacity: Int { chunks.count * Self.chunkSize }

    /// The index of the oldest event kept.
    var startIndex: Int { endIndex - count }

    /// Whether the ring can still grow: it has never overwritten an event.
    var canGrow: Bool { endIndex == count }

    /// Whether the next ``append(_:)`` would overwrite (or, without storage, drop) an event.
    var isFull: Bool { count == capacity }

    /// Adds one chunk of storage; only while ``canGrow``.
    mutating func grow() {
        precondition(canGrow, "a ring that wrapped keeps its capacity")
        var chunk: [TraceEvent] = []
        chunk.reserveCapacity(Self.chunkSize)
        chunks.append(chunk)
        writeSlot = count  // never wrapped: the next event goes after the last
    }

    /// Appends `event`, overwriting the oldest when full (dropping it when the ring has no storage).
    mutating func append(_ event: TraceEvent) {
        defer { endIndex += 1 }
        guard !chunks.isEmpty else { return }
        // `writeSlot` is `endIndex % capacity`, kept without a division.
        let (chunk, offset) = (writeSlot / Self.chunkSize, writeSlot % Self.chunkSize)
        if count < capacity {
            chunks[chunk].append(event)
            count += 1
        } else {
            chunks[chunk][offset] = event
        }
        writeSlot += 1
        if writeSlot == capacity { writeSlot = 0 }
    }

    /// The event with index `index`; it must be kept (`startIndex..<endIndex`).
    subscript(index: Int) -> TraceEvent {
        precondition(index >= startIndex && index < endIndex, "event \(index) is not kept")
        let (chunk, offset) = (index % capacity).quotientAndRemainder(dividingBy: Self.chunkSize)
        return chunks[chunk][offset]
    }

    /// Whether the event with index `index` is kept.
    func contains(_ index: Int) -> Bool { index >= startIndex && index < endIndex }

    /// The events with indexes in `range` (which must be kept), in order: a copy.
    func events(_ range: Range<Int>) -> [TraceEvent] {
        var out: [TraceEvent] = []
        out.reserveCapacity(range.count)
        for index in range { out.append(self[index]) }
        return out
    }
}
