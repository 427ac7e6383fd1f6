// The bounds and timeouts of the live page's server, in one value: the
// defaults `napkin-inspect live --web` uses, and shorter ones for tests.

/// How much ``WebServer`` accepts and how long it waits.
struct WebServerLimits: Sendable {
    /// Connections served at once (event streams, requests being read or
    /// answered); beyond it a connection gets 503 with `Retry-After: 1`.
    var maxConnections = 64
    /// Connections being refused with 503 at once; beyond it they are closed unanswered.
    var maxRefusing = 64
    /// Nanoseconds a client has to send a whole request head (slowloris): then 408.
    var headTimeout: UInt64 = 10_000_000_000
    /// Nanoseconds a connection with output pending may accept no byte before it is closed.
    var writeStallTimeout: UInt64 = 30_000_000_000
    /// Nanoseconds between pings on an idle event stream.
    var pingInterval: UInt64 = 15_000_000_000
    /// Nanoseconds a connection is drained after its answer before it is
    /// closed (so that unread request bytes do not reset the connection
    /// before the client read the answer).
    var lingerTime: UInt64 = 2_000_000_000
    /// Bytes drained at most after an answer.
    var maxLingerBytes = 64 << 10
    /// Bytes read from a socket at once.
    var readChunk = 4 << 10

    /// The limits `live --web` serves with.
    static let standard = WebServerLimits()
}
