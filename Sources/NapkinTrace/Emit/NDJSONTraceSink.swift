import Synchronization

/// Writes a trace as NDJSON (trace format v1) to a file descriptor.
///
/// Use ``standardOutput``, ``standardError``, ``init(fileDescriptor:closeWhenDone:)``
/// or ``init(path:)``. Every `write(2)` call carries whole lines only, so a
/// process killed mid-run leaves at most one partial last line, which readers
/// tolerate.
///
/// To a regular file, a batch goes out in as few `write(2)` calls as possible.
/// To anything else (a pipe, a FIFO, a socket, a terminal), every call is at
/// most `PIPE_BUF` bytes (4096 on Linux, 512 on Apple platforms) and ends at
/// a line end: POSIX makes such a write to a pipe atomic, so processes that
/// share one pipe (an inherited `fd:N` or `stdout`) never split each other's
/// records. A record that would be longer than `PIPE_BUF` there has its
/// longest string fields shortened so that it fits; each shortened string ends
/// with `…` (U+2026). Records written to a regular file are never shortened.
/// A ``SocketTraceSink``'s own connection is the exception: nothing else
/// writes to it, so its records may be up to ``socketRecordLimit`` bytes on
/// every platform.
///
/// A reader that goes away makes writes fail with `EPIPE`, never kills the
/// app with `SIGPIPE` (see `Platform.preventSIGPIPE(on:)`).
///
/// A closed pipe, a full disk or a closed descriptor makes ``write(_:)`` throw;
/// the tracer then reports once on standard error and turns tracing off.
public final class NDJSONTraceSink: TraceSink, TracerAwareSink {
    /// The descriptor written to.
    private let fd: Int32
    /// Regular files never block a write and are owned by one process; pipes,
    /// sockets and terminals can block and can be shared.
    private let isRegularFile: Bool
    /// The longest record, newline included, one `write(2)` may carry:
    /// `PIPE_BUF` for anything but a regular file or a connection of our own
    /// (``socketRecordLimit``), unbounded for a regular file.
    private let recordLimit: Int
    /// The most bytes one `write(2)` carries to anything but a regular file:
    /// `PIPE_BUF` where writes must be atomic (a pipe others may share), more
    /// for a connection only this process writes to.
    private let chunkLimit: Int
    /// Whether ``close()`` closes ``fd`` (the sink owns it).
    private let closeWhenDone: Bool
    /// How messages name the destination: the path, or `fd N`.
    private let label: String
    /// The encode buffer, reused for every batch; the mutex guards it and
    /// serialises writes to `fd`.
    private let batch = Locked<Batch>(Batch())

    /// One batch, encoded.
    private struct Batch {
        /// The NDJSON text.
        var bytes: [UInt8] = []
        /// The offset just past each line's newline, in order (the last is `bytes.count`).
        var lineEnds: [Int] = []
        /// Whether ``close()`` ran: the descriptor's number may belong to
        /// another file by now, so it is neither written nor closed again.
        var closed = false
    }

    // MARK: - Making one

    /// A sink writing to the process's standard output.
    public static var standardOutput: NDJSONTraceSink { NDJSONTraceSink(fileDescriptor: 1, closeWhenDone: false) }
    /// A sink writing to the process's standard error.
    public static var standardError: NDJSONTraceSink { NDJSONTraceSink(fileDescriptor: 2, closeWhenDone: false) }

    /// A sink writing to an open file descriptor (a pipe, a socket or a file).
    ///
    /// The descriptor's flags are left as they are (it may be shared with
    /// other processes), except that on Apple platforms a descriptor that is
    /// not a regular file gets `F_SETNOSIGPIPE`, so that a reader that goes
    /// away cannot kill the app (see `Platform.preventSIGPIPE(on:)`, which
    /// says what that means for other writers). `TraceDestination` checks that it is open for writing
    /// before it gets here; this initializer does not, and a descriptor that
    /// is not open makes the first ``write(_:)`` throw.
    ///
    /// - Parameters:
    ///   - fileDescriptor: the descriptor to write to.
    ///   - closeWhenDone: close the descriptor when the session ends.
    public init(fileDescriptor: Int32, closeWhenDone: Bool = false) {
        self.fd = fileDescriptor
        self.isRegularFile = Platform.fileFacts(of: fileDescriptor)?.kind == .regular
        self.recordLimit = isRegularFile ? Int.max : Platform.atomicPipeWriteSize
        self.chunkLimit = recordLimit
        self.closeWhenDone = closeWhenDone
        self.label = "fd \(fileDescriptor)"
        if !isRegularFile { Platform.preventSIGPIPE(on: fileDescriptor) }
    }

