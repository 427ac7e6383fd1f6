/// What the C library's reads, writes and waits report, as values (see
/// ``Platform``): no errno to read, every case a switch must handle.
extension Platform {
    /// What one `read(2)` or `write(2)` call did.
    package enum Transfer: Equatable, Sendable {
        /// This many bytes (more than zero) were moved.
        case bytes(Int)
        /// Zero bytes: the end of the file for a read; for a write, the
        /// descriptor accepted nothing.
        case nothing
        /// A signal interrupted the call before it moved anything (`EINTR`); try again.
        case interrupted
        /// The descriptor is non-blocking and not ready (`EAGAIN`); wait and try again.
        case wouldBlock
        /// The call failed.
        case failed(SystemError)
    }

    /// What a wait for a descriptor (`poll(2)`) ended with.
    package enum PollOutcome: Equatable, Sendable {
        /// The descriptor is ready (or has an error or hang-up to report).
        case ready
        /// The timeout passed first.
        case timedOut
        /// A signal interrupted the wait (`EINTR`).
        case interrupted
        /// The wait failed.
        case failed(SystemError)
    }
}
