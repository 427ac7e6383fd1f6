// The socket calls of the live page's server: non-blocking sends that never
// raise SIGPIPE, and reads, with their outcomes as values.

/// What one send or receive on a non-blocking socket did.
enum WebSocketTransfer: Equatable, Sendable {
    /// This many bytes (more than zero) moved.
    case bytes(Int)
    /// The socket cannot take or give a byte now: wait for `poll`.
    case wouldBlock
    /// The peer closed its side (a receive read end of stream).
    case ended
    /// The connection failed (reset, broken pipe): close it.
    case failed
}

/// Non-blocking socket I/O for ``WebServer``.
enum WebSocketIO {
    /// Sends what it can of `bytes` to `fd`. A peer that went away yields
    /// ``WebSocketTransfer/failed``, never `SIGPIPE`: Linux is asked with
    /// `MSG_NOSIGNAL`; Apple sockets carry `SO_NOSIGPIPE` from `accept`.
    static func send(_ fd: Int32, _ bytes: ArraySlice<UInt8>) -> WebSocketTransfer {
        guard !bytes.isEmpty else { return .bytes(0) }
        while true {
            let sent = bytes.withUnsafeBytes { raw in sendCall(fd, raw.baseAddress, raw.count, noSignalFlag) }
            if sent > 0 { return .bytes(sent) }
            if sent == 0 { return .wouldBlock }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed
            }
        }
    }

    /// Reads at most `count` bytes from `fd` and appends them to `buffer`.
    static func receive(_ fd: Int32, into buffer: inout [UInt8], count: Int) -> WebSocketTransfer {
        var chunk = [UInt8](repeating: 0, count: count)
        while true {
            let received = chunk.withUnsafeMutableBytes { raw in recv(fd, raw.baseAddress, raw.count, 0) }
            if received > 0 {
                buffer.append(contentsOf: chunk[..<received])
                return .bytes(received)
            }
            if received == 0 { return .ended }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            default: return .failed
            }
        }
    }

    #if canImport(Darwin)
    private static let noSignalFlag: Int32 = 0
    #else
    private static let noSignalFlag = Int32(MSG_NOSIGNAL)
    #endif
}

/// The C library's `send`, under a name the wrapper does not shadow.
@inline(__always)
private func sendCall(_ fd: Int32, _ bytes: UnsafeRawPointer?, _ count: Int, _ flags: Int32) -> Int {
    send(fd, bytes, count, flags)
}
