/// A sink the tracer tells more than ``TraceSink`` asks for: that the
/// process is exiting, and that a flush interval passed with nothing to write.
///
/// ``NDJSONTraceSink`` needs the first (a reader that stopped taking data
/// must not hold up the exit); ``SocketTraceSink`` needs both (it forwards
/// the exit to its connection, and retries a connection while the app is quiet).
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

    /// When ``writerIsIdle()`` next has work to do while no event comes
    /// (a reconnection attempt), on ``MonotonicClock``: the writer thread,
    /// asleep, wakes then (or at the next event, whichever comes first) and
    /// makes the call. `nil`: no work until an event comes, the writer sleeps
    /// until then. Read on the writer thread, between two waits; a time
    /// already past is called at once, so it must move on after the call.
    var idleCallDue: UInt64? { get }
}

extension TracerAwareSink {
    /// Nothing to do by default.
    package func writerIsIdle() {}

    /// No idle work by default: the writer may sleep until an event comes.
    package var idleCallDue: UInt64? { nil }
}
