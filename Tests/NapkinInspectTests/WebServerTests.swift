// The live page's server end to end over real loopback sockets: the test
// process is the browser (and the hostile client), `WebTestClient` speaks
// raw bytes. Timeouts are shortened through `WebServerLimits` where a test
// needs one to pass; no assertion is about how long anything took.

import Foundation
import Testing
import TestSupport
@testable import napkin_inspect

@Suite("WebServer: HTTP and Server-Sent Events over sockets")
struct WebServerTests {
    static let page = Array("<!doctype html><title>napkin</title><p>live</p>\n".utf8)

    /// A started server on a free loopback port, with `limits`; stopped when `body` returns.
    private func withServer<R>(_ limits: WebServerLimits = .standard, host: String = "127.0.0.1",
                               _ body: (WebServer) throws -> R) throws -> R {
        let server = try WebServer(host: host, port: 0, limits: limits)
        server.setPage(Self.page)
        server.start()
        defer { server.stop() }
        return try body(server)
    }

    /// Waits (a bounded number of short sleeps, a safety net only) until `condition` holds.
    private func eventually(_ condition: () -> Bool) -> Bool {
        for _ in 0..<6_000 {
            if condition() { return true }
            usleep(10_000)
        }
        return condition()
    }

    /// Waits a little (at most 50 short sleeps) for `condition`: for a state that may never come.
    private func briefly(_ condition: () -> Bool) -> Bool {
        for _ in 0..<50 {
            if condition() { return true }
            usleep(5_000)
        }
        return condition()
    }

    /// Sends `request` on a new connection and reads the whole response (the server closes it).
    private func exchange(_ server: WebServer, _ request: String) throws -> WebTestResponse {
        let client = try WebTestClient(port: server.port)
        client.send(request)
        return try client.response()
    }

    /// The headers every answer that closes its connection carries.
    private func expectClosingHeaders(_ response: WebTestResponse, _ context: String) {
        #expect(response.headers["connection"] == "close", "\(context): \(response)")
        #expect(response.headers["cache-control"] == "no-store", "\(context): \(response)")
        #expect(response.headers["x-content-type-options"] == "nosniff", "\(context): \(response)")
        if response.status != 204 {
            #expect(response.headers["content-length"] == String(response.body.count), "\(context): \(response)")
        }
    }

