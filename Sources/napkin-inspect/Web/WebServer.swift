// The minimal HTTP server of `napkin-inspect live --web`: one page and one
// Server-Sent Events stream, served from one thread that polls every socket.
// What it accepts and how long it waits are in `WebServerLimits`; requests
// are read by `HTTPRequestHead` and routed by `WebRoute`.

import Foundation
import NapkinTrace
import NapkinTraceReader
import Synchronization

/// Serves one HTML page and one Server-Sent Events stream.
///
/// One thread serves every connection with `poll(2)`; sockets are
/// non-blocking, so no client can make it wait, and ``publish(key:line:)``
/// only updates the latest value of a key under a lock and wakes the thread
/// (a self-pipe, which also makes ``stop()`` prompt).
///
/// Memory is bounded whatever clients do: the page and the latest value of
/// each key (once, shared by every client), plus for each of at most
/// ``WebServerLimits/maxConnections`` connections (and
/// ``WebServerLimits/maxRefusing`` being told 503) one of: a request head
/// being read (at most 32 KiB and one 4 KiB read), an answer's header
/// bytes, or an event stream's one partly written message and the version
/// number of each key it was sent. A client that reads slowly is sent the
/// latest values, never a backlog; one whose socket takes no byte for
/// ``WebServerLimits/writeStallTimeout`` is closed.
final class WebServer: Sendable {
    /// The bound port.
    let port: UInt16
    /// "http://HOST:PORT/" (IPv6 hosts in brackets).
    let url: String
    /// Whether the server is bound to a loopback address only.
    let isLoopback: Bool

    private let limits: WebServerLimits
    private let listener: Int32
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let shared = Locked(Shared())
    private let wakePending = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let started = Atomic<Bool>(false)
    private let descriptorsClosed = Atomic<Bool>(false)
    private let loopDone = DispatchSemaphore(value: 0)
    private let streams = Atomic<Int>(0)
    private let pendingTotal = Atomic<Int>(0)
    private let pendingPeak = Atomic<Int>(0)

    /// What the publishing threads and the loop share.
    private struct Shared {
        var page: [UInt8] = []
        var store = EventStore()
    }

    /// Binds HOST:PORT (port 0: a free port). Throws CommandFailure naming the address and the fix when it cannot.
    convenience init(host: String, port: UInt16) throws(CommandFailure) {
        try self.init(host: host, port: port, limits: .standard)
    }

    /// Binds HOST:PORT with `limits` (tests shorten the timeouts).
    init(host: String, port: UInt16, limits: WebServerLimits) throws(CommandFailure) {
        let shown = host.contains(":") ? "[\(host)]" : host
        let candidates: [SocketPlatform.SocketAddress]
        do {
            candidates = try SocketPlatform.resolve(host: host, port: port, passive: true)
        } catch {
            throw CommandFailure("cannot serve the live page on \(shown):\(port): \(error.description); give an address of this machine, such as 127.0.0.1")
        }
        var bound: (fd: Int32, isLocal: Bool)?
        var lastError: SocketPlatform.SystemError?
        for candidate in candidates {
            do {
                bound = (try SocketPlatform.listen(on: candidate), candidate.isLocal)
                break
            } catch {
                lastError = error
            }
        }
        guard let bound else {
            throw CommandFailure("cannot serve the live page on \(shown):\(port): \(Self.explain(lastError, port: port))")
        }
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else {
            let reason = String(cString: strerror(errno))
            SocketPlatform.closeDescriptor(bound.fd)
            throw CommandFailure("cannot serve the live page: no pipe to wake its thread (\(reason))")
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        listener = bound.fd
        isLoopback = bound.isLocal
        wakeRead = ends[0]
        wakeWrite = ends[1]
        self.limits = limits
        self.port = SocketPlatform.boundPort(of: bound.fd) ?? port
        url = "http://\(shown):\(self.port)/"
    }

    deinit { closeDescriptors() }

    /// The page served at GET / and HEAD / (text/html; charset=utf-8). May be called any time.
    func setPage(_ html: [UInt8]) {
        shared.withLock { $0.page = html }
    }

    /// Publishes `line` (one line: no \n or \r; the caller guarantees it, and
    /// any are removed) as the latest value of the stream `key`. Every SSE
    /// client gets, as soon as it can take it, the LATEST value of each key it
    /// has not yet received, keys in order of their first publication;
    /// intermediate values a slow client missed are skipped (a slow browser
    /// gets snapshots). Cheap, never blocks on I/O, callable from any thread.
    func publish(key: String, line: [UInt8]) {
        shared.withLock { $0.store.publish(key: key, line: line) }
        wake()
    }

    /// Forgets `key` (no longer sent to new clients; clients that have it keep it).
    func remove(key: String) {
        shared.withLock { $0.store.remove(key: key) }
        wake()
    }

    /// Starts serving on a thread of its own.
    func start() {
        guard !stopping.load(ordering: .acquiring), !started.exchange(true, ordering: .acquiringAndReleasing) else { return }
        let thread = Thread { [self] in
            serve()
            loopDone.signal()
        }
        thread.name = "napkin-inspect-web"
        thread.start()
    }

    /// Stops: closes every connection and the socket; returns once the thread has left its loop.
    func stop() {
        guard !stopping.exchange(true, ordering: .acquiringAndReleasing) else { return }
        if started.load(ordering: .acquiring) {
            wake(force: true)
            loopDone.wait()
        }
        closeDescriptors()
    }

    /// SSE clients connected now.
    var eventClients: Int { streams.load(ordering: .relaxed) }

    /// Bytes the event-stream clients hold waiting to be written, all together, as of the loop's last turn.
    var pendingOutputBytes: Int { pendingTotal.load(ordering: .relaxed) }

    /// The most bytes one event-stream client ever held waiting to be written
    /// (at most one message: its opening, an event, or a ping).
    var peakClientPendingBytes: Int { pendingPeak.load(ordering: .relaxed) }

    // MARK: - The loop

    private func serve() {
        var connections: [WebConnection] = []
        var polled: [pollfd] = []
        while !stopping.load(ordering: .acquiring) {
            polled.removeAll(keepingCapacity: true)
            polled.append(pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0))
            polled.append(pollfd(fd: listener, events: Int16(POLLIN), revents: 0))
            for connection in connections { polled.append(pollfd(fd: connection.fd, events: connection.pollEvents, revents: 0)) }
            let ready = poll(&polled, nfds_t(polled.count), timeoutMS(connections, now: Platform.monotonicNanoseconds()))
            if ready < 0 {
                for index in polled.indices { polled[index].revents = 0 }
            }
            if polled[0].revents != 0 { drainWakePipe() }
            guard !stopping.load(ordering: .acquiring) else { break }
            let context = shared.withLock { WebServiceContext(limits: limits, page: $0.page, store: $0.store, loopbackOnly: isLoopback) }
            let now = Platform.monotonicNanoseconds()
            var kept: [WebConnection] = []
            kept.reserveCapacity(connections.count)
            for (index, var connection) in connections.enumerated() {
                if connection.service(revents: polled[index + 2].revents, now: now, context) {
                    kept.append(connection)
                } else {
                    SocketPlatform.closeDescriptor(connection.fd)
                }
            }
            connections = kept
            if polled[1].revents != 0 { acceptWaiting(into: &connections, now: now, context) }
            account(connections)
        }
        for connection in connections { SocketPlatform.closeDescriptor(connection.fd) }
        streams.store(0, ordering: .relaxed)
        pendingTotal.store(0, ordering: .relaxed)
    }

