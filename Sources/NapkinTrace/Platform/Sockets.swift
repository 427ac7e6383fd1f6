// Sockets: part of NapkinTrace's C-library layer (the files of Platform/, see
// Platform.swift), with its rules: libc's semantics, errors as values,
// nothing of libc in a package or public declaration.
internal import NapkinLibc

extension Platform {
    // MARK: - Addresses

    /// A socket address, resolved: ready for `connect(2)` or `bind(2)`.
    package struct SocketAddress: Sendable, CustomStringConvertible {
        /// The raw `sockaddr` bytes.
        fileprivate let bytes: [UInt8]
        /// The address family (`AF_INET`, `AF_INET6`, `AF_UNIX`).
        fileprivate let family: Int32
        /// How the address reads in messages (`127.0.0.1:7000`, `[::1]:7000`, a path).
        package let description: String

        /// Whether the address is a loopback address (or a unix socket, which is local by nature).
        package var isLocal: Bool {
            switch family {
            case AF_UNIX: return true
            case AF_INET: return bytes.count >= 8 && bytes[4] == 127
            case AF_INET6:
                // ::1, or an IPv4-mapped 127.x address.
                guard bytes.count >= 24 else { return false }
                let address = Array(bytes[8..<24])
                if address == [UInt8](repeating: 0, count: 15) + [1] { return true }
                return address.prefix(12) == ([UInt8](repeating: 0, count: 10) + [0xFF, 0xFF])[...] && address[12] == 127
            default: return false
            }
        }
    }

    /// Why a socket address could not be resolved or used.
    package struct SocketError: Error, Sendable, CustomStringConvertible {
        /// What failed, in words.
        package let description: String
    }

