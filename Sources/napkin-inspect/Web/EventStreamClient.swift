// One event-stream client's pending output: the message it is writing, and
// which version of each key it already has, so that it is sent the latest
// value of each key it lacks and nothing in between.

/// What one client of `GET /events` still has to be sent.
///
/// It holds at most one message of its own (the one being written, shared
/// with the ``EventStore`` until that key is published again) and one version
/// number per key it was sent; the values it still needs are not queued but
/// read from the store when the socket can take more, so a client that
/// reads slowly gets the latest values (snapshots) and never a backlog.
struct EventStreamClient: Sendable {
    /// The message being written (the stream's opening, an event, a ping).
    private(set) var current: [UInt8]
    /// How much of ``current`` was written.
    private(set) var offset = 0
    /// The version of each key this client was sent (or is being sent).
    private var sent: [String: UInt64] = [:]
    /// The store's ``EventStore/removals`` when ``sent`` was last pruned.
    private var removalsSeen: UInt64 = 0

    /// A new client: it starts with the stream's opening (head and `retry:`).
    init() { current = WebResponse.eventStreamOpening }

    /// The bytes of ``current`` not yet written.
    var pending: ArraySlice<UInt8> { current[offset...] }

    /// Records that `count` more bytes were written.
    mutating func wrote(_ count: Int) {
        offset = min(current.count, offset + count)
    }

    /// When nothing is pending, starts the next message this client needs:
    /// the latest value of the first key (in first-publication order) whose
    /// latest version it was not sent. Returns whether something is pending.
    mutating func takeNext(from store: EventStore) -> Bool {
        guard offset == current.count else { return true }
        if store.removals != removalsSeen {
            removalsSeen = store.removals
            let kept = Set(store.entries.map(\.key))
            sent = sent.filter { kept.contains($0.key) }
        }
        for entry in store.entries where sent[entry.key] != entry.version {
            sent[entry.key] = entry.version
            current = entry.message
            offset = 0
            return true
        }
        return false
    }

    /// When nothing is pending, starts a ping comment; returns whether it did.
    mutating func startPing() -> Bool {
        guard offset == current.count else { return false }
        current = WebResponse.ping
        offset = 0
        return true
    }

    /// Whether this client was sent the latest version of every key of `store`.
    func isCurrent(with store: EventStore) -> Bool {
        store.entries.allSatisfy { sent[$0.key] == $0.version }
    }
}