    @Test("GET / serves the page, HEAD / its head only, /favicon.ico 204; each closes its connection")
    func pageAndHead() throws {
        try withServer { server in
            #expect(server.url == "http://127.0.0.1:\(server.port)/")
            #expect(server.isLoopback)
            let get = try exchange(server, "GET / HTTP/1.1\r\nHost: 127.0.0.1:\(server.port)\r\nAccept: text/html\r\n\r\n")
            #expect(get.status == 200 && get.body == Self.page, "\(get)")
            #expect(get.headers["content-type"] == "text/html; charset=utf-8")
            expectClosingHeaders(get, "GET /")
            let head = try exchange(server, "HEAD / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(head.status == 200 && head.body.isEmpty && head.headers["content-length"] == String(Self.page.count), "\(head)")
            server.setPage(Array("<p>second</p>".utf8))
            #expect(try exchange(server, "GET /?reload=1 HTTP/1.0\r\n\r\n").text == "<p>second</p>")
            let icon = try exchange(server, "GET /favicon.ico HTTP/1.1\r\nHost: [::1]:1\r\n\r\n")
            #expect(icon.status == 204 && icon.body.isEmpty && icon.headers["content-length"] == nil, "\(icon)")
            expectClosingHeaders(icon, "favicon")
        }
    }

    @Test("an event stream starts with retry, then the latest value of each key in first-publication order, then each change")
    func eventStream() throws {
        try withServer { server in
            server.publish(key: "hello", line: Array(#"{"kind":"hello","n":1}"#.utf8))
            server.publish(key: "meta", line: Array("m1".utf8))
            server.publish(key: "hello", line: Array(#"{"kind":"hello","n":2}"#.utf8))
            let client = try WebTestClient(port: server.port)
            client.send("GET /events?x=1 HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n")
            let head = try client.responseHead()
            #expect(head.status == 200, "\(head)")
            #expect(head.headers["content-type"] == "text/event-stream" && head.headers["cache-control"] == "no-store", "\(head)")
            #expect(client.nextMessage() == "retry: 1000")
            #expect(client.nextMessage() == #"data: {"kind":"hello","n":2}"#)
            #expect(client.nextMessage() == "data: m1")
            #expect(eventually { server.eventClients == 1 })
            server.publish(key: "trace-0", line: Array("t0\r\nsplit".utf8))
            #expect(client.nextMessage() == "data: t0split")
            server.publish(key: "meta", line: Array("m2".utf8))
            #expect(client.nextMessage() == "data: m2")

            server.remove(key: "hello")
            let late = try WebTestClient(port: server.port)
            late.send("GET /events HTTP/1.0\r\n\r\n")
            #expect(try late.responseHead().status == 200)
            #expect(late.nextMessage() == "retry: 1000")
            #expect(late.nextMessage() == "data: m2")
            #expect(late.nextMessage() == "data: t0split")
            server.publish(key: "hello", line: Array("again".utf8))
            #expect(late.nextMessage() == "data: again")
            #expect(client.nextMessage() == "data: again")
            #expect(eventually { server.eventClients == 2 })
            client.close()
            late.reset()
            #expect(eventually { server.eventClients == 0 })
        }
    }

    @Test("an idle event stream gets a ping comment once the ping interval passes without output")
    func pings() throws {
        var limits = WebServerLimits.standard
        limits.pingInterval = 100_000_000
        try withServer(limits) { server in
            let client = try WebTestClient(port: server.port)
            client.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try client.responseHead().status == 200)
            #expect(client.nextMessage() == "retry: 1000")
            #expect(client.nextMessage() == ": ping")
            server.publish(key: "k", line: Array("v".utf8))
            var next = client.nextMessage()
            while next == ": ping" { next = client.nextMessage() }
            #expect(next == "data: v")
        }
    }

    @Test("a client that reads nothing while a key is published 10,000 times gets the latest value, not all of them")
    func slowClientGetsSnapshots() throws {
        try withServer { server in
            let client = try WebTestClient(port: server.port, receiveBuffer: 4096)
            client.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(eventually { server.eventClients == 1 })
            // Fill the socket (both buffers) so that the server holds a message it cannot write.
            let filler = [UInt8](repeating: UInt8(ascii: "f"), count: 1 << 20)
            var fillers = 0
            while server.pendingOutputBytes == 0 && fillers < 64 {
                server.publish(key: "filler", line: filler)
                fillers += 1
                _ = briefly { server.pendingOutputBytes > 0 }
            }
            #expect(server.pendingOutputBytes > 0)
            for index in 0..<10_000 { server.publish(key: "k", line: Array("value-\(index)".utf8)) }
            _ = try client.responseHead()
            var values: [String] = []
            while let message = client.nextMessage() {
                if message.hasPrefix("data: value-") { values.append(String(message.dropFirst(6))) }
                if message == "data: value-9999" { break }
            }
            #expect(values == ["value-9999"])
        }
    }

    @Test("80 clients at once: 64 are served, the other 16 get 503 with Retry-After: 1")
    func connectionLimit() throws {
        try withServer { server in
            let clients = try (0..<80).map { _ in try WebTestClient(port: server.port) }
            for client in clients { client.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n") }
            var statuses: [Int: Int] = [:]
            for client in clients {
                let head = try client.responseHead()
                statuses[head.status, default: 0] += 1
                if head.status == 503 {
                    #expect(head.headers["retry-after"] == "1", "\(head)")
                    #expect(try WebTestResponse(Array(head.description.utf8) + client.readToEnd()).text.hasPrefix("503 "))
                }
            }
            #expect(statuses == [200: 64, 503: 16])
            #expect(eventually { server.eventClients == 64 })
            for client in clients.prefix(10) { client.close() }
            #expect(eventually { server.eventClients == 54 })
            let more = try WebTestClient(port: server.port)
            more.send("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(try more.response().status == 200)
        }
    }

    @Test("a client that never reads while ~20 MB are published: its pending output stays one message; another client gets every latest value",
          .disabled(if: runsUnderThreadSanitizer, "20 MB of copying: the plain run covers it"))
    func neverReadingClient() throws {
        var limits = WebServerLimits.standard
        limits.writeStallTimeout = 3_600_000_000_000
        try withServer(limits) { server in
            let stuck = try WebTestClient(port: server.port, receiveBuffer: 4096)
            stuck.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let reader = try WebTestClient(port: server.port)
            reader.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(eventually { server.eventClients == 2 })
            let lineSize = 10_000
            let keys = ["trace-0", "trace-1", "trace-2", "trace-3"]
            for round in 0..<500 {
                for key in keys {
                    var line = Array("\(key) round \(round) ".utf8)
                    line += [UInt8](repeating: UInt8(ascii: "x"), count: lineSize - line.count)
                    server.publish(key: key, line: line)
                }
                if round % 50 == 0 { reader.readSome() }
            }
            var latest: [String: Int] = [:]
            while latest.values.contains(where: { $0 != 499 }) || latest.count < keys.count {
                guard let message = reader.nextMessage() else { break }
                guard message.hasPrefix("data: trace-") else { continue }
                let words = message.dropFirst(6).split(separator: " ")
                latest[String(words[0])] = Int(words[2])
            }
            #expect(latest == ["trace-0": 499, "trace-1": 499, "trace-2": 499, "trace-3": 499])
            let oneMessage = "data: ".utf8.count + lineSize + 2
            #expect(server.peakClientPendingBytes <= oneMessage, "peak \(server.peakClientPendingBytes)")
            #expect(server.pendingOutputBytes <= oneMessage)
            #expect(server.eventClients == 2)
        }
    }

    @Test("a client whose socket takes no byte for the stall timeout is closed")
    func stalledClientClosed() throws {
        var limits = WebServerLimits.standard
        limits.writeStallTimeout = 200_000_000
        try withServer(limits) { server in
            let stuck = try WebTestClient(port: server.port, receiveBuffer: 4096)
            stuck.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(eventually { server.eventClients == 1 })
            let filler = [UInt8](repeating: UInt8(ascii: "f"), count: 1 << 20)
            var published = 0
            while server.eventClients == 1 && published < 64 {
                server.publish(key: "filler-\(published)", line: filler)
                published += 1
                _ = briefly { server.pendingOutputBytes > 0 || server.eventClients == 0 }
            }
            #expect(eventually { server.eventClients == 0 })
            #expect(!stuck.readToEnd().isEmpty)
            #expect(stuck.ended)
        }
    }

    @Test("hostile requests get their exact status, a one-line text/plain reason, and a closed connection")
    func hostileRequests() throws {
        try withServer { server in
            let host = "Host: localhost\r\n"
            let cases: [(String, Int)] = [
                ("POST / HTTP/1.1\r\n\(host)Content-Length: 0\r\n\r\n", 405),
                ("DELETE /events HTTP/1.1\r\n\(host)\r\n", 405),
                ("HEAD /events HTTP/1.1\r\n\(host)\r\n", 405),
                ("GET / HTTP/2.0\r\n\(host)\r\n", 505),
                ("GET / HTTP/1.1\r\nHost: evil.example\r\n\r\n", 403),
                ("GET /events HTTP/1.1\r\nHost: 127.0.0.1.evil.example:\(server.port)\r\n\r\n", 403),
                ("GET / HTTP/1.1\r\n\r\n", 400),
                ("GET /nothing HTTP/1.1\r\n\(host)\r\n", 404),
                ("GARBAGE\r\n\r\n", 400),
                ("GET / HTTP/1.1\r\n\(host)No colon\r\n\r\n", 400),
                ("GET / HTTP/1.1\r\n\(host)X: a\0b\r\n\r\n", 400),
                ("GET / HTTP/1.1\r\n\(host)Content-Length: 5\r\n\r\nhello", 400),
                ("GET / HTTP/1.1\r\n\(host)Transfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
                ("GET /\(String(repeating: "a", count: 9_000)) HTTP/1.1\r\n\(host)\r\n", 414),
                ("GET /\(String(repeating: "a", count: 200_000))", 414),
                ("GET / HTTP/1.1\r\n\(host)" + String(repeating: "X-Filler: \(String(repeating: "f", count: 1_000))\r\n", count: 40) + "\r\n", 431),
                ("GET / HTTP/1.1\r\n\(host)" + String(repeating: "X-Filler: \(String(repeating: "f", count: 1_000))\r\n", count: 200), 431),
                ("GET / HTTP/1.1\r\n\(host)" + String(repeating: "a: b\r\n", count: 101) + "\r\n", 431),
                ("GET / HTTP/1.1\nHost: localhost\n\n", 200),
                ("GET / HTTP/1.0\r\n\r\n", 200),
            ]
            for (request, expected) in cases {
                let response = try exchange(server, request)
                let label = String(request.prefix(60)).debugDescription
                #expect(response.status == expected, "\(label): \(response)")
                expectClosingHeaders(response, label)
                if expected >= 400 {
                    #expect(response.headers["content-type"] == "text/plain; charset=utf-8", "\(label)")
                    #expect(response.text.hasPrefix("\(expected) ") && response.text.filter { $0 == "\n" }.count == 1
                            && response.text.hasSuffix("\n"), "\(label): \(response.text)")
                }
                if expected == 405 { #expect(response.headers["allow"] != nil, "\(label)") }
            }
            #expect(try exchange(server, "PUT / HTTP/1.1\r\n\(host)\r\n").headers["allow"] == "GET, HEAD")
            #expect(try exchange(server, "HEAD /events HTTP/1.1\r\n\(host)\r\n").headers["allow"] == "GET")
        }
    }

    @Test("not bound to loopback: any Host is served")
    func anyHostWhenNotLoopback() throws {
        try withServer(host: "0.0.0.0") { server in
            #expect(!server.isLoopback)
            let response = try exchange(server, "GET / HTTP/1.1\r\nHost: inspector.example:\(server.port)\r\n\r\n")
            #expect(response.status == 200, "\(response)")
        }
    }

    @Test("slowloris: a client that sends part of a head, or nothing, gets 408 once the head timeout passes, and is closed")
    func slowloris() throws {
        var limits = WebServerLimits.standard
        limits.headTimeout = 200_000_000
        try withServer(limits) { server in
            let partial = try WebTestClient(port: server.port)
            partial.send("GET / HTTP/1.1\r\nHost: localhost\r\n")
            let silent = try WebTestClient(port: server.port)
            for client in [partial, silent] {
                let response = try client.response()
                #expect(response.status == 408, "\(response)")
                expectClosingHeaders(response, "408")
                #expect(client.ended)
            }
        }
    }

    @Test("2,000 requests of random and mangled bytes (some half-closed, some reset): every one answered or closed, and the server still serves",
          .disabled(if: runsUnderThreadSanitizer, "2,000 connections: the plain run covers it"))
    func fuzz() throws {
        var limits = WebServerLimits.standard
        limits.headTimeout = 200_000_000
        try withServer(limits) { server in
            var random = SplitMix(seed: 0x5EED_0044)
            let valid = Array("GET /events HTTP/1.1\r\nHost: localhost\r\nAccept: text/event-stream\r\n\r\n".utf8)
            var answered = 0
            var closedSilently = 0
            for index in 0..<2_000 {
                var bytes: [UInt8]
                switch index % 4 {
                case 0: bytes = (0..<random.next(below: 3_000)).map { _ in UInt8(random.next(below: 256)) }
                case 1:
                    bytes = valid
                    for _ in 0..<(1 + random.next(below: 6)) { bytes[random.next(below: bytes.count)] = UInt8(random.next(below: 256)) }
                case 2:
                    bytes = Array(valid.prefix(random.next(below: valid.count)))
                    bytes += (0..<random.next(below: 64)).map { _ in [0, 0x0A, 0x0D, 0x20, 0x3A, 0xFF][random.next(below: 6)] }
                    bytes += Array("\r\n\r\n".utf8)
                default: bytes = (0..<random.next(below: 200)).map { _ in [0x0A, 0x0D, 0x20, 0x41, 0x3A, 0x2F][random.next(below: 6)] }
                }
                let client = try WebTestClient(port: server.port)
                client.send(bytes)
                if index % 10 == 9 {
                    client.reset()
                    continue
                }
                if index % 2 == 0 { client.shutdownSending() }
                var received: [UInt8] = []
                while client.readSome() {
                    received = client.received
                    // An event stream that opened stays open: close it from this side.
                    if received.starts(with: Array("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream".utf8)),
                       received.contains(0x0A) { break }
                }
                received = client.received
                client.close()
                if received.isEmpty {
                    closedSilently += 1
                } else {
                    let response = try WebTestResponse(received)
                    #expect([200, 400, 403, 404, 405, 408, 414, 431, 505].contains(response.status), "\(response)")
                    answered += 1
                }
            }
            #expect(answered + closedSilently == 1_800)
            #expect(answered > 500)
            #expect(try exchange(server, "GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").body == Self.page)
            #expect(eventually { server.eventClients == 0 })
        }
    }

    @Test("stop() closes every connection and the socket, and returns; publishing after it does nothing")
    func stop() throws {
        let server = try WebServer(host: "127.0.0.1", port: 0)
        server.start()
        let client = try WebTestClient(port: server.port)
        client.send("GET /events HTTP/1.1\r\nHost: localhost\r\n\r\n")
        _ = try client.responseHead()
        server.stop()
        #expect(client.readToEnd().count >= 0 && client.ended)
        #expect(throws: (any Error).self) { try WebTestClient(port: server.port) }
        server.publish(key: "late", line: [0x41])
        server.stop()
        #expect(server.eventClients == 0)
    }

    @Test("a port in use or a host that does not resolve: one CommandFailure line naming the address and the fix")
    func bindFailures() throws {
        let first = try WebServer(host: "127.0.0.1", port: 0)
        defer { first.stop() }
        #expect {
            try WebServer(host: "127.0.0.1", port: first.port)
        } throws: { error in
            let message = (error as? CommandFailure)?.message ?? ""
            return message == "cannot serve the live page on 127.0.0.1:\(first.port): port \(first.port) is in use; choose another port, or 0 for a free one"
        }
        #expect {
            try WebServer(host: "no-such-host.invalid", port: 0)
        } throws: { error in
            let message = (error as? CommandFailure)?.message ?? ""
            return message.hasPrefix("cannot serve the live page on no-such-host.invalid:0: cannot resolve") && !message.contains("\n")
        }
    }
}

/// A small seeded generator (SplitMix64): the same bytes on every run.
private struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func next(below bound: Int) -> Int { bound <= 0 ? 0 : Int(next() % UInt64(bound)) }
}
