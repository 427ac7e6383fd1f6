import NapkinTrace

/// What every report says about a trace before its details: the file, the
/// app that wrote it, how many events it has and whether it is complete.
/// `check` and `stats` both show it; in JSON its fields sit at the top level
/// of the trace's object (`path`, `app`, `pid`, `events`, `ended_cleanly`,
/// `dropped_events`, `duration_ns`).
struct TraceOverview: Encodable {
    /// The file as given (or the process, for a trace of `check -- COMMAND`).
    var path: String
    /// The session record, if the trace has one.
    var session: SessionInfo?
    /// Valid events read.
    var events: Int
    /// Whether the session-end record is present.
    var endedCleanly: Bool
    /// Events the app dropped (the trace is incomplete); saturates at 2^64 - 1.
    var droppedEvents: UInt64
    /// Trace time of the last event.
    var durationNs: UInt64

    /// The overview of the trace at `path`, read to its end into `state`.
    init(path: String, reading summary: TraceInput.Summary, state: TraceState) {
        self.path = path
        session = state.session
        events = summary.events
        endedCleanly = state.ended
        droppedEvents = state.droppedEvents
        durationNs = state.time
    }

    /// The overview of a file that could not be read as a trace: no session, no events.
    init(unreadable path: String) {
        self.path = path
        events = 0
        endedCleanly = false
        droppedEvents = 0
        durationNs = 0
    }

    private enum CodingKeys: String, CodingKey {
        case path, app, pid, events, endedCleanly, droppedEvents, durationNs
    }

    /// Writes the fields into the encoder's object (the caller adds its own beside them).
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(path, forKey: .path)
        try container.encodeIfPresent(session?.app, forKey: .app)
        try container.encodeIfPresent(session?.pid, forKey: .pid)
        try container.encode(events, forKey: .events)
        try container.encode(endedCleanly, forKey: .endedCleanly)
        try container.encode(droppedEvents, forKey: .droppedEvents)
        try container.encode(durationNs, forKey: .durationNs)
    }
}
