/// Where a traced app's events go.
///
/// The tracer calls a sink from its background writer thread only (or from the
/// thread that calls ``NapkinTrace/flush()`` or exits the process), one call at
/// a time, with events in sequence order. A sink may block on I/O: the app's
/// actors never wait for it; when the sink falls behind, the tracer's bounded
/// queue fills and further events are dropped and counted instead.
///
/// A sink that throws is reported once on standard error and tracing turns
/// itself off for the rest of the process.
public protocol TraceSink: Sendable {
    /// Writes a batch of events, oldest first.
    func write(_ events: [TraceEvent]) throws
    /// Writes anything still buffered and releases the sink's resources.
    /// Called once, when the session ends.
    func close()
}

/// The error a sink throws when it cannot write.
public struct TraceSinkError: Error, CustomStringConvertible, Sendable {
    /// What failed, in words a developer can act on.
    public var description: String

    /// Creates an error with the given description.
    public init(_ description: String) {
        self.description = description
    }
}