    /// The longest record, newline included, sent over a connection only
    /// this process writes to (a ``SocketTraceSink``'s): 16 KiB on every
    /// platform, whatever its `PIPE_BUF` (512 bytes on Apple platforms, 4 KiB
    /// on Linux), since no write to it needs to be atomic.
    ///
    /// Why 16 KiB: longer than any type name or mark meant to be read, so
    /// in practice nothing is shortened; a quarter of the longest line
    /// `napkin-inspect live --listen` reads (64 KiB), so an inspector of
    /// another version still takes every record whole; and small enough
    /// that one 64 KiB write carries at least four records and one event of
    /// a socket sink's backlog holds at most 16 KiB of text.
    package static let socketRecordLimit = 16 << 10

    /// A sink writing to a connected socket that only this process writes
    /// to (a ``SocketTraceSink``'s connection, which it closes): records are
    /// kept within ``socketRecordLimit`` (an inspector reads lines of bounded
    /// length), and one `write(2)` carries up to 64 KiB of whole lines, since
    /// nothing else shares the connection and atomicity is not needed. The
    /// socket was made without `SIGPIPE` (`SO_NOSIGPIPE` on Apple platforms).
    package init(connectedSocket fd: Int32) {
        self.fd = fd
        self.isRegularFile = false
        self.recordLimit = Self.socketRecordLimit
        self.chunkLimit = 64 << 10
        self.closeWhenDone = true
        self.label = "fd \(fd)"
    }

    /// A sink writing to the file at `path`.
    ///
    /// What `path` names decides what happens (a symbolic link is followed,
    /// and every check applies to the file it points to, which is created if
    /// it does not exist):
    ///
    /// | `path` names | what happens |
    /// | --- | --- |
    /// | nothing | a new file is created (mode 0644) |
    /// | an empty regular file, or one that starts with a napkin trace record | it is emptied and the trace replaces it |
    /// | a regular file with anything else in it | refused, the file is left untouched |
    /// | a regular file that cannot be read (no read permission, a read error) | refused, the file is left untouched: napkin only replaces what it could check |
    /// | a FIFO with a reader | the trace goes into it; the writer thread waits for a slow reader, the app never does |
    /// | a FIFO without a reader | refused at once (opening never waits for a reader) |
    /// | a character device (`/dev/null`, `/dev/full`, a terminal) | written to, never read first |
    /// | a directory, a block device, a socket file | refused |
    ///
    /// Opening never waits: everything is opened with `O_NONBLOCK`, which
    /// stays set for FIFOs and devices (the writer thread waits for room with
    /// `poll`) and is cleared for regular files.
    ///
    /// - Throws: ``TraceSinkError`` naming the path, what is wrong and the fix.
    public init(path: String) throws {
        let opened = try NDJSONTraceSink.openDestination(path)
        self.fd = opened.fd
        self.isRegularFile = opened.isRegularFile
        self.recordLimit = isRegularFile ? Int.max : Platform.atomicPipeWriteSize
        self.chunkLimit = recordLimit
        self.closeWhenDone = true
        self.label = path
        // A FIFO or a device: its reader going away must not kill the app.
        if !isRegularFile { Platform.preventSIGPIPE(on: opened.fd) }
    }

    // MARK: - Writing

    /// Encodes and writes `events`; throws if the descriptor rejects the write.
    public func write(_ events: [TraceEvent]) throws {
        try batch.withLock { batch in
            guard !batch.closed else { throw TraceSinkError("cannot write the trace to \(label): the sink was closed") }
            batch.bytes.removeAll(keepingCapacity: true)
            batch.lineEnds.removeAll(keepingCapacity: true)
            // Through a buffer pointer: an unoptimised (debug) build's array
            // iterator allocates for an element this large; this loop does not.
            events.withUnsafeBufferPointer { events in
                for event in events {
                    let start = batch.bytes.count
                    TraceEncoder.append(event, to: &batch.bytes)
                    if batch.bytes.count - start > recordLimit {
                        batch.bytes.removeSubrange(start...)
                        TraceEncoder.append(RecordFitting.fitted(event, limit: recordLimit), to: &batch.bytes)
                    }
                    batch.lineEnds.append(batch.bytes.count)
                }
            }
            if let failure = writeAll(batch) {
                throw TraceSinkError("cannot write the trace to \(label): \(failure)")
            }
        }
    }

