import Foundation

/// Sends a trace to an inspector over a socket: what `NAPKIN_TRACE=tcp:HOST:PORT`
/// and `NAPKIN_TRACE=unix:PATH` ask for (`napkin-inspect live --listen` is
/// the other end).
///
/// It keeps the promises of the other sinks (the app never waits for I/O;
/// when the destination falls behind, the tracer's bounded queue drops and
/// counts; trouble is one line on standard error, see ``DeveloperNotice``),
/// and adds what a network peer needs:
///
/// - **Creating it does no I/O** and no name lookup (it runs on the app
///   thread that creates the first router). Every connection attempt
///   happens in ``write(_:)``, ``writerIsIdle()`` or ``close()``, which the
///   tracer calls on its background writer thread (or at exit): the host
///   name is resolved there, and each address is given
///   ``Settings/connectTimeoutMS`` to accept.
/// - **No inspector is not an error.** When an attempt fails, the sink
///   tries again after a backoff (``Settings/firstBackoffMS``, doubling up
///   to ``Settings/maxBackoffMS``), and only once that time has passed,
///   whether or not the app emits anything (the tracer calls
///   ``writerIsIdle()`` every quiet flush interval). Meanwhile events wait
///   in a bounded backlog (``Settings/backlogCapacity`` events and
///   ``Settings/backlogBytes`` bytes of memory), so an app started a moment
///   before its inspector loses nothing; when the backlog is full the oldest
///   events are discarded and counted as lost.
/// - **A lost connection is not an error either.** A write that fails, or an
///   inspector that closed its end (checked before every batch and every
///   quiet interval), closes the connection; the batch counts as lost, the
///   sink never throws (which would turn tracing off for good), and it
///   reconnects as above.
/// - **Every gap is marked.** The first connection carries the session from
///   its session record on (part 1). A later connection, or a first one
///   after events had to be discarded, starts with a *resumed* session
///   record: the original `app`, `pid` and `wall` (the link to the earlier
///   part), `part` (2, 3, ...), `lost` (events not delivered since the
///   previous part) and `replay` (how many records follow as the replay).
///   Then come the *replay* (``LiveTreeRecords``: the original records, with
///   their original `seq` and `t`, of every router, interactor and task
///   alive now), the backlog, and new events. So an inspector restarted
///   mid-run, or started after the app, sees the whole current tree.
///   The resumed record takes the sequence number just below the first
///   record after it, and that record's time (when nothing follows yet: the
///   last event the sink passed on), so that within the new part sequence
///   numbers increase and time never goes backwards.
/// - **Exit never hangs.** At ``close()`` (after the tracer's final drain),
///   a sink that is not connected makes one more attempt, whatever the
///   backoff says, and sends what it holds; every write of the final
///   stretch gives up on an inspector that takes no data for
///   ``NDJSONTraceSink/exitTimeoutMS``.
///
/// While connected, the sink writes through an ``NDJSONTraceSink`` on the
/// socket: whole lines, up to 64 KiB per write, records longer than
/// ``NDJSONTraceSink/socketRecordLimit`` (16 KiB on every platform, not
/// `PIPE_BUF`: nothing else writes to the connection) shortened.
///
/// On standard error it writes at most ``maxNotices`` lines per process:
/// when the first attempt fails, when a connection is lost, and when a
/// connection is made after one of those (with its part and lost count);
/// never one per retry.
///
/// A batch the kernel took just before the inspector went away can be lost
/// without the sink noticing (the socket accepted it); the next part's
/// replay still gives the inspector the whole tree, only `lost` is short.
///
/// Calls that connect may wait: ``NapkinTrace/flush()`` and
/// ``NapkinTrace/shutdown()``, called by the app, may make one attempt on
/// the calling thread.
package final class SocketTraceSink: TracerAwareSink {
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

    /// The most lines the sink writes to standard error in a process.
    package static let maxNotices = 6

    /// Where the inspector listens.
    package let address: TraceSocketAddress
    /// The settings in use.
    package let settings: Settings
    /// Everything the writer thread works with; held for a whole write.
    private let state: Locked<State>
    /// The open connection and whether the process is exiting, behind a lock
    /// of their own that is never held for I/O: the exit handler reaches the
    /// connection through it without waiting for a write in progress.
    private let exit = Locked<ExitState>(ExitState())

    private struct ExitState {
        var connection: NDJSONTraceSink?
        var exiting = false
    }

    private struct State {
        var connection: NDJSONTraceSink?
        /// The socket under `connection` (owned by it).
        var fd: Int32 = -1
        var backlog: EventBacklog
        var tree = LiveTreeRecords()
        /// The session record the tracer wrote first (the resumed ones copy it).
        var session: SessionInfo?
        /// The session record has not left the sink yet: the next connection starts part 1 with it.
        var sessionRecordPending = true
        /// The last event that left the sink (delivered or lost).
        var lastSeq: UInt64 = 0
        var lastTime: UInt64 = 0
        var part = 0
        var connections = 0
        var attempts = 0
        /// Events lost since the current part began (or, while not connected, since the last one began).
        var lostSincePart: UInt64 = 0
        var totalLost: UInt64 = 0
        /// When the next attempt may be made (monotonic ns; 0: now).
        var nextAttempt: UInt64 = 0
        var backoffMS: UInt64
        var noticesLeft = SocketTraceSink.maxNotices
        var saidUnreachable = false
        /// A notice said the inspector is not there: the next connection is announced.
        var announceNextConnection = false
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

    /// A quiet interval: notices an inspector that went away, and connects
    /// (sending the replay and the backlog) when an attempt is due.
    package func writerIsIdle() {
        let exiting = exit.withLock { $0.exiting }
        state.withLock { s in
            guard !s.closed else { return }
            if s.connection != nil {
                checkPeer(&s)
            } else if !exiting && MonotonicClock.now() >= s.nextAttempt {
                connect(&s)
            }
        }
    }

    // MARK: - Connecting

    /// One attempt: resolve, connect, and start the part (a resumed session
    /// record and the replay unless the session record itself is still to
    /// be sent), followed by the backlog. On failure, schedules the next
    /// attempt and returns why it failed.
    @discardableResult
    private func connect(_ s: inout State) -> String? {
        s.attempts += 1
        let fd: Int32
        switch open() {
        case .success(let connected):
            fd = connected
        case .failure(let reason):
            s.nextAttempt = MonotonicClock.now() &+ s.backoffMS &* 1_000_000
            s.backoffMS = min(s.backoffMS &* 2, settings.maxBackoffMS)
            if !s.saidUnreachable && !s.closed {
                s.saidUnreachable = true
                notice("napkin: no trace inspector at \(address) (\(reason)); the app goes on and retries in the background", &s)
            }
            return reason.description
        }
        let connection = NDJSONTraceSink(connectedSocket: fd)
        let closing = s.closed
        exit.withLock { e in
            e.connection = connection
            if e.exiting || closing { connection.processWillExit() }
        }
        s.connection = connection
        s.fd = fd
        s.connections += 1
        s.backoffMS = settings.firstBackoffMS
        s.nextAttempt = 0
        let resumed = !s.sessionRecordPending
        s.part = resumed ? max(s.part, 1) + 1 : 1
        let backlog = s.backlog.removeAll()
        var prefix: [TraceEvent] = []
        if resumed {
            let replay = s.tree.replay()
            let next = replay.first ?? backlog.first
            let original = s.session ?? SessionInfo(app: ProcessInfo.processInfo.processName,
                                                     pid: Int(ProcessInfo.processInfo.processIdentifier), wallClock: 0,
                                                     revision: TraceFormat.revision)
            let info = SessionInfo(version: original.version, app: original.app, pid: original.pid, wallClock: original.wallClock,
                                   revision: original.revision, part: s.part, lost: s.lostSincePart, replayCount: replay.count)
            prefix.reserveCapacity(replay.count + 1)
            prefix.append(TraceEvent(seq: next.map { $0.seq &- 1 } ?? s.lastSeq, time: next?.time ?? s.lastTime,
                                     kind: .sessionStart(info)))
            prefix.append(contentsOf: replay)
        }
        if s.announceNextConnection {
            s.announceNextConnection = false
            let lost = s.lostSincePart
            let what = resumed ? "part \(s.part), \(lost) event\(lost == 1 ? "" : "s") lost" : "the trace from its start"
            notice("napkin: trace inspector connected at \(address): \(what)", troubled: false, &s)
        }
        s.lostSincePart = 0
        send(prefix: prefix, events: backlog, &s)
        return nil
    }

    /// A connected socket to the first address that takes the connection, or why none did.
    private func open() -> Result<Int32, AttemptFailure> {
        let addresses: [Platform.SocketAddress]
        do {
            addresses = try address.resolved()
        } catch {
            return .failure(AttemptFailure(error.description))
        }
        var reason = "no address"
        for candidate in addresses {
            do {
                return .success(try Platform.connect(to: candidate, timeoutMS: settings.connectTimeoutMS))
            } catch {
                reason = Self.lowercasedFirst(error.description)
            }
        }
        return .failure(AttemptFailure(reason))
    }

    private struct AttemptFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    // MARK: - Sending

    /// Writes `prefix` (a resumed session record and the replay: records that
    /// are not new) and `events` over the connection. Every event leaves the
    /// sink: delivered, or, when the write fails, lost (and the connection with it).
    private func send(prefix: [TraceEvent], events: [TraceEvent], _ s: inout State) {
        guard let connection = s.connection else {
            for event in events { keep(event, &s) }
            return
        }
        if prefix.isEmpty && events.isEmpty { return }
        var failure: Error?
        do {
            try connection.write(prefix.isEmpty ? events : prefix + events)
        } catch {
            failure = error
        }
        for event in events { pass(event, &s) }
        if let failure {
            lose(UInt64(events.count), &s)
            connectionLost("\(failure)", &s)
        }
    }

    /// Keeps `event` for the next connection; the oldest events that no longer fit are lost.
    private func keep(_ event: TraceEvent, _ s: inout State) {
        var evicted: [TraceEvent] = []
        s.backlog.append(event) { evicted.append($0) }
        for old in evicted { pass(old, &s) }
        lose(UInt64(evicted.count), &s)
    }

    /// `event` leaves the sink (delivered or lost): the live tree follows it.
    private func pass(_ event: TraceEvent, _ s: inout State) {
        if s.sessionRecordPending, case .sessionStart = event.kind { s.sessionRecordPending = false }
        s.tree.apply(event)
        s.lastSeq = event.seq
        s.lastTime = event.time
    }

    private func lose(_ count: UInt64, _ s: inout State) {
        guard count > 0 else { return }
        s.lostSincePart = s.lostSincePart.addingReportingOverflow(count).overflow ? .max : s.lostSincePart + count
        s.totalLost = s.totalLost.addingReportingOverflow(count).overflow ? .max : s.totalLost + count
    }

    // MARK: - Losing the connection

    /// Whether the inspector closed its end (it never sends anything, so
    /// anything to read means end of file or an error); if so, the
    /// connection is lost.
    private func checkPeer(_ s: inout State) {
        guard s.connection != nil, s.fd >= 0 else { return }
        guard Platform.waitUntilReadable(s.fd, timeoutMS: 0) == .ready else { return }
        var scratch = [UInt8](repeating: 0, count: 512)
        let transfer = scratch.withUnsafeMutableBytes { Platform.readSome(s.fd, into: $0.baseAddress!, count: $0.count) }
        switch transfer {
        case .nothing:
            connectionLost("the inspector closed the connection", &s)
        case .failed(let error):
            connectionLost(Self.lowercasedFirst(error.description), &s)
        case .bytes, .interrupted, .wouldBlock:
            break   // bytes an inspector should not send are ignored; the connection stands
        }
    }

    /// Closes the connection after a failure; the next attempt comes after the first backoff.
    private func connectionLost(_ reason: String, _ s: inout State) {
        disconnect(&s)
        s.backoffMS = settings.firstBackoffMS
        s.nextAttempt = MonotonicClock.now() &+ settings.firstBackoffMS &* 1_000_000
        guard !s.closed else { return }
        // The retries that follow say nothing more until one connects.
        s.saidUnreachable = true
        notice("napkin: the trace inspector at \(address) went away (\(reason)); "
               + "the app goes on, keeps the latest events and reconnects in the background", &s)
    }

    /// Closes the connection, if any.
    private func disconnect(_ s: inout State) {
        guard let connection = s.connection else { return }
        exit.withLock { $0.connection = nil }
        connection.close()
        s.connection = nil
        s.fd = -1
    }

    // MARK: - Notices

    /// One line on standard error, while the budget lasts. A line that says
    /// the inspector is not there (`troubled`) has the next connection announced.
    private func notice(_ message: String, troubled: Bool = true, _ s: inout State) {
        guard s.noticesLeft > 0 else { return }
        s.noticesLeft -= 1
        if troubled { s.announceNextConnection = true }
        DeveloperNotice.report(s.noticesLeft == 0 ? message + " (napkin says no more about this connection)" : message)
    }

    /// `Connection refused` → `connection refused`, for a message.
    private static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase else { return text }
        // Only when the second letter is lower case: "EOF" stays as it is.
        if let second = text.dropFirst().first, second.isUppercase { return text }
        return first.lowercased() + text.dropFirst()
    }
}
