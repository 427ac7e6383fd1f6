import Synchronization

/// Writes a trace as NDJSON (trace format v1) to a file descriptor.
///
/// Use ``standardOutput``, ``standardError``, ``init(fileDescriptor:closeWhenDone:)``
/// or ``init(path:)``. Each batch is written with as few `write(2)` calls as
/// possible and only whole lines, so a process killed mid-run leaves at most
/// one partial last line, which readers tolerate.
///
/// A closed pipe, a full disk or a closed descriptor makes ``write(_:)`` throw;
/// the tracer then reports once on standard error and turns tracing off.
public final class NDJSONTraceSink: TraceSink {
    private let fd: Int32
    /// Regular files never block a write; pipes, sockets and terminals can.
    private let isRegularFile: Bool
    private let closeWhenDone: Bool
    private let label: String
    /// The encode buffer, reused for every batch; the mutex guards it and
    /// serialises writes to `fd`.
    private let buffer = Locked<[UInt8]>([])

    /// A sink writing to the process's standard output.
    public static var standardOutput: NDJSONTraceSink { NDJSONTraceSink(fileDescriptor: 1, closeWhenDone: false) }
    /// A sink writing to the process's standard error.
    public static var standardError: NDJSONTraceSink { NDJSONTraceSink(fileDescriptor: 2, closeWhenDone: false) }

    /// A sink writing to an open file descriptor (a pipe, a socket or a file).
    ///
    /// - Parameters:
    ///   - fileDescriptor: the descriptor to write to.
    ///   - closeWhenDone: close the descriptor when the session ends.
    public init(fileDescriptor: Int32, closeWhenDone: Bool = false) {
        self.fd = fileDescriptor
        self.isRegularFile = NDJSONTraceSink.isRegularFile(fileDescriptor)
        self.closeWhenDone = closeWhenDone
        self.label = "fd \(fileDescriptor)"
    }

    /// A sink writing to a new file at `path`.
    ///
    /// An existing napkin trace at `path` is replaced; any other non-empty file
    /// is left untouched and the initializer throws, so a mistyped path never
    /// destroys a user's file.
    public init(path: String) throws {
        if let existing = NDJSONTraceSink.firstBytes(of: path, count: 8), !existing.isEmpty,
           !existing.starts(with: Array(#"{"seq":"#.utf8)) {
            throw TraceSinkError("\(path) exists and is not a napkin trace; not overwriting it (choose another path)")
        }
        let fd: Int32
        do {
            fd = try Platform.openForWriting(path)
        } catch {
            throw TraceSinkError("cannot open \(path) for writing: \(error)")
        }
        self.fd = fd
        self.isRegularFile = NDJSONTraceSink.isRegularFile(fd)
        self.closeWhenDone = true
        self.label = path
    }

    /// Encodes and writes `events`; throws if the descriptor rejects the write.
    public func write(_ events: [TraceEvent]) throws {
        try buffer.withLock { bytes in
            bytes.removeAll(keepingCapacity: true)
            for event in events { TraceEncoder.append(event, to: &bytes) }
            if let failure = writeAll(bytes) {
                throw TraceSinkError("cannot write the trace to \(label): \(failure)")
            }
        }
    }

    /// Closes the descriptor if the sink owns it.
    public func close() {
        buffer.withLock { _ in
            if closeWhenDone { Platform.closeDescriptor(fd) }
        }
    }

    /// Writes all of `bytes`; returns a description of the failure, if any.
    ///
    /// The writer thread may wait as long as a slow reader needs (the app's
    /// actors never wait for it), but once the process is exiting a reader
    /// that takes no data for ``exitTimeoutMS`` is treated as gone: the
    /// process must be able to exit even if the other end of a pipe stopped
    /// reading without closing it. So writes to pipes and sockets wait for
    /// room with `poll` in short slices and write at most `PIPE_BUF` bytes at
    /// a time (which then cannot block); regular files are written directly.
    private func writeAll(_ bytes: [UInt8]) -> String? {
        Platform.withBrokenPipeIgnored {
            bytes.withUnsafeBytes { raw -> String? in
                var offset = 0
                var stalledMS: Int32 = 0
                while offset < raw.count {
                    var chunk = raw.count - offset
                    if !isRegularFile {
                        switch Platform.waitUntilWritable(fd, timeoutMS: 100) {
                        case .interrupted:
                            continue
                        case .timedOut:
                            stalledMS += 100
                            if exiting.load(ordering: .relaxed) && stalledMS >= NDJSONTraceSink.exitTimeoutMS {
                                return "the reader took no data for \(stalledMS / 1000) s while the process exits"
                            }
                            continue
                        case .ready, .failed:
                            break   // room, or a failed poll: the write below says which
                        }
                        stalledMS = 0
                        chunk = min(chunk, Platform.atomicPipeWriteSize)
                    }
                    switch Platform.writeSome(fd, from: raw.baseAddress! + offset, count: chunk) {
                    case .bytes(let n):
                        offset += n
                    case .interrupted:
                        continue
                    case .wouldBlock:
                        Platform.waitUntilWritable(fd, timeoutMS: 100)
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

    private static func isRegularFile(_ fd: Int32) -> Bool {
        Platform.fileFacts(of: fd)?.isRegularFile ?? false
    }

    /// How long a reader may take no data once the process exits.
    static let exitTimeoutMS: Int32 = 2_000
    private let exiting = Atomic<Bool>(false)

    /// Tells the sink the process is exiting (see ``writeAll(_:)``).
    package func processWillExit() {
        exiting.store(true, ordering: .relaxed)
    }

    /// The first bytes of the regular file at `path`; `nil` for anything else.
    /// Devices, FIFOs and sockets are never read: reading a FIFO or a terminal
    /// would block the app, and /dev/full would read as a non-trace file.
    private static func firstBytes(of path: String, count: Int) -> [UInt8]? {
        guard let fd = try? Platform.openForReading(path, nonBlocking: true) else { return nil }
        defer { Platform.closeDescriptor(fd) }
        guard isRegularFile(fd) else { return nil }
        var bytes = [UInt8](repeating: 0, count: count)
        switch bytes.withUnsafeMutableBytes({ Platform.readSome(fd, into: $0.baseAddress!, count: count) }) {
        case .bytes(let n): return Array(bytes.prefix(n))
        case .nothing: return []
        case .interrupted, .wouldBlock, .failed: return nil
        }
    }
}