    /// Closes the descriptor if the sink owns it. Later calls do nothing, and
    /// a later ``write(_:)`` throws: once closed, the number may be another
    /// file's (a second `close(2)` would close that file under its owner).
    public func close() {
        batch.withLock { batch in
            guard !batch.closed else { return }
            batch.closed = true
            if closeWhenDone { Platform.closeDescriptor(fd) }
        }
    }

    /// Writes all of `batch`; returns a description of the failure, if any.
    ///
    /// The writer thread may wait as long as a slow reader needs (the app's
    /// actors never wait for it), but once the process is exiting a reader
    /// that takes no data for ``exitTimeoutMS`` is treated as gone: the
    /// process must be able to exit even if the other end of a pipe stopped
    /// reading without closing it. So writes to anything but a regular file
    /// wait for room with `poll` in short slices, and each carries as many
    /// whole lines as fit in `PIPE_BUF` bytes (atomic on a pipe, and on a
    /// pipe, once `poll` reports room, it does not block). Regular files are
    /// written directly, the whole batch at once.
    private func writeAll(_ batch: Batch) -> String? {
        Platform.withBrokenPipeIgnored {
            batch.bytes.withUnsafeBytes { raw -> String? in
                var offset = 0
                /// The index in `lineEnds` of the first line end after `offset`.
                var line = 0
                /// When the destination last stopped taking data (0: it is taking data).
                var stalledSince: UInt64 = 0
                func givesUp() -> Bool {
                    let now = MonotonicClock.now()
                    if stalledSince == 0 { stalledSince = now }
                    return exiting.load(ordering: .relaxed)
                        && now &- stalledSince >= UInt64(NDJSONTraceSink.exitTimeoutMS) * 1_000_000
                }
                func stalledMessage() -> String {
                    "the reader took no data for \((MonotonicClock.now() &- stalledSince) / 1_000_000_000) s while the process exits"
                }
                while offset < raw.count {
                    var end = raw.count
                    if !isRegularFile {
                        switch Platform.waitUntilWritable(fd, timeoutMS: 100) {
                        case .interrupted:
                            continue
                        case .timedOut:
                            if givesUp() { return stalledMessage() }
                            continue
                        case .ready, .failed:
                            break   // room, or a failed poll: the write below says which
                        }
                        end = NDJSONTraceSink.chunkEnd(from: offset, lineEnds: batch.lineEnds, line: &line,
                                                       limit: chunkLimit)
                    }
                    switch Platform.writeSome(fd, from: raw.baseAddress! + offset, count: end - offset) {
                    case .bytes(let n):
                        offset += n
                        stalledSince = 0
                    case .interrupted:
                        continue
                    case .wouldBlock:
                        // Not enough room for the whole chunk (a non-blocking
                        // descriptor writes a pipe chunk whole or not at all).
                        if givesUp() { return stalledMessage() }
                        if isRegularFile {
                            Platform.waitUntilWritable(fd, timeoutMS: 100)
                        } else {
                            Platform.sleep(microseconds: 1_000)
                        }
                    case .failed(let error):
                        return error.description
                    case .nothing:
                        return "the descriptor accepted no bytes"
                    }
                }
                return nil
            }
        }
    }

    /// Where the next write starting at `offset` ends: after as many whole
    /// lines as fit in `limit` bytes, and after at least the line `offset` is
    /// in (every line fits, see ``RecordFitting``). `line` is the index of the
    /// first line end after `offset`; it only moves forward.
    static func chunkEnd(from offset: Int, lineEnds: [Int], line: inout Int, limit: Int) -> Int {
        while line < lineEnds.count && lineEnds[line] <= offset { line += 1 }
        guard line < lineEnds.count else { return offset }
        var end = lineEnds[line]
        var next = line + 1
        while next < lineEnds.count && lineEnds[next] - offset <= limit {
            end = lineEnds[next]
            next += 1
        }
        return end
    }

    // MARK: - Exiting

    /// How long a reader may take no data once the process exits.
    static let exitTimeoutMS: Int32 = 2_000
    /// Set by ``processWillExit()``: writes stop waiting for a stalled reader.
    private let exiting = Atomic<Bool>(false)

    /// Tells the sink the process is exiting (see ``writeAll(_:)``): from now
    /// on a reader that takes no data for ``exitTimeoutMS`` is treated as gone.
    package func processWillExit() {
        exiting.store(true, ordering: .relaxed)
    }
}
