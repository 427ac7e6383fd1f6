// The request-head parser and the router of the live page's server, pure:
// bytes in, a head or the refusal's status out.

import Testing
import TestSupport
@testable import napkin_inspect

@Suite("WebServer: request heads and routes")
struct WebServerRequestHeadTests {
    private func parse(_ text: String) -> HTTPRequestHead.Parse { HTTPRequestHead.parse(Array(text.utf8)) }

    private func status(_ text: String) -> WebStatus? {
        if case .refused(let status, _) = parse(text) { return status }
        return nil
    }

    @Test("a whole head: method, path without its query, version, fields lowercased and trimmed; CRLF or bare LF")
    func wholeHead() throws {
        let crlf = parse("GET /events?since=3 HTTP/1.1\r\nHost:  localhost:8080 \r\nAccept: text/event-stream\r\n\r\n")
        let expected = HTTPRequestHead(method: "GET", path: "/events", minorVersion: 1,
                                       fields: [("host", "localhost:8080"), ("accept", "text/event-stream")])
        #expect(crlf == .complete(expected))
        #expect(parse("GET /events?since=3 HTTP/1.1\nHost: localhost:8080\nAccept: text/event-stream\n\n") == .complete(expected))
        #expect(parse("HEAD / HTTP/1.0\r\n\r\n") == .complete(HTTPRequestHead(method: "HEAD", path: "/", minorVersion: 0, fields: [])))
    }

    @Test("a head not yet whole is incomplete, whatever prefix of it arrived")
    func incomplete() {
        let whole = "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n"
        for length in 0..<whole.utf8.count {
            #expect(HTTPRequestHead.parse(Array(whole.utf8.prefix(length))) == .incomplete, "prefix \(length)")
        }
    }

    @Test("malformed request lines and header lines: 400")
    func malformed() {
        for text in ["GARBAGE\r\n\r\n", "GET /\r\n\r\n", "GET  / HTTP/1.1\r\n\r\n", "GET / HTTP/1.1 \r\n\r\n",
                     "GET / HTTX/1.1\r\n\r\n", "GET / HTTP/11\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n", "GET * HTTP/1.1\r\n\r\n",
                     "GET http://example.com/ HTTP/1.1\r\n\r\n", "GET /a\u{7F} HTTP/1.1\r\n\r\n", "\r\n\r\n",
                     "GET / HTTP/1.1\r\nNo colon here\r\n\r\n", "GET / HTTP/1.1\r\nHost : localhost\r\n\r\n",
                     "GET / HTTP/1.1\r\n: empty name\r\n\r\n", "GET / HTTP/1.1\r\nHost: localhost\r\n folded\r\n\r\n",
                     "GET / HTTP/1.1\r\nX: a\0b\r\n\r\n", "GET / HTTP/1.1\r\nX: a\rb\r\n\r\n", "GET /\0 HTTP/1.1\r\n\r\n"] {
            #expect(status(text) == .badRequest, "\(text.debugDescription)")
        }
    }

    @Test("versions other than 1.0 and 1.1: 505")
    func versions() {
        for version in ["HTTP/2.0", "HTTP/1.2", "HTTP/0.9", "HTTP/3.0"] {
            #expect(status("GET / \(version)\r\nHost: localhost\r\n\r\n") == .versionNotSupported, "\(version)")
        }
    }

    @Test("a request line over 8 KiB: 414, whether or not its end arrived; 8 KiB exactly is served")
    func longRequestLine() {
        let limit = HTTPRequestHead.maxRequestLineBytes
        let path = "/" + String(repeating: "a", count: limit)
        #expect(status("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n") == .uriTooLong)
        #expect(status("GET \(path)") == .uriTooLong)
        let fitting = "/" + String(repeating: "a", count: limit - "GET / HTTP/1.1".count)
        guard case .complete(let head) = parse("GET \(fitting) HTTP/1.1\r\nHost: localhost\r\n\r\n") else {
            Issue.record("a request line of exactly \(limit) bytes was refused")
            return
        }
        #expect(head.path == fitting)
    }

