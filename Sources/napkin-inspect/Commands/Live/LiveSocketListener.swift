import Foundation
import NapkinTrace
import NapkinTraceReader
import Synchronization

/// Accepts traced apps on a socket (`live --listen`, and `live -- COMMAND`
/// for every process the command starts) and gives each connection a
/// ``LiveSession`` of its own, read on a thread of its own.
///
/// Whatever connects cannot crash the inspector or hold more than a bounded
/// amount of its memory:
/// - at most ``maxOpenConnections`` connections are read at once; more are
///   closed as soon as they are accepted (a napkin app retries later, with
///   backoff);
/// - a connection must send a valid session record as its first line (no
///   other output comes first on a socket) within ``handshakeSeconds``, or it
///   is closed;
/// - lines are at most ``maxLineLength`` bytes (the app writes records of at
///   most 16 KiB to its connection, `NDJSONTraceSink.socketRecordLimit`); a
///   longer line is skipped, whatever its length;
/// - each connection's read buffer is ``readChunk`` + ``maxLineLength`` bytes (128 KiB);
/// - all sessions share one budget of live nodes (``LiveSessionList/nodeBudget``).
///
/// No connection that reached the listener is dropped: ``acceptQueued()``
/// and ``stopAccepting()`` accept every connection waiting in the socket's
/// backlog (an app that connected and exited before it was accepted), and
/// ``cutOpenConnections()``, the last step, stops only connections that are
/// still open once the caller's grace has passed; their sessions say so.
///
/// Nothing is ever written to a connection: the stream is one-way.
///
/// Named as `live`'s listener on the socket (a `TraceSocketListener` underneath) that makes a ``LiveSession`` of each connection.
final class LiveSocketListener: Sendable {
    /// Connections read at once, at most.
    static let maxOpenConnections = 256
    /// Seconds a connection has to send its session record.
    static let handshakeSeconds: UInt64 = 10
    /// The longest line read from a connection.
    static let maxLineLength = 64 << 10
    /// How many bytes one read of a connection asks for.
    static let readChunk = 64 << 10

    /// Where apps connect.
    let socket: TraceSocketListener
    /// The sessions, one per connection.
    let sessions: LiveSessionList
    /// `--record DIR`, if given.
    let recordDirectory: String?
    private let stopped = Atomic<Bool>(false)
    /// Set by the accept thread once it left its loop; the socket is closed only then.
    private let acceptLoopDone = Atomic<Bool>(false)
    /// Held while connections are accepted and registered (the count of
    /// connections accepted so far), so that once ``acceptQueued()`` returns
    /// every connection accepted before is in ``open``.
    private let accepting = Locked<Int>(0)
    private let open = Locked<[Connection]>([])
    private let refused = Atomic<Int>(0)
    private let notices = Locked<[String]>([])

    /// One connection being read.
    private struct Connection: Sendable {
        let session: LiveSession
        let reader: ReaderBox
        let acceptedAt: UInt64
    }

    /// Listens on `address`; throws a usage message when it cannot.
    init(address: TraceSocketAddress, sessions: LiveSessionList, recordDirectory: String?) throws(CommandFailure) {
        do {
            socket = try TraceSocketListener(address: address)
        } catch {
            throw CommandFailure(error.description)
        }
        self.sessions = sessions
        self.recordDirectory = recordDirectory
    }

    /// Accepts connections on a new thread until ``stop()``.
    func start() {
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "napkin-inspect-listener"
        thread.start()
    }

    /// Stops accepting: accepts what is queued in the backlog (each gets a
    /// session and is read on), then closes the listening socket. Open
    /// connections go on being read; ``cutOpenConnections()`` stops them.
    func stopAccepting() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        // The accept thread polls at most `acceptPollMS` at a time; wait for it to leave
        // (it may be starved on a busy machine: a bounded wait, then close regardless).
        let deadline = Platform.monotonicNanoseconds() &+ 5_000_000_000
        while !acceptLoopDone.load(ordering: .acquiring) && Platform.monotonicNanoseconds() < deadline {
            Platform.sleep(nanoseconds: 1_000_000)
        }
        acceptQueued()
        socket.close()
    }

    /// Stops reading the connections still open (their sessions finish with
    /// what they read, and say they were still connected).
    func cutOpenConnections() {
        for connection in open.withLock({ $0 }) { connection.reader.reader.stop() }
    }

    /// Stops accepting and stops reading every open connection at once.
    func stop() {
        stopAccepting()
        cutOpenConnections()
    }

    /// Accepts every connection waiting in the backlog now, without waiting
    /// for more; when it returns, each connection made before the call (by a
    /// process that may have exited since) has a session being read.
    func acceptQueued() {
        accepting.withLock { accepted in
            guard !socket.isClosed else { return }
            while let (fd, peer) = socket.accept(timeoutMS: 0) {
                accepted += 1
                if openCount >= Self.maxOpenConnections {
                    refused.add(1, ordering: .relaxed)
                    close(fd)
                } else {
                    read(fd, name: peer == "local" ? "connection \(accepted)" : "connection \(accepted) from \(peer)")
                }
            }
        }
    }

    /// How many connections are being read now.
    var openCount: Int { open.withLock { $0.count } }

    /// Connections closed at once because ``maxOpenConnections`` were open.
    var refusedCount: Int { refused.load(ordering: .relaxed) }

    /// Messages for standard error since the last call (recording problems).
    func takeNotices() -> [String] {
        notices.withLock { n in
            defer { n.removeAll() }
            return n
        }
    }

    /// How long the accept thread waits for a connection before it looks at ``stopped`` again.
    private static let acceptPollMS: Int32 = 100

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            socket.waitForConnection(timeoutMS: Self.acceptPollMS)
            guard !stopped.load(ordering: .relaxed) else { break }
            acceptQueued()
            closeSilentConnections()
        }
        acceptLoopDone.store(true, ordering: .releasing)
    }

    /// Starts reading a new connection on a thread of its own.
    private func read(_ fd: Int32, name: String) {
        let recorder = recordDirectory.map { ConnectionRecorder(directory: $0) }
        var options = TraceReader.Options(maxLineLength: Self.maxLineLength, maxLeadingForeignLines: 0)
        options.readChunk = Self.readChunk
        if let recorder { options.tap = { recorder.take($0) } }
        let reader = TraceReader(fileDescriptor: fd, source: name, options: options)
        let session = sessions.open(sourceName: name, isLive: true, limitNodes: true)
        if let recorder {
            session.onSessionRecord = { [notices] info in
                if let problem = recorder.name(after: info) { notices.withLock { $0.append(problem) } }
            }
        }
        let box = ReaderBox(reader)
        open.withLock { $0.append(Connection(session: session, reader: box, acceptedAt: Platform.monotonicNanoseconds())) }
        session.startReading(box) { [self] in
            recorder?.finish()
            close(fd)
            open.withLock { $0.removeAll { $0.session === session } }
            if let rejection = session.withState({ $0.rejection }) {
                sessions.noteRejection(rejection.description)
            }
        }
    }

    /// Closes connections that sent no record within ``handshakeSeconds``.
    private func closeSilentConnections() {
        let now = Platform.monotonicNanoseconds()
        for connection in open.withLock({ $0 }) where now &- connection.acceptedAt > Self.handshakeSeconds * 1_000_000_000 {
            if connection.session.withState({ $0.events == 0 }) {
                connection.session.withState { $0.silent = true }
                connection.reader.reader.stop()
            }
        }
    }
}