    /// Accepts the connections waiting (at most a backlog's worth per turn):
    /// served while fewer than ``WebServerLimits/maxConnections`` are, told
    /// 503 while fewer than ``WebServerLimits/maxRefusing`` are being told, closed otherwise.
    private func acceptWaiting(into connections: inout [WebConnection], now: UInt64, _ context: WebServiceContext) {
        var served = connections.count(where: { !$0.isRefusal })
        var refusing = connections.count - served
        for _ in 0..<128 {
            guard let (fd, _) = SocketPlatform.accept(on: listener) else { return }
            if served < limits.maxConnections {
                served += 1
                connections.append(WebConnection(fd: fd, now: now, refused: false))
            } else if refusing < limits.maxRefusing {
                refusing += 1
                var connection = WebConnection(fd: fd, now: now, refused: true)
                if connection.service(revents: 0, now: now, context) {
                    connections.append(connection)
                } else {
                    SocketPlatform.closeDescriptor(fd)
                }
            } else {
                SocketPlatform.closeDescriptor(fd)
            }
        }
    }

    /// Publishes the loop's counts for ``eventClients`` and the pending-bytes counters.
    private func account(_ connections: [WebConnection]) {
        var count = 0
        var total = 0
        var peak = 0
        for connection in connections where connection.isStreaming {
            count += 1
            total += connection.pendingBytes
            peak = max(peak, connection.pendingBytes)
        }
        streams.store(count, ordering: .relaxed)
        pendingTotal.store(total, ordering: .relaxed)
        if peak > pendingPeak.load(ordering: .relaxed) { pendingPeak.store(peak, ordering: .relaxed) }
    }

    /// How long `poll` may wait: until the earliest deadline of a connection, at most a second.
    private func timeoutMS(_ connections: [WebConnection], now: UInt64) -> Int32 {
        var earliest = now &+ 1_000_000_000
        for connection in connections {
            if let deadline = connection.deadline(limits) { earliest = min(earliest, deadline) }
        }
        return earliest <= now ? 0 : Int32((earliest - now + 999_999) / 1_000_000)
    }

    // MARK: - Waking and closing

    /// Wakes the loop (once per turn: later calls find a wake already pending).
    private func wake(force: Bool = false) {
        guard !wakePending.exchange(true, ordering: .acquiringAndReleasing) || force else { return }
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    /// Empties the wake pipe; the next ``wake(force:)`` writes to it again.
    private func drainWakePipe() {
        wakePending.store(false, ordering: .releasing)
        var bytes = [UInt8](repeating: 0, count: 64)
        while bytes.withUnsafeMutableBytes({ read(wakeRead, $0.baseAddress, $0.count) }) > 0 {}
    }

    private func closeDescriptors() {
        guard !descriptorsClosed.exchange(true, ordering: .acquiringAndReleasing) else { return }
        SocketPlatform.closeDescriptor(listener)
        SocketPlatform.closeDescriptor(wakeRead)
        SocketPlatform.closeDescriptor(wakeWrite)
    }

    /// The fix for a failed bind, in words.
    private static func explain(_ error: SocketPlatform.SystemError?, port: UInt16) -> String {
        guard let error else { return "no usable address; give an address of this machine, such as 127.0.0.1" }
        switch error.code {
        case EADDRINUSE: return "port \(port) is in use; choose another port, or 0 for a free one"
        case EACCES: return "permission denied (ports below 1024 need privileges); choose a port above 1023"
        case EADDRNOTAVAIL: return "no interface of this machine has that address; give one it has, such as 127.0.0.1"
        default: return "\(error.description)"
        }
    }
}
