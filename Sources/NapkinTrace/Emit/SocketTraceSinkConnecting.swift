import Foundation

/// Connecting a ``SocketTraceSink``, and losing its connection: one attempt
/// (resolve, connect, start the part with what the inspector must see
/// first), and what a failure or an inspector that went away does.
extension SocketTraceSink {
    // MARK: - Connecting

    /// One attempt: resolve, connect, and start the part (a resumed session
    /// record and the replay unless the session record itself is still to
    /// be sent), followed by the backlog. On failure, schedules the next
    /// attempt and returns why it failed.
    @discardableResult
    func connect(_ s: inout State) -> String? {
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
        let prefix = resumed ? resumedPrefix(before: backlog.first, s) : []
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

    /// What a resumed part starts with: its session record (the original
    /// `app`, `pid` and `wall`, this part's number, the events lost since the
    /// previous part and the replay's length), then the replay of the live
    /// tree. The record takes the sequence number just below the first record
    /// after it (`firstQueued`, the backlog's first, when the replay is
    /// empty), and that record's time; with nothing after it, the last event
    /// the sink passed on.
    private func resumedPrefix(before firstQueued: TraceEvent?, _ s: State) -> [TraceEvent] {
        let replay = s.tree.replay()
        let next = replay.first ?? firstQueued
        let original = s.session ?? SessionInfo(app: ProcessInfo.processInfo.processName,
                                                 pid: Int(ProcessInfo.processInfo.processIdentifier), wallClock: 0,
                                                 revision: TraceFormat.revision)
        let info = SessionInfo(version: original.version, app: original.app, pid: original.pid, wallClock: original.wallClock,
                               revision: original.revision, part: s.part, lost: s.lostSincePart, replayCount: replay.count)
        var prefix: [TraceEvent] = []
        prefix.reserveCapacity(replay.count + 1)
        prefix.append(TraceEvent(seq: next.map { $0.seq &- 1 } ?? s.lastSeq, time: next?.time ?? s.lastTime,
                                 kind: .sessionStart(info)))
        prefix.append(contentsOf: replay)
        return prefix
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

    /// Why an attempt failed, for a notice.
    private struct AttemptFailure: Error, CustomStringConvertible {
        /// The reason, in a few words.
        var description: String
        /// A failure for `description`.
        init(_ description: String) { self.description = description }
    }

    // MARK: - Losing the connection

    /// Whether the inspector closed its end (it never sends anything, so
    /// anything to read means end of file or an error); if so, the
    /// connection is lost.
    func checkPeer(_ s: inout State) {
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
    func connectionLost(_ reason: String, _ s: inout State) {
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
    func disconnect(_ s: inout State) {
        guard let connection = s.connection else { return }
        exit.withLock { $0.connection = nil }
        connection.close()
        s.connection = nil
        s.fd = -1
        s.peerCheckDue = 0
    }
}
