// An inspector stand-in for the tests of tracing over a socket: listens on
// loopback TCP or a unix socket in a scratch directory, accepts every
// connection and keeps what each one sent; it can hang up on a connection,
// or go away.

import Foundation
import NapkinTrace

/// Listens on `address`, on a thread of its own, until ``stop()``.
///
/// `@unchecked Sendable`: `shared` (a `Locked`) guards everything the test
/// and the listening thread both touch; the descriptors are used by the
/// listening thread only, except `listener`, which ``stop()`` closes after
/// that thread finished.
package final class TestListener: @unchecked Sendable {
    /// What a connection sent, and whether it is still open.
    package struct Connection: Sendable {
        /// Every byte it sent so far.
        package var bytes: [UInt8] = []
        /// Whether neither side has closed it yet.
        package var isOpen = true
    }

    private struct Shared {
        var connections: [Connection] = []
        /// Connections the test asked to hang up on, by index.
        var hangUps: Set<Int> = []
        var stopping = false
        var finished = false
    }

    /// Where it listens (`NAPKIN_TRACE` is its description).
    package let address: TraceSocketAddress
    private let listener: Int32
    private let shared = Locked(Shared())
    private let done = DispatchSemaphore(value: 0)

    /// A listener on a free loopback TCP port.
    package static func tcp() throws -> TestListener {
        let address = try Platform.resolve(host: "127.0.0.1", port: 0, passive: true)[0]
        let fd = try Platform.listen(on: address)
        guard let port = Platform.boundPort(of: fd) else {
            Platform.closeDescriptor(fd)
            throw TestFailure("no port for the test listener")
        }
        return TestListener(address: .tcp(host: "127.0.0.1", port: port), listener: fd)
    }

    /// A listener on the unix socket file `path`.
    package static func unix(_ path: String) throws -> TestListener {
        let fd = try Platform.listen(on: try Platform.unixAddress(path))
        return TestListener(address: .unix(path: path), listener: fd)
    }

    private init(address: TraceSocketAddress, listener: Int32) {
        self.address = address
        self.listener = listener
        let thread = Thread { [self] in run() }
        thread.name = "test-listener"
        thread.start()
    }

    /// The connections accepted so far, in order.
    package var connections: [Connection] { shared.withLock { $0.connections } }

    /// How many connections were accepted.
    package var connectionCount: Int { shared.withLock { $0.connections.count } }

    /// What connection `index` sent so far (empty if there is no such connection).
    package func bytes(of index: Int) -> [UInt8] {
        shared.withLock { index < $0.connections.count ? $0.connections[index].bytes : [] }
    }

    /// Whether connection `index` has ended (the app closed it, or the listener hung up).
    package func hasEnded(_ index: Int) -> Bool {
        shared.withLock { index < $0.connections.count && !$0.connections[index].isOpen }
    }

    /// Hangs up on connection `index` (the inspector goes away; the listener stays).
    package func hangUp(_ index: Int) {
        shared.withLock { _ = $0.hangUps.insert(index) }
    }

    /// Stops listening: hangs up on every connection, closes the listening
    /// socket and removes a unix socket file. Waits for the listening thread.
    package func stop() {
        let first = shared.withLock { s -> Bool in
            defer { s.stopping = true }
            return !s.stopping
        }
        guard first else { return }
        done.wait()
        Platform.closeDescriptor(listener)
        if case .unix(let path) = address { Platform.removeSocketFile(path) }
    }

    deinit { stop() }

    private func run() {
        var open: [(fd: Int32, index: Int)] = []
        var buffer = [UInt8](repeating: 0, count: 65_536)
        func end(_ entry: (fd: Int32, index: Int)) {
            Platform.closeDescriptor(entry.fd)
            shared.withLock { $0.connections[entry.index].isOpen = false }
            open.removeAll { $0.fd == entry.fd }
        }
        while true {
            let (stopping, hangUps) = shared.withLock { ($0.stopping, $0.hangUps) }
            for entry in open where hangUps.contains(entry.index) { end(entry) }
            if stopping {
                for entry in open { end(entry) }
                break
            }
            var polls = [pollfd(fd: listener, events: Int16(POLLIN), revents: 0)]
                + open.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
            guard poll(&polls, nfds_t(polls.count), 10) > 0 else { continue }
            if polls[0].revents != 0, let accepted = Platform.accept(on: listener) {
                let index = shared.withLock { s -> Int in
                    s.connections.append(Connection())
                    return s.connections.count - 1
                }
                open.append((accepted.fd, index))
            }
            for p in polls.dropFirst() where p.revents != 0 {
                guard let entry = open.first(where: { $0.fd == p.fd }) else { continue }
                let n = buffer.withUnsafeMutableBytes { read(p.fd, $0.baseAddress!, $0.count) }
                if n < 0 && (errno == EAGAIN || errno == EINTR) { continue }
                if n <= 0 {
                    end(entry)
                    continue
                }
                shared.withLock { $0.connections[entry.index].bytes.append(contentsOf: buffer[0..<n]) }
            }
        }
        done.signal()
    }
}
