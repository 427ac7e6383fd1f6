// The HTTP status codes the live page's server answers with, and their
// reason phrases: the only statuses `WebServer` ever sends.

/// A status the live page's server answers with (see ``WebServer``).
enum WebStatus: Int, Sendable, CaseIterable {
    /// The page, or the event stream.
    case ok = 200
    /// `/favicon.ico`: there is none, and nothing is wrong.
    case noContent = 204
    /// A malformed request line or header, a request body, or HTTP/1.1 without `Host`.
    case badRequest = 400
    /// A `Host` header naming something other than loopback while bound to loopback.
    case forbidden = 403
    /// A path the server does not serve.
    case notFound = 404
    /// A method other than GET or HEAD (or other than GET for the event stream).
    case methodNotAllowed = 405
    /// The client sent no whole request head in time.
    case requestTimeout = 408
    /// The request line is longer than ``HTTPRequestHead/maxRequestLineBytes``.
    case uriTooLong = 414
    /// The head is longer than ``HTTPRequestHead/maxHeadBytes`` or has more than ``HTTPRequestHead/maxHeaderLines`` header lines.
    case headerFieldsTooLarge = 431
    /// Every connection slot is taken.
    case serviceUnavailable = 503
    /// An HTTP version other than 1.0 and 1.1.
    case versionNotSupported = 505

    /// The reason phrase of the status line.
    var reason: String {
        switch self {
        case .ok: "OK"
        case .noContent: "No Content"
        case .badRequest: "Bad Request"
        case .forbidden: "Forbidden"
        case .notFound: "Not Found"
        case .methodNotAllowed: "Method Not Allowed"
        case .requestTimeout: "Request Timeout"
        case .uriTooLong: "URI Too Long"
        case .headerFieldsTooLarge: "Request Header Fields Too Large"
        case .serviceUnavailable: "Service Unavailable"
        case .versionNotSupported: "HTTP Version Not Supported"
        }
    }
}
