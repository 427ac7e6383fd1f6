/// A sink the tracer tells more than ``TraceSink`` asks for: that the
/// process is exiting, and that a flush interval passed with nothing to write.
///
/// ``NDJSONTraceSink`` needs the first (a reader that stopped taking data
/// must not hold up the exit); ``SocketTraceSink`` needs both (it forwards
/// the exit to its connection, and reconnects while the app is quiet).
package protocol TracerAwareSink: TraceSink {
    /// The process is exiting (called from the `atexit` handler, before the
    /// final drain, on the exiting thread): from now on a destination that
    /// takes no data for ``NDJSONTraceSink/exitTimeoutMS`` is given up. Must
    /// not wait for the writer thread.
    func processWillExit()

    /// A flush interval passed with no event to write. Called by the tracer,
    /// like ``TraceSink/write(_:)``, one call at a time, on its writer thread
    /// (or the thread that calls ``NapkinTrace/flush()``).
    func writerIsIdle()

    /// Whether ``writerIsIdle()`` has work to do while no event comes
    /// (reconnecting, noticing a peer that left): the writer thread then
    /// keeps waking every flush interval; otherwise it sleeps until an event
    /// is emitted. Read on the writer thread, between two waits.
    var needsIdleCalls: Bool { get }
}

extension TracerAwareSink {
    /// Nothing to do by default.
    package func writerIsIdle() {}

    /// No idle work by default: the writer may sleep until an event comes.
    package var needsIdleCalls: Bool { false }
}
