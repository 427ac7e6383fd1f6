// The latest value of each key of the live page's event stream: what
// `WebServer.publish` writes and every event-stream client reads. Each
// value is kept once, as the finished `data:` message; clients share it.

/// The latest message of each key, in order of the keys' first publication.
///
/// Values are copy-on-write arrays: a client that is writing a message holds
/// the same storage as the store, so a value costs its bytes once however
/// many clients send it (a client keeps its own copy alive only while it
/// writes a value that has since been replaced: at most one message).
struct EventStore: Sendable {
    /// One key's latest message.
    struct Entry: Sendable {
        /// The key.
        let key: String
        /// The whole `data: …\n\n` message of the latest value.
        var message: [UInt8]
        /// The ``EventStore/generation`` at which it was published (unique, increasing).
        var version: UInt64
    }

    /// The keys' entries, in order of first publication.
    private(set) var entries: [Entry] = []
    /// Where each key's entry is in ``entries``.
    private var indexByKey: [String: Int] = [:]
    /// Counts every change (a publication or a removal).
    private(set) var generation: UInt64 = 0
    /// Counts removals (clients forget what they sent of removed keys when it changes).
    private(set) var removals: UInt64 = 0

    /// Makes `line` (CR and LF removed) the latest value of `key`.
    mutating func publish(key: String, line: [UInt8]) {
        let clean = line.contains(where: { $0 == 0x0A || $0 == 0x0D }) ? line.filter { $0 != 0x0A && $0 != 0x0D } : line
        generation &+= 1
        let message = WebResponse.event(clean)
        if let index = indexByKey[key] {
            entries[index].message = message
            entries[index].version = generation
        } else {
            indexByKey[key] = entries.count
            entries.append(Entry(key: key, message: message, version: generation))
        }
    }

    /// Forgets `key`; nothing when it is not there.
    mutating func remove(key: String) {
        guard let index = indexByKey.removeValue(forKey: key) else { return }
        entries.remove(at: index)
        for later in index..<entries.count { indexByKey[entries[later].key] = later }
        generation &+= 1
        removals &+= 1
    }
}
