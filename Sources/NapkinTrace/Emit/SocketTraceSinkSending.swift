/// Sending through a ``SocketTraceSink``: every event leaves the sink once,
/// delivered or lost, and the live tree follows it; and the few lines the
/// sink writes to standard error.
extension SocketTraceSink {
    // MARK: - Sending

    /// Writes `prefix` (a resumed session record and the replay: records that
    /// are not new) and `events` over the connection. Every event leaves the
    /// sink: delivered, or, when the write fails, lost (and the connection with it).
    func send(prefix: [TraceEvent], events: [TraceEvent], _ s: inout State) {
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
        } else {
            // One look at the peer a moment after a write: an inspector that
            // hung up as the batch went out is noticed even if no event follows.
            s.peerCheckDue = MonotonicClock.now() &+ settings.firstBackoffMS &* 1_000_000
        }
    }

    /// Keeps `event` for the next connection; the oldest events that no longer fit are lost.
    func keep(_ event: TraceEvent, _ s: inout State) {
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

    /// Counts `count` events as lost, since the part began and over the session (saturating).
    private func lose(_ count: UInt64, _ s: inout State) {
        guard count > 0 else { return }
        s.lostSincePart = s.lostSincePart.addingReportingOverflow(count).overflow ? .max : s.lostSincePart + count
        s.totalLost = s.totalLost.addingReportingOverflow(count).overflow ? .max : s.totalLost + count
    }

    // MARK: - Notices

    /// One line on standard error, while the budget lasts. A line that says
    /// the inspector is not there (`troubled`) has the next connection announced.
    func notice(_ message: String, troubled: Bool = true, _ s: inout State) {
        guard s.noticesLeft > 0 else { return }
        s.noticesLeft -= 1
        if troubled { s.announceNextConnection = true }
        DeveloperNotice.report(s.noticesLeft == 0 ? message + " (napkin says no more about this connection)" : message)
    }

    /// `Connection refused` → `connection refused`, for a message.
    static func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, first.isUppercase else { return text }
        // Only when the second letter is lower case: "EOF" stays as it is.
        if let second = text.dropFirst().first, second.isUppercase { return text }
        return first.lowercased() + text.dropFirst()
    }
}
