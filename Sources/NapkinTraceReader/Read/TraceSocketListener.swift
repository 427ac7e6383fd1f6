import NapkinTrace
import Synchronization

/// A listening socket that traced apps connect to (`NAPKIN_TRACE=tcp:…` or
/// `unix:…`); each accepted connection carries one session's trace, to be
/// read with a ``TraceReader`` over its descriptor.
///
/// The stream is one-way: nothing is ever written to a connection.
package final class TraceSocketListener: Sendable {
    /// What the listener is bound to, as an app would name it in `NAPKIN_TRACE`
    /// (`tcp:127.0.0.1:7700` with the real port when 0 was asked for, or `unix:PATH`).
    package let address: TraceSocketAddress
    /// Whether only this machine can connect (a loopback address or a unix socket).
    package let isLocal: Bool
    private let fd: Int32
    private let closed = Atomic<Bool>(false)

    /// Listens on `address` (for a host name, on its first address).
    /// Throws a message naming the address and the fix.
    package init(address: TraceSocketAddress) throws(TraceSinkError) {
        if case .unix(let path) = address, let facts = Platform.fileFacts(atPath: path), facts.kind != .socket {
            throw TraceSinkError("cannot listen on \(path): it exists and is not a socket; remove it or choose another path")
        }
        let resolved: [Platform.SocketAddress]
        do {
            resolved = try address.resolved(passive: true)
        } catch {
            throw TraceSinkError("cannot listen on \(address.shortDescription): \(error)")
        }
        var lastError: Platform.SystemError?
        for candidate in resolved {
            do {
                let fd = try Platform.listen(on: candidate)
                self.fd = fd
                self.isLocal = candidate.isLocal
                if case .tcp(let host, _) = address, let port = Platform.boundPort(of: fd) {
                    self.address = .tcp(host: host, port: port)
                } else {
                    self.address = address
                }
                return
            } catch {
                lastError = error
            }
        }
        let reason = lastError.map { $0.code == Platform.SystemError.addressInUse
            ? "the address is in use (another inspector is listening there?); choose another port or path"
            : $0.description } ?? "no usable address"
        throw TraceSinkError("cannot listen on \(address.shortDescription): \(reason)")
    }

    /// The next connection, waiting at most `timeoutMS` for one: its
    /// descriptor (non-blocking; the caller closes it) and its peer in words.
    package func accept(timeoutMS: Int32) -> (fd: Int32, peer: String)? {
        if let connection = Platform.accept(on: fd) { return connection }
        guard case .ready = Platform.waitUntilReadable(fd, timeoutMS: timeoutMS) else { return nil }
        return Platform.accept(on: fd)
    }

    /// Waits at most `timeoutMS` until a connection can be accepted (or the wait is interrupted).
    package func waitForConnection(timeoutMS: Int32) {
        _ = Platform.waitUntilReadable(fd, timeoutMS: timeoutMS)
    }

    /// Whether ``close()`` was called.
    package var isClosed: Bool { closed.load(ordering: .acquiring) }

    /// Stops listening; a unix socket file is removed. Only the first call does anything.
    package func close() {
        guard !closed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        Platform.closeDescriptor(fd)
        if case .unix(let path) = address { Platform.removeSocketFile(path) }
    }
}
