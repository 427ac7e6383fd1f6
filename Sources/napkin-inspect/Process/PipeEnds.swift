/// A pipe from a child process to us: the read end stays ours (and is closed
/// in any program we start), the write end is handed to the child.
struct PipeEnds {
    /// Our end.
    let readEnd: Int32
    /// The child's end.
    let writeEnd: Int32

    /// Opens a pipe; nil when the system has no descriptors to spare.
    init?() {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { return nil }
        _ = fcntl(fds[0], F_SETFD, FD_CLOEXEC)
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Closes both ends (when the child could not be started).
    func closeBoth() {
        close(readEnd)
        close(writeEnd)
    }
}
