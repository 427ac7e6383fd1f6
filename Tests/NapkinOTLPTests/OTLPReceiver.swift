// An in-process OTLP/HTTP receiver for the tests: listens on 127.0.0.1 (a
// port the kernel picks), keeps every request it is sent (path, headers,
// body), and answers as the test says (200, 503 with Retry-After, held until
// released). It stops by itself after its lifetime, so a test that fails
// half-way leaves no server behind.

import Foundation
import NapkinTrace

/// A loopback OTLP/HTTP receiver on threads of its own, until ``stop()`` or its lifetime ends.
///
/// `@unchecked Sendable`: `shared` (a `Locked`) guards what the test and the
/// receiver's threads both touch; each connection's descriptor belongs to its thread.
final class OTLPReceiver: @unchecked Sendable {
    /// One request received.
    struct Request: Sendable {
        var path: String
        var headers: [String: String]
        var body: [UInt8]
        /// When it came (monotonic ns).
        var time: UInt64
        /// The body as JSON.
        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body))) as? [String: Any] ?? [:]
        }
    }

    /// How to answer a request.
    enum Answer: Sendable {
        case status(Int, retryAfter: String? = nil)
    }

    private struct Shared {
        var requests: [Request] = []
        var stopping = false
        /// Answers are held while this is true.
        var holding = false
        var answered = 0
    }

    /// The base URL (`http://127.0.0.1:PORT`).
    let endpoint: String
    let port: UInt16
    private let listener: Int32
    private let shared = Locked(Shared())
    private let answer: @Sendable (Int, String) -> Answer
    private let deadline: UInt64

    /// A receiver answering request number `n` (from 0) for `path` with `answer(n, path)`; 200 by default.
    init(lifetime: Duration = .seconds(120), answer: @escaping @Sendable (Int, String) -> Answer = { _, _ in .status(200) }) throws {
        let address = try Platform.resolve(host: "127.0.0.1", port: 0, passive: true)[0]
        listener = try Platform.listen(on: address)
        guard let port = Platform.boundPort(of: listener) else { throw ReceiverError("no port") }
        self.port = port
        self.endpoint = "http://127.0.0.1:\(port)"
        self.answer = answer
        self.deadline = MonotonicClock.now() &+ UInt64(lifetime.components.seconds) * 1_000_000_000
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "otlp-receiver"
        thread.start()
    }

    struct ReceiverError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The requests so far, in the order they came.
    var requests: [Request] { shared.withLock { $0.requests } }

    /// The requests to `/v1/<signal>` so far.
    func requests(_ signal: String) -> [Request] { requests.filter { $0.path == "/v1/" + signal } }

    /// Holds every answer (the collector is slow) until ``release()``.
    func hold() { shared.withLock { $0.holding = true } }
    /// Answers what was held, and from now on at once.
    func release() { shared.withLock { $0.holding = false } }

    /// Stops listening and answering (held requests get no answer: their connections close).
    func stop() { shared.withLock { $0.stopping = true } }

    deinit { stop() }

    private var isStopping: Bool {
        shared.withLock { $0.stopping } || MonotonicClock.now() >= deadline
    }

    private func acceptLoop() {
        while !isStopping {
            var polls = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
            guard poll(&polls, 1, 20) > 0, let accepted = Platform.accept(on: listener) else { continue }
            let thread = Thread { [self] in serve(accepted.fd) }
            thread.name = "otlp-receiver-connection"
            thread.start()
        }
        Platform.closeDescriptor(listener)
    }

    /// Reads requests from one connection (HTTP/1.1, keep-alive, Content-Length bodies) and answers each.
    private func serve(_ fd: Int32) {
        defer { Platform.closeDescriptor(fd) }
        var buffer: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while !isStopping {
            // A whole request in the buffer?
            if let request = takeRequest(&buffer, fd: fd) {
                let index = shared.withLock { s -> Int in
                    s.requests.append(request)
                    return s.requests.count - 1
                }
                while shared.withLock({ $0.holding }) && !isStopping { Platform.sleep(microseconds: 5_000) }
                if isStopping { return }
                let reply: String
                switch answer(index, request.path) {
                case .status(let code, let retryAfter):
                    let body = code / 100 == 2 ? "{}" : "{\"code\":14,\"message\":\"unavailable\"}"
                    var head = "HTTP/1.1 \(code) \(code / 100 == 2 ? "OK" : "Error")\r\nContent-Type: application/json\r\n"
                    if let retryAfter { head += "Retry-After: \(retryAfter)\r\n" }
                    head += "Content-Length: \(body.utf8.count)\r\n\r\n"
                    reply = head + body
                }
                let bytes = Array(reply.utf8)
                guard bytes.withUnsafeBytes({ Platform.writeAll(fd, $0) }) else { return }
                shared.withLock { $0.answered += 1 }
                continue
            }
            var polls = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0)]
            guard poll(&polls, 1, 20) > 0 else { continue }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress!, $0.count) }
            if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
            if n <= 0 { return }
            buffer.append(contentsOf: chunk[0..<n])
        }
    }

    /// The first complete request in `buffer`, removed from it.
    private func takeRequest(_ buffer: inout [UInt8], fd: Int32) -> Request? {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard buffer.count >= 4,
              let end = (0...(buffer.count - 4)).first(where: { Array(buffer[$0..<$0 + 4]) == separator }) else { return nil }
        let head = String(decoding: buffer[..<end], as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        let path = lines.first?.split(separator: " ").dropFirst().first.map(String.init) ?? ""
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        let length = Int(headers["content-length"] ?? "0") ?? 0
        let start = end + 4
        guard buffer.count >= start + length else {
            // A client that asks before sending a large body gets its go-ahead (once: the header is then removed).
            if headers["expect"]?.lowercased() == "100-continue" {
                let go = Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)
                _ = go.withUnsafeBytes { Platform.writeAll(fd, $0) }
                let marker = Array("100-continue".utf8)
                if let at = (0...(end - marker.count)).first(where: { Array(buffer[$0..<$0 + marker.count]) == marker }) {
                    buffer.replaceSubrange(at..<at + marker.count, with: Array("100-answered".utf8))
                }
            }
            return nil
        }
        let body = Array(buffer[start..<start + length])
        buffer.removeFirst(start + length)
        return Request(path: path, headers: headers, body: body, time: MonotonicClock.now())
    }
}
