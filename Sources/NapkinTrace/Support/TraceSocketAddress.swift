/// Where a trace travels over a socket: what `NAPKIN_TRACE=tcp:HOST:PORT` and
/// `NAPKIN_TRACE=unix:PATH` name for the app, and what
/// `napkin-inspect live --listen` listens on.
///
/// Parsing never resolves a name or touches the network; ``resolved()`` does,
/// on a thread that may wait (the trace writer's, never the app's).
package enum TraceSocketAddress: Sendable, Hashable, CustomStringConvertible {
    /// A TCP address: a host name or numeric address, and a port.
    case tcp(host: String, port: UInt16)
    /// A unix domain socket file.
    case unix(path: String)

    /// The loopback address the inspector listens on when no host is given.
    package static let defaultListenHost = "127.0.0.1"

    /// `tcp:HOST:PORT` or `unix:PATH`, as `NAPKIN_TRACE` spells them.
    package var description: String {
        switch self {
        case .tcp(let host, let port): "tcp:" + TraceSocketAddress.hostPort(host, port)
        case .unix(let path): "unix:" + path
        }
    }

    /// `HOST:PORT` (IPv6 hosts in brackets) or the path, for messages.
    package var shortDescription: String {
        switch self {
        case .tcp(let host, let port): TraceSocketAddress.hostPort(host, port)
        case .unix(let path): path
        }
    }

    /// Parses a `NAPKIN_TRACE` value that starts with `tcp:` or `unix:`; `nil`
    /// for any other value. Throws with the fix when the value is malformed.
    package static func destination(_ value: String) throws(TraceSinkError) -> TraceSocketAddress? {
        if value.hasPrefix("unix:") {
            let path = String(value.dropFirst(5))
            guard !path.isEmpty else { throw TraceSinkError("'\(value)' names no socket file; use unix:PATH, e.g. unix:/tmp/napkin.sock") }
            return .unix(path: path)
        }
        guard value.hasPrefix("tcp:") else { return nil }
        guard let (host, port) = splitHostPort(value.dropFirst(4)), !host.isEmpty, port != 0 else {
            throw TraceSinkError("'\(value)' is not tcp:HOST:PORT; use e.g. tcp:127.0.0.1:7700 (IPv6: tcp:[::1]:7700)")
        }
        return .tcp(host: host, port: port)
    }

    /// Parses what `--listen` takes: `PORT`, `HOST:PORT` or `unix:PATH`
    /// (`PORT` alone listens on ``defaultListenHost``; port 0 picks a free one).
    /// Returns `nil` when `value` is none of these.
    package static func listenAddress(_ value: String) -> TraceSocketAddress? {
        if value.hasPrefix("unix:") {
            let path = String(value.dropFirst(5))
            return path.isEmpty ? nil : .unix(path: path)
        }
        if let port = UInt16(value) { return .tcp(host: defaultListenHost, port: port) }
        guard let (host, port) = splitHostPort(Substring(value)), !host.isEmpty else { return nil }
        return .tcp(host: host, port: port)
    }

    /// The socket addresses this names (a name lookup for a TCP host name;
    /// may wait for a name server). With `passive`, for listening.
    package func resolved(passive: Bool = false) throws(Platform.SocketError) -> [Platform.SocketAddress] {
        switch self {
        case .tcp(let host, let port): try Platform.resolve(host: host, port: port, passive: passive)
        case .unix(let path): [try Platform.unixAddress(path)]
        }
    }

    /// `HOST:PORT` with an IPv6 host in brackets.
    private static func hostPort(_ host: String, _ port: UInt16) -> String {
        host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Splits `HOST:PORT` or `[IPV6]:PORT`.
    private static func splitHostPort(_ text: Substring) -> (String, UInt16)? {
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return nil }
            let host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":"), let port = UInt16(rest.dropFirst()) else { return nil }
            return (String(host), port)
        }
        guard let colon = text.lastIndex(of: ":"), let port = UInt16(text[text.index(after: colon)...]) else { return nil }
        let host = text[..<colon]
        guard !host.contains(":") else { return nil }   // a bare IPv6 address needs brackets
        return (String(host), port)
    }
}
