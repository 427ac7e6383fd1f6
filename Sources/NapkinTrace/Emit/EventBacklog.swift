/// Events waiting for a connection, oldest first, within a bound on their
/// number and on the memory they take: when either is reached, the oldest
/// events make room for the new ones.
///
/// A ``SocketTraceSink`` keeps one, so that an app started a moment before
/// its inspector (or whose inspector restarts) loses nothing. Memory is
/// counted as a fixed cost per event plus the bytes of its strings; a string
/// longer than a record may be on a socket is shortened on the way in, as
/// ``NDJSONTraceSink`` would shorten it on the way out.
struct EventBacklog {
    /// The most events kept.
    let capacity: Int
    /// The most memory (by ``size(of:)``) the kept events may take.
    let byteLimit: Int

    /// The events, from `head` on; slots before `head` are spent.
    private var storage: [TraceEvent] = []
    private var head = 0
    /// The memory the kept events take, by ``size(of:)``.
    private(set) var bytes = 0

    /// Creates an empty backlog; a bound below 1 event (or one event's cost) is raised to it.
    init(capacity: Int, byteLimit: Int) {
        self.capacity = max(1, capacity)
        self.byteLimit = max(Self.eventCost, byteLimit)
    }

    /// How many events wait.
    var count: Int { storage.count - head }
    /// Whether no event waits.
    var isEmpty: Bool { head == storage.count }
    /// The oldest event waiting.
    var first: TraceEvent? { isEmpty ? nil : storage[head] }

    /// What one event costs besides its strings (the enum, its numbers, a code location).
    static let eventCost = 96

    /// The memory `event` takes in the backlog, roughly: a fixed cost plus its strings' UTF-8 bytes.
    static func size(of event: TraceEvent) -> Int {
        eventCost + event.kind.stringByteCount
    }

    /// Appends `event`; the oldest events that no longer fit are removed and
    /// passed to `evicted`, oldest first.
    mutating func append(_ event: TraceEvent, evicted: (TraceEvent) -> Void) {
        var event = event
        var size = Self.size(of: event)
        if size - Self.eventCost > NDJSONTraceSink.socketRecordLimit {
            event = RecordFitting.fitted(event, limit: NDJSONTraceSink.socketRecordLimit)
            size = Self.size(of: event)
        }
        while !isEmpty && (count >= capacity || bytes + size > byteLimit) {
            evicted(removeFirst())
        }
        storage.append(event)
        bytes += size
    }

    /// Removes and returns every event, oldest first.
    mutating func removeAll() -> [TraceEvent] {
        let events = Array(storage[head...])
        storage.removeAll(keepingCapacity: false)
        head = 0
        bytes = 0
        return events
    }

    /// Removes the oldest event.
    private mutating func removeFirst() -> TraceEvent {
        let event = storage[head]
        // The spent slot lets go of the event's strings at once.
        storage[head] = Self.spent
        head += 1
        bytes -= Self.size(of: event)
        if head >= 1024 && head * 2 >= storage.count {
            storage.removeFirst(head)
            head = 0
        }
        return event
    }

    /// What fills a spent slot.
    private static let spent = TraceEvent(seq: 0, time: 0, kind: .load(router: 0))
}
