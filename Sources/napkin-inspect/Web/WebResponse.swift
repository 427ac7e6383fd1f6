// The bytes the live page's server writes: status lines and headers of every
// response, error bodies, and the opening of the event stream. Pure.

/// A response of ``WebServer`` as chunks of bytes to write in order. The
/// page's body is a chunk of its own, shared (copy-on-write) with the page
/// the server keeps: no copy per request.
struct WebResponse: Sendable {
    /// The chunks, in order.
    var chunks: [[UInt8]]

    /// A response that is written and then closes the connection:
    /// `Connection: close`, a `Content-Length` (of `body`, even when
    /// `headOnly` leaves the body out; none for 204, as RFC 9110 requires), `Cache-Control: no-store` and
    /// `X-Content-Type-Options: nosniff`, plus `extraHeaders`.
    static func closing(_ status: WebStatus, contentType: String?, body: [UInt8], headOnly: Bool = false,
                        extraHeaders: [(String, String)] = []) -> WebResponse {
        var head = "HTTP/1.1 \(status.rawValue) \(status.reason)\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        // RFC 9110 §8.6: a 204 carries no Content-Length.
        if status != .noContent { head += "Content-Length: \(body.count)\r\n" }
        for (name, value) in extraHeaders { head += "\(name): \(value)\r\n" }
        head += "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\nConnection: close\r\n\r\n"
        return WebResponse(chunks: headOnly || body.isEmpty ? [Array(head.utf8)] : [Array(head.utf8), body])
    }

    /// The page (`text/html; charset=utf-8`), or only its head.
    static func page(_ html: [UInt8], headOnly: Bool) -> WebResponse {
        closing(.ok, contentType: "text/html; charset=utf-8", body: html, headOnly: headOnly)
    }

    /// An error: `status` with `message` as a one-line `text/plain` body.
    static func error(_ status: WebStatus, _ message: String, allow: String? = nil) -> WebResponse {
        var extra: [(String, String)] = []
        if let allow { extra.append(("Allow", allow)) }
        if status == .serviceUnavailable { extra.append(("Retry-After", "1")) }
        return closing(status, contentType: "text/plain; charset=utf-8", body: Array("\(status.rawValue) \(status.reason): \(message)\n".utf8),
                       extraHeaders: extra)
    }

    /// 204 for `/favicon.ico`.
    static let noIcon = closing(.noContent, contentType: nil, body: [])

    /// The start of an event stream: the 200 head (`text/event-stream`, not
    /// cached, no length: the stream ends when the connection does) and the
    /// reconnection delay the browser's `EventSource` uses, `retry: 1000`.
    static let eventStreamOpening: [UInt8] = Array((
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nCache-Control: no-store\r\n"
        + "X-Content-Type-Options: nosniff\r\n\r\nretry: 1000\n\n").utf8)

    /// The comment that keeps an idle event stream honest.
    static let ping: [UInt8] = Array(": ping\n\n".utf8)

    /// One event carrying `line`: `data: LINE` and an empty line.
    static func event(_ line: [UInt8]) -> [UInt8] {
        Array("data: ".utf8) + line + [0x0A, 0x0A]
    }
}
