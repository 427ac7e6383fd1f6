// What a well-formed request head asks the live page's server for: the page,
// the event stream, the (absent) icon, or an error status and why. Pure: the
// checks a request passes before anything is served, in the order they run.

/// What ``WebServer`` answers a complete request head with.
enum WebRoute: Equatable, Sendable {
    /// The page (`GET /`), or only its head (`HEAD /`).
    case page(headOnly: Bool)
    /// The Server-Sent Events stream (`GET /events`).
    case events
    /// `/favicon.ico`: 204, no body.
    case noIcon
    /// An error: `status`, a one-line `message`, and an `Allow` header's value for 405.
    case refused(WebStatus, String, allow: String?)

    /// The route for `head`. Checks, in order: HTTP/1.1 must name a `Host`
    /// (once); when `loopbackOnly`, the `Host` must be a loopback name (see
    /// ``isLoopbackHost(_:)``); the method must be GET or HEAD; there must be
    /// no body (no `Transfer-Encoding`, no `Content-Length` above 0); the path
    /// must be one served.
    static func route(_ head: HTTPRequestHead, loopbackOnly: Bool) -> WebRoute {
        let hosts = head.values(of: "host")
        if hosts.count > 1 { return .refused(.badRequest, "more than one Host header", allow: nil) }
        if head.minorVersion >= 1 && hosts.isEmpty {
            return .refused(.badRequest, "HTTP/1.1 request without a Host header", allow: nil)
        }
        if loopbackOnly, let host = hosts.first, !isLoopbackHost(host) {
            return .refused(.forbidden, "the Host header must name 127.0.0.1, localhost or [::1]; open the address the inspector printed",
                            allow: nil)
        }
        guard head.method == "GET" || head.method == "HEAD" else {
            return .refused(.methodNotAllowed, "only GET and HEAD are served", allow: "GET, HEAD")
        }
        if !head.values(of: "transfer-encoding").isEmpty {
            return .refused(.badRequest, "a request body is not accepted (Transfer-Encoding); send none", allow: nil)
        }
        for length in head.values(of: "content-length") {
            guard !length.isEmpty, length.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return .refused(.badRequest, "malformed Content-Length", allow: nil)
            }
            if length.utf8.contains(where: { $0 != UInt8(ascii: "0") }) {
                return .refused(.badRequest, "a request body is not accepted (Content-Length above 0); send none", allow: nil)
            }
        }
        switch head.path {
        case "/":
            return .page(headOnly: head.method == "HEAD")
        case "/events":
            guard head.method == "GET" else {
                return .refused(.methodNotAllowed, "the event stream is served to GET only", allow: "GET")
            }
            return .events
        case "/favicon.ico":
            return .noIcon
        default:
            return .refused(.notFound, "nothing is served at this path; the page is at /", allow: nil)
        }
    }

    /// Whether a `Host` header value names this machine by a loopback name:
    /// `127.0.0.1`, `localhost` or `[::1]`, with or without `:PORT`.
    ///
    /// This is the defence against DNS rebinding: a web page from anywhere
    /// can make its own host name resolve to 127.0.0.1 and then script
    /// requests to the inspector as "same origin", reading source paths and
    /// type names. The browser still sends that page's host name in `Host`,
    /// so a server bound to loopback answers only requests that name loopback.
    static func isLoopbackHost(_ value: String) -> Bool {
        let name = value.lowercased()
        for loopback in ["127.0.0.1", "localhost", "[::1]"] {
            if name == loopback { return true }
            guard name.hasPrefix(loopback + ":") else { continue }
            let port = name.utf8.dropFirst(loopback.utf8.count + 1)
            return !port.isEmpty && port.count <= 5 && port.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
        }
        return false
    }
}
