// A raw-socket HTTP client for the tests of the live page's server: the
// test process connects, sends exactly the bytes a test chooses, and reads
// what comes back, byte for byte. Blocking sockets whose reads give up after
// a generous while, so that a server bug fails a test instead of hanging it.

import Foundation
import TestSupport
@testable import napkin_inspect

/// One connection to a ``WebServer`` under test.
final class WebTestClient {
    /// The socket (blocking).
    let fd: Int32
    /// Everything received so far and not yet taken by ``readUntil(_:)``.
    private(set) var received: [UInt8] = []
    /// Whether the server closed its side.
    private(set) var ended = false
    private var closed = false

    /// Connects to 127.0.0.1:`port`; with `receiveBuffer`, the socket's
    /// receive buffer is set that small first (a client that reads little).
    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        fd = try connectLoopback(port: port, receiveBuffer: receiveBuffer)
        var timeout = timeval(tv_sec: 20, tv_usec: 0)
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { close() }

    /// Sends `text` (as UTF-8).
    func send(_ text: String) { send(Array(text.utf8)) }

    /// Sends `bytes`, all of them unless the server closed the connection (no SIGPIPE).
    func send(_ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { raw in
                socketSend(fd, raw.baseAddress, raw.count)
            }
            if sent > 0 { offset += sent } else if sent < 0 && errno == EINTR { continue } else { return }
        }
    }

    /// Closes the sending side (the server reads end of stream).
    func shutdownSending() { _ = shutdown(fd, Int32(SHUT_WR)) }

    /// Reads once (at most 64 KiB) into ``received``; false at the end of the stream or on an error.
    @discardableResult
    func readSome() -> Bool {
        guard !ended else { return false }
        var chunk = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                received += chunk[..<count]
                return true
            }
            if count < 0 && errno == EINTR { continue }
            ended = true
            return false
        }
    }

    /// Reads until `pattern` is in ``received``; returns and removes
    /// everything up to and with it, or nil when the stream ended first.
    func readUntil(_ pattern: String) -> [UInt8]? {
        let needle = Array(pattern.utf8)
        var searchFrom = 0
        while true {
            if let range = Self.find(needle, in: received, from: searchFrom) {
                let taken = Array(received[..<range])
                received.removeFirst(range)
                return taken
            }
            searchFrom = max(0, received.count - needle.count + 1)
            guard readSome() else { return nil }
        }
    }

    /// Reads to the end of the stream; returns everything received.
    func readToEnd() -> [UInt8] {
        while readSome() {}
        return received
    }

    /// Reads a whole response of a connection the server closes after it.
    func response() throws -> WebTestResponse {
        try WebTestResponse(readToEnd())
    }

    /// Reads a response head (up to its empty line) and returns it, leaving what follows in ``received``.
    func responseHead() throws -> WebTestResponse {
        guard let head = readUntil("\r\n\r\n") else { throw TestFailure("no response head: \(String(decoding: received, as: UTF8.self))") }
        return try WebTestResponse(head)
    }

    /// Reads the next event-stream message (up to its empty line), without the `\n\n`.
    func nextMessage() -> String? {
        readUntil("\n\n").map { String(decoding: $0.dropLast(2), as: UTF8.self) }
    }

    /// Closes the connection with a reset (`SO_LINGER` 0).
    func reset() {
        setResetOnClose(fd)
        close()
    }

    /// Closes the connection.
    func close() {
        guard !closed else { return }
        closed = true
        closeSocket(fd)
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
            if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
        }
        return nil
    }
}

/// A response as read off the wire.
struct WebTestResponse: CustomStringConvertible {
    /// The status code.
    let status: Int
    /// The header fields, names lowercased (a repeated name keeps its last value).
    let headers: [String: String]
    /// The bytes after the head.
    let body: [UInt8]
    /// The whole response as text.
    let description: String

    /// Parses `bytes`: `HTTP/1.1 CODE REASON`, header lines, an empty line, the body.
    init(_ bytes: [UInt8]) throws {
        description = String(decoding: bytes, as: UTF8.self)
        let separator = Array("\r\n\r\n".utf8)
        guard let end = (0...(max(bytes.count - 4, 0))).first(where: { bytes.count >= $0 + 4 && Array(bytes[$0..<($0 + 4)]) == separator })
        else { throw TestFailure("no whole response head in: \(String(decoding: bytes, as: UTF8.self))") }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0] == "HTTP/1.1", let code = Int(statusParts[1]) else {
            throw TestFailure("bad status line: \(lines[0])")
        }
        status = code
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw TestFailure("bad header line: \(line)") }
            fields[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        headers = fields
        body = Array(bytes[(end + 4)...])
    }

    /// The body as text.
    var text: String { String(decoding: body, as: UTF8.self) }
}

// The C calls the client's methods would shadow.

/// `send(2)`; a peer that went away fails with EPIPE, never SIGPIPE
/// (`MSG_NOSIGNAL` on Linux; Apple sockets carry `SO_NOSIGPIPE` from `connect`).
private func socketSend(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int) -> Int {
    #if canImport(Darwin)
    send(fd, bytes, count, 0)
    #else
    send(fd, bytes, count, Int32(MSG_NOSIGNAL))
    #endif
}

/// Makes `close` reset the connection (`SO_LINGER` with a zero timeout).
private func setResetOnClose(_ fd: Int32) {
    var option = linger(l_onoff: 1, l_linger: 0)
    _ = setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
}

/// `close(2)`.
private func closeSocket(_ fd: Int32) {
    _ = close(fd)
}

/// A blocking TCP socket connected to 127.0.0.1:`port`; with `receiveBuffer`,
/// its receive buffer is set before connecting (so that the window the
/// connection starts with is that small too).
private func connectLoopback(port: UInt16, receiveBuffer: Int32?) throws -> Int32 {
    #if canImport(Darwin)
    let fd = socket(AF_INET, SOCK_STREAM, 0)
    #else
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #endif
    guard fd >= 0 else { throw TestFailure("no socket: \(String(cString: strerror(errno)))") }
    #if canImport(Darwin)
    var one: Int32 = 1
    _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
    #endif
    if var size = receiveBuffer {
        _ = setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
    }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    let status = withUnsafePointer(to: &address) { pointer in
        pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard status == 0 else {
        let reason = String(cString: strerror(errno))
        _ = close(fd)
        throw TestFailure("cannot connect to 127.0.0.1:\(port): \(reason)")
    }
    return fd
}
