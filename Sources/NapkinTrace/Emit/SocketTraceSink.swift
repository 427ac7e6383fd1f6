import Foundation

/// Sends a trace to an inspector over a socket: what `NAPKIN_TRACE=tcp:HOST:PORT`
/// and `NAPKIN_TRACE=unix:PATH` ask for (`napkin-inspect live --listen` is
/// the other end).
///
/// It keeps the promises of the other sinks (the app never waits for I/O;
/// trouble is one line on standard error, see ``DeveloperNotice``). Creating
/// it does no I/O; it connects on the tracer's writer thread, retries after
/// a backoff, keeps a bounded backlog meanwhile, starts every later
/// connection with a resumed session record and the replay of the live tree
/// (``LiveTreeRecords``), and never lets exit hang. The connection is this
/// file; connecting and losing it are in `SocketTraceSinkConnecting.swift`,
/// sending in `SocketTraceSinkSending.swift`. See docs/internals.md, "The
/// socket sink", for how and why.
package final class SocketTraceSink: TracerAwareSink {
    // MARK: - Settings and status

    /// How the sink connects and how much it keeps while it cannot.
    package struct Settings: Sendable, Hashable {
        /// How long one address may take to accept a connection.
        package var connectTimeoutMS: Int32
        /// The wait before the first retry after a failed attempt or a lost connection.
        package var firstBackoffMS: UInt64
        /// The longest wait between attempts (the wait doubles up to it).
        package var maxBackoffMS: UInt64
        /// The most events kept while not connected.
        package var backlogCapacity: Int
        /// The most memory those events may take (see ``EventBacklog/size(of:)``).
        package var backlogBytes: Int

        /// The settings of `NAPKIN_TRACE=tcp:` and `unix:`: a 250 ms connect
        /// timeout, retries from 100 ms doubling to 5 s, and a backlog of
        /// 8,192 events within 4 MiB.
        package init(connectTimeoutMS: Int32 = 250, firstBackoffMS: UInt64 = 100, maxBackoffMS: UInt64 = 5_000,
                     backlogCapacity: Int = 8_192, backlogBytes: Int = 4 << 20) {
            self.connectTimeoutMS = max(1, connectTimeoutMS)
            self.firstBackoffMS = max(1, firstBackoffMS)
            self.maxBackoffMS = max(self.firstBackoffMS, maxBackoffMS)
            self.backlogCapacity = max(1, backlogCapacity)
            self.backlogBytes = max(EventBacklog.eventCost, backlogBytes)
        }
    }

    /// What the sink has done so far (for tests and diagnostics).
    package struct Status: Sendable, Hashable {
        /// Whether a connection is open now.
        package var isConnected: Bool
        /// The part the current (or last) connection carries; 0 before the first connection.
        package var part: Int
        /// Connections made so far.
        package var connections: Int
        /// Connection attempts so far (made or not).
        package var attempts: Int
        /// Events that never reached an inspector, over the whole session.
        package var lost: UInt64
        /// Events waiting in the backlog.
        package var backlogCount: Int
        /// Routers and interactors the replay would name now.
        package var liveNodes: Int
        /// Running tasks the replay would name now.
        package var liveTasks: Int
    }

    // MARK: - State

    /// The most lines the sink writes to standard error in a process.
    package static let maxNotices = 6

    /// Where the inspector listens.
    package let address: TraceSocketAddress
    /// The settings in use.
    package let settings: Settings
    /// Everything the writer thread works with; held for a whole write.
    let state: Locked<State>
    /// The open connection and whether the process is exiting, behind a lock
    /// of their own that is never held for I/O: the exit handler reaches the
    /// connection through it without waiting for a write in progress.
    let exit = Locked<ExitState>(ExitState())

    /// What the exit handler reaches without waiting for a write.
    struct ExitState {
        /// The open connection, if any.
        var connection: NDJSONTraceSink?
        /// Set by ``processWillExit()``.
        var exiting = false
    }

    /// Everything the writer thread works with.
    struct State {
        /// The open connection, if any.
        var connection: NDJSONTraceSink?
        /// The socket under `connection` (owned by it).
        var fd: Int32 = -1
        /// Events kept while not connected.
        var backlog: EventBacklog
        /// The live tree, for the replay that starts a resumed part.
        var tree = LiveTreeRecords()
        /// The session record the tracer wrote first (the resumed ones copy it).
        var session: SessionInfo?
        /// The session record has not left the sink yet: the next connection starts part 1 with it.
        var sessionRecordPending = true
        /// The last event that left the sink (delivered or lost).
        var lastSeq: UInt64 = 0
        /// The time of that event.
        var lastTime: UInt64 = 0
        /// The part the current (or last) connection carries.
        var part = 0
        /// Connections made so far.
        var connections = 0
        /// Connection attempts so far.
        var attempts = 0
        /// Events lost since the current part began (or, while not connected, since the last one began).
        var lostSincePart: UInt64 = 0
        /// Events lost over the whole session.
        var totalLost: UInt64 = 0
        /// When the next attempt may be made (monotonic ns; 0: now).
        var nextAttempt: UInt64 = 0
        /// When to look at the peer once after the last write (monotonic ns; 0: no look due).
        var peerCheckDue: UInt64 = 0
        /// The wait after the next failed attempt.
        var backoffMS: UInt64
        /// Lines standard error may still get.
        var noticesLeft = SocketTraceSink.maxNotices
        /// A notice said the inspector is not there; retries say nothing more.
        var saidUnreachable = false
        /// A notice said the inspector is not there: the next connection is announced.
        var announceNextConnection = false
        /// Set by ``close()``: the trace ended.
        var closed = false
    }

    /// A sink for `address`. Does no I/O: the first attempt to connect comes
    /// with the first batch the tracer writes.
    package init(address: TraceSocketAddress, settings: Settings = Settings()) {
        self.address = address
        self.settings = settings
        state = Locked(State(backlog: EventBacklog(capacity: settings.backlogCapacity, byteLimit: settings.backlogBytes),
                             backoffMS: settings.firstBackoffMS))
    }

    /// What the sink has done so far. Waits for a write in progress.
    package var status: Status {
        state.withLock { s in
            Status(isConnected: s.connection != nil, part: s.part, connections: s.connections, attempts: s.attempts,
                   lost: s.totalLost, backlogCount: s.backlog.count, liveNodes: s.tree.nodeCount, liveTasks: s.tree.taskCount)
        }
    }

    // MARK: - TraceSink

    /// Sends `events` if connected (connecting first when an attempt is due),
    /// else keeps them in the backlog. Never throws: a lost connection is
    /// retried, not a reason to stop tracing.
    package func write(_ events: [TraceEvent]) throws {
        let exiting = exit.withLock { $0.exiting }
        state.withLock { s in
            guard !s.closed else { return }
            if s.session == nil, let first = events.first, case .sessionStart(let info) = first.kind { s.session = info }
            if s.connection != nil { checkPeer(&s) }
            // At exit the one last attempt is close()'s.
            if s.connection == nil && !exiting && MonotonicClock.now() >= s.nextAttempt { connect(&s) }
            if s.connection != nil {
                send(prefix: [], events: events, &s)
            } else {
                for event in events { keep(event, &s) }
            }
        }
    }

    /// Connects at the end if not connected (one attempt, whatever the
    /// backoff), sends what the backlog holds, and closes the connection.
    /// Bounded: one connect timeout per address, then writes that give up
    /// after ``NDJSONTraceSink/exitTimeoutMS`` without progress.
    package func close() {
        state.withLock { s in
            guard !s.closed else { return }
            // From here on, no write waits for a stalled inspector for long.
            s.closed = true
            if let connection = s.connection {
                connection.processWillExit()
                checkPeer(&s)
            }
            if s.connection == nil && !s.backlog.isEmpty, let reason = connect(&s) {
                let undelivered = UInt64(s.backlog.count) &+ s.lostSincePart
                notice("napkin: no trace inspector at \(address) when the trace ended (\(reason)); "
                       + "\(undelivered) event\(undelivered == 1 ? " was" : "s were") not delivered", &s)
            }
            disconnect(&s)
            _ = s.backlog.removeAll()
            s.tree = LiveTreeRecords()
        }
    }

    // MARK: - TracerAwareSink

    /// Bounds the writes from now on (see ``NDJSONTraceSink/processWillExit()``),
    /// the one in progress included; waits for no write.
    package func processWillExit() {
        exit.withLock { e in
            e.exiting = true
            e.connection?.processWillExit()
        }
    }

    /// When the sink next has work while no event comes: not connected, the
    /// next connection attempt (the writer wakes for it, at the backoff's
    /// pace: 100 ms doubling to 5 s); connected, one look at the peer the
    /// first backoff (100 ms) after the last write, then nothing: an
    /// inspector that leaves later is noticed at the next write, which keeps
    /// the events and reconnects when due, so an idle app connected to an
    /// inspector is not woken by the sink. `nil` when closed or exiting.
    package var idleCallDue: UInt64? {
        let exiting = exit.withLock { $0.exiting }
        return state.withLock { s in
            guard !s.closed, !exiting else { return nil }
            if s.connection != nil { return s.peerCheckDue == 0 ? nil : s.peerCheckDue }
            return s.nextAttempt
        }
    }

    /// A quiet interval: connects (sending the replay and the backlog) when
    /// an attempt is due, or notices an inspector that went away.
    package func writerIsIdle() {
        let exiting = exit.withLock { $0.exiting }
        state.withLock { s in
            guard !s.closed else { return }
            if s.connection != nil {
                if s.peerCheckDue != 0 && MonotonicClock.now() >= s.peerCheckDue { s.peerCheckDue = 0 }
                checkPeer(&s)
            } else if !exiting && MonotonicClock.now() >= s.nextAttempt {
                connect(&s)
            }
        }
    }
}
