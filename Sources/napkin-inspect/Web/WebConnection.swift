// One connection of the live page's server, from accept to close: reading
// its request head, answering it (or streaming events), then draining what
// the client still sends before closing. Used by the server's loop thread only.

/// One accepted connection and where it is in its life.
///
/// Memory: a head being read holds at most ``HTTPRequestHead/maxHeadBytes``
/// plus one read chunk; an answer holds its header bytes (the page's body is
/// shared with the server); an event stream holds one ``EventStreamClient``.
struct WebConnection {
    /// Where a connection is in its life.
    enum Phase {
        /// Reading the request head: the bytes so far.
        case readingHead([UInt8])
        /// Writing an answer that ends the connection: the chunks left, and how much of the first was written.
        case answering([[UInt8]], offset: Int)
        /// Serving the event stream; the next ping is due at `nextPing`.
        case streaming(EventStreamClient, nextPing: UInt64)
        /// Answered: reading and dropping what the client still sends until
        /// it closes, `until` passes, or too much came; then closed.
        case draining(until: UInt64, dropped: Int)
    }

    /// The socket.
    let fd: Int32
    /// When it was accepted (monotonic nanoseconds).
    let acceptedAt: UInt64
    /// Whether it was accepted beyond the connection limit, only to be told 503.
    let isRefusal: Bool
    /// Where it is.
    var phase: Phase
    /// Since when output has been pending with the socket taking no byte (nil: not stalled).
    var stalledSince: UInt64?

    /// A connection just accepted: it is read, or (`refused`) told 503.
    init(fd: Int32, now: UInt64, refused: Bool) {
        self.fd = fd
        acceptedAt = now
        isRefusal = refused
        phase = refused
            ? .answering(WebResponse.error(.serviceUnavailable, "the inspector serves 64 connections at once; retry").chunks, offset: 0)
            : .readingHead([])
    }

    /// Whether it is an event stream.
    var isStreaming: Bool {
        if case .streaming = phase { return true }
        return false
    }

    /// The bytes it holds that are waiting to be written (of the current message, for a stream).
    var pendingBytes: Int {
        switch phase {
        case .readingHead, .draining: 0
        case .answering(let chunks, let offset): chunks.reduce(0) { $0 + $1.count } - offset
        case .streaming(let client, _): client.pending.count
        }
    }

    /// The `poll` events it waits for.
    var pollEvents: Int16 {
        switch phase {
        case .readingHead, .draining: Int16(POLLIN)
        case .answering: Int16(POLLOUT)
        case .streaming(let client, _): client.pending.isEmpty ? Int16(POLLIN) : Int16(POLLIN | POLLOUT)
        }
    }

    /// The next moment something is due for it (a timeout, a ping), if any.
    func deadline(_ limits: WebServerLimits) -> UInt64? {
        let stall = stalledSince.map { $0 &+ limits.writeStallTimeout }
        switch phase {
        case .readingHead: return acceptedAt &+ limits.headTimeout
        case .answering: return stall
        case .streaming(_, let nextPing): return min(stall ?? .max, nextPing)
        case .draining(let until, _): return until
        }
    }
}
