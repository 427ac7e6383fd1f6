extension NapkinTrace {
    /// Whether the whole process is traced (`NAPKIN_TRACE`, or
    /// ``bootstrap(_:bufferCapacity:)``): for example under
    /// `napkin-inspect check -- swift test`.
    public static var isTracingProcess: Bool {
        TraceContext.globalTracer != nil
    }

    /// The sequence number of the process trace's last event (0 when the
    /// process is not traced): it moves whenever the app does something
    /// napkin traces, so a waiter can tell a quiet app from a busy one.
    package static var processSequenceNumber: UInt64 {
        TraceContext.globalTracer?.sequenceNumber ?? 0
    }

    /// The prefix of the mark that says a test started (`test started: NAME`).
    public static let testStartedPrefix = "test started: "
    /// The prefix of the mark that says a test ended (`test ended: NAME`).
    public static let testEndedPrefix = "test ended: "

    /// Marks in the trace that the test `name` starts, so that
    /// `napkin-inspect check` names the test each finding happened in (the
    /// `NapkinTesting` trait calls it). Costs one atomic load when tracing is off.
    public static func testStarted(_ name: String) {
        mark(testStartedPrefix + name)
    }

    /// Marks in the trace that the test `name` ended (see ``testStarted(_:)``).
    public static func testEnded(_ name: String) {
        mark(testEndedPrefix + name)
    }
}