    @Test("a head over 32 KiB or with over 100 header lines: 431; 100 lines are served")
    func largeHeads() {
        let big = String(repeating: "X-Filler: " + String(repeating: "f", count: 1000) + "\r\n", count: 33)
        #expect(status("GET / HTTP/1.1\r\n\(big)\r\n") == .headerFieldsTooLarge)
        #expect(status("GET / HTTP/1.1\r\n\(big)") == .headerFieldsTooLarge)
        #expect(status("GET / HTTP/1.1\r\n" + String(repeating: "a: b\r\n", count: 101)) == .headerFieldsTooLarge)
        guard case .complete(let head) = parse("GET / HTTP/1.1\r\n" + String(repeating: "a: b\r\n", count: 100) + "\r\n") else {
            Issue.record("100 header lines were refused")
            return
        }
        #expect(head.fields.count == 100)
    }

    // MARK: - Routes

    private func route(_ text: String, loopbackOnly: Bool = true) throws -> WebRoute {
        guard case .complete(let head) = parse(text) else { throw TestFailure("not a whole head: \(text)") }
        return WebRoute.route(head, loopbackOnly: loopbackOnly)
    }

    private func refusal(_ text: String, loopbackOnly: Bool = true) throws -> (WebStatus, String?)? {
        if case .refused(let status, _, let allow) = try route(text, loopbackOnly: loopbackOnly) { return (status, allow) }
        return nil
    }

    @Test("routes: / and HEAD /, /events (query ignored), /favicon.ico; anything else 404")
    func routes() throws {
        #expect(try route("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n") == .page(headOnly: false))
        #expect(try route("HEAD /?x HTTP/1.1\r\nHost: localhost\r\n\r\n") == .page(headOnly: true))
        #expect(try route("GET /events?x=1 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n") == .events)
        #expect(try route("GET /favicon.ico HTTP/1.0\r\n\r\n") == .noIcon)
        for path in ["/index.html", "/events/", "/%65vents", "//", "/favicon.ico/x"] {
            #expect(try refusal("GET \(path) HTTP/1.1\r\nHost: localhost\r\n\r\n")?.0 == .notFound, "\(path)")
        }
    }

    @Test("methods: others than GET and HEAD get 405 with Allow: GET, HEAD; HEAD /events gets Allow: GET")
    func methods() throws {
        for method in ["POST", "PUT", "DELETE", "OPTIONS", "get", "CONNECT", "TRACE"] {
            let refused = try refusal("\(method) / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(refused?.0 == .methodNotAllowed && refused?.1 == "GET, HEAD", "\(method)")
        }
        let head = try refusal("HEAD /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(head?.0 == .methodNotAllowed && head?.1 == "GET")
    }

    @Test("bodies, and HTTP/1.1 without one Host: 400")
    func bodiesAndHost() throws {
        for fields in ["Content-Length: 5", "Content-Length: 00012", "Transfer-Encoding: chunked", "Transfer-Encoding: identity",
                       "Content-Length: -1", "Content-Length: 1e3", "Content-Length:"] {
            #expect(try refusal("GET / HTTP/1.1\r\nHost: localhost\r\n\(fields)\r\n\r\n")?.0 == .badRequest, "\(fields)")
        }
        #expect(try route("GET / HTTP/1.1\r\nHost: localhost\r\nContent-Length: 0\r\n\r\n") == .page(headOnly: false))
        #expect(try refusal("GET / HTTP/1.1\r\n\r\n")?.0 == .badRequest)
        #expect(try refusal("GET / HTTP/1.1\r\nHost: localhost\r\nHost: localhost\r\n\r\n")?.0 == .badRequest)
        #expect(try route("GET / HTTP/1.0\r\n\r\n") == .page(headOnly: false))
    }

    @Test("bound to loopback, a Host other than 127.0.0.1, localhost or [::1] (with or without a port) gets 403; not bound to loopback, any")
    func dnsRebinding() throws {
        for host in ["127.0.0.1", "localhost", "LocalHost:8080", "[::1]", "[::1]:80", "127.0.0.1:65535"] {
            #expect(try route("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n") == .page(headOnly: false), "\(host)")
        }
        for host in ["evil.example", "localhost.evil.example", "127.0.0.1.nip.io", "127.0.0.2", "localhost:", "localhost:80x",
                     "localhost:123456", "::1", "[::1]x", ""] {
            #expect(try refusal("GET / HTTP/1.1\r\nHost: \(host)\r\n\r\n")?.0 == .forbidden, "\(host)")
        }
        #expect(try route("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", loopbackOnly: false) == .page(headOnly: false))
    }
}