    /// The addresses `host` and `port` name (`getaddrinfo`, stream sockets).
    /// May wait for a name server: call it on a thread that may wait.
    /// With `passive` and an empty host, the wildcard address.
    package static func resolve(host: String, port: UInt16, passive: Bool = false) throws(SocketError) -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Darwin)
        hints.ai_socktype = SOCK_STREAM
        #else
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #endif
        hints.ai_flags = AI_NUMERICSERV | (passive ? AI_PASSIVE : 0)
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host.isEmpty ? nil : host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            let reason = status == 0 ? "no address" : String(cString: gai_strerror(status))
            throw SocketError(description: "cannot resolve '\(host)': \(reason)")
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let current = entry {
            if let raw = current.pointee.ai_addr, current.pointee.ai_family == AF_INET || current.pointee.ai_family == AF_INET6 {
                let bytes = Array(UnsafeRawBufferPointer(start: raw, count: Int(current.pointee.ai_addrlen)))
                addresses.append(SocketAddress(bytes: bytes, family: current.pointee.ai_family,
                                               description: numericName(raw, family: current.pointee.ai_family, port: port)))
            }
            entry = current.pointee.ai_next
        }
        guard !addresses.isEmpty else { throw SocketError(description: "cannot resolve '\(host)': no IPv4 or IPv6 address") }
        return addresses
    }

    /// The address of the unix socket file at `path`; throws when the path is
    /// too long for a socket address (about 100 bytes).
    package static func unixAddress(_ path: String) throws(SocketError) -> SocketAddress {
        var address = sockaddr_un()
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        let utf8 = Array(path.utf8)
        guard !utf8.isEmpty, utf8.count < capacity, !utf8.contains(0) else {
            throw SocketError(description: "unix socket path '\(path)' is empty or longer than \(capacity - 1) bytes; use a shorter path")
        }
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in utf8.enumerated() { raw[i] = byte }
            raw[utf8.count] = 0
        }
        let bytes = withUnsafeBytes(of: &address) { Array($0) }
        return SocketAddress(bytes: bytes, family: AF_UNIX, description: path)
    }

    // MARK: - Connecting and listening

    /// A new stream socket for `family`: close-on-exec, non-blocking, and on
    /// Apple platforms without SIGPIPE (elsewhere writers block SIGPIPE, see
    /// ``withBrokenPipeIgnored(_:)``).
    private static func streamSocket(_ family: Int32) throws(SystemError) -> Int32 {
        #if canImport(Darwin)
        let fd = socket(family, SOCK_STREAM, 0)
        guard fd >= 0 else { throw SystemError.current }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #else
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw SystemError.current }
        #endif
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        return fd
    }

    /// Connects a new non-blocking stream socket to `address`, waiting at
    /// most `timeoutMS` for the connection; the descriptor stays non-blocking.
    package static func connect(to address: SocketAddress, timeoutMS: Int32) throws(SystemError) -> Int32 {
        let fd = try streamSocket(address.family)
        let status = address.bytes.withUnsafeBytes { raw in
            connectCall(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        if status == 0 { return fd }
        let code = errno
        guard code == EINPROGRESS || code == EINTR || code == EAGAIN else {
            closeDescriptor(fd)
            throw SystemError(code: code)
        }
        switch waitUntilWritable(fd, timeoutMS: timeoutMS) {
        case .ready: break
        case .timedOut:
            closeDescriptor(fd)
            throw SystemError(code: ETIMEDOUT)
        case .interrupted:
            closeDescriptor(fd)
            throw SystemError(code: EINTR)
        case .failed(let error):
            closeDescriptor(fd)
            throw error
        }
        var pending: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &pending, &length) == 0 else {
            let error = SystemError.current
            closeDescriptor(fd)
            throw error
        }
        guard pending == 0 else {
            closeDescriptor(fd)
            throw SystemError(code: pending)
        }
        return fd
    }

    /// A non-blocking listening socket bound to `address`. A TCP socket may
    /// reuse a port in `TIME_WAIT`. A unix socket file left by a listener that
    /// is gone (nothing accepts on it) is replaced; anything else at the path
    /// is never touched (`EADDRINUSE`).
    package static func listen(on address: SocketAddress, backlog: Int32 = 128) throws(SystemError) -> Int32 {
        if address.family == AF_UNIX, let facts = fileFacts(atPath: address.description), facts.kind == .socket {
            if let probe = try? connect(to: address, timeoutMS: 200) {
                closeDescriptor(probe)
                throw SystemError(code: EADDRINUSE)
            }
            _ = unlink(address.description)
        }
        let fd = try streamSocket(address.family)
        if address.family != AF_UNIX {
            var one: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        }
        let bound = address.bytes.withUnsafeBytes { raw in
            bind(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), socklen_t(raw.count))
        }
        guard bound == 0, listenCall(fd, backlog) == 0 else {
            let error = SystemError.current
            closeDescriptor(fd)
            throw error
        }
        return fd
    }

    /// Accepts one waiting connection on the listening socket `fd`, if there
    /// is one: a close-on-exec, non-blocking descriptor (a reader waits for it
    /// with `poll`, so it can be stopped), and its peer's
    /// address in words. `nil` when none is waiting (or accepting failed:
    /// `EMFILE`, a connection reset before it was accepted).
    package static func accept(on fd: Int32) -> (fd: Int32, peer: String)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let connection = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { acceptCall(fd, $0, &length) }
        }
        guard connection >= 0 else { return nil }
        _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
        let flags = fcntl(connection, F_GETFL)
        _ = fcntl(connection, F_SETFL, flags | O_NONBLOCK)
        #if canImport(Darwin)
        var one: Int32 = 1
        _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
        #endif
        let peer: String = withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                let family = Int32(address.pointee.sa_family)
                guard family == AF_INET || family == AF_INET6 else { return "local" }
                return numericName(UnsafeRawPointer(address).assumingMemoryBound(to: sockaddr.self), family: family, port: nil)
            }
        }
        return (connection, peer)
    }

    /// The local port a TCP socket is bound to (for a listener given port 0).
    package static func boundPort(of fd: Int32) -> UInt16? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let status = withUnsafeMutablePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard status == 0 else { return nil }
        let family = Int32(storage.ss_family)
        guard family == AF_INET || family == AF_INET6 else { return nil }
        // Both sockaddr_in and sockaddr_in6 keep the port, in network order, at offset 2.
        return withUnsafeBytes(of: &storage) { raw in UInt16(raw[2]) << 8 | UInt16(raw[3]) }
    }

    /// Removes the unix socket file at `path`, if it is one.
    package static func removeSocketFile(_ path: String) {
        if fileFacts(atPath: path)?.kind == .socket { _ = unlink(path) }
    }

    /// The numeric host (and port) of an IPv4 or IPv6 socket address.
    private static func numericName(_ address: UnsafePointer<sockaddr>, family: Int32, port: UInt16?) -> String {
        var host = [CChar](repeating: 0, count: 64)
        let length = socklen_t(family == AF_INET6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size)
        var service = [CChar](repeating: 0, count: 16)
        let status = getnameinfo(address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
                                 NI_NUMERICHOST | NI_NUMERICSERV)
        guard status == 0 else { return "?" }
        let name = host.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        let shownPort = port.map(String.init) ?? service.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        return family == AF_INET6 ? "[\(name)]:\(shownPort)" : "\(name):\(shownPort)"
    }
}

// MARK: - The C calls

// The C calls whose names the wrappers above reuse.
@inline(__always)
private func connectCall(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}

@inline(__always)
private func listenCall(_ fd: Int32, _ backlog: Int32) -> Int32 {
    listen(fd, backlog)
}

@inline(__always)
private func acceptCall(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: UnsafeMutablePointer<socklen_t>) -> Int32 {
    accept(fd, address, length)
}
