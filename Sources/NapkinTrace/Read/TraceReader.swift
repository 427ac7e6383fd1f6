#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Reads a trace line by line from a file, a pipe or a growing file.
///
/// Memory does not depend on the trace's length: one fixed buffer holds the
/// current chunk, and a line longer than ``Options/maxLineLength`` is skipped
/// with a diagnostic. Blank lines and CRLF endings are accepted; unknown event
/// kinds and unknown fields are skipped and counted (forward compatibility);
/// a malformed line yields a diagnostic with its number and reading goes on;
/// a truncated last line (the writer stopped mid-line) yields a warning.
///
/// ```swift
/// let reader = try TraceReader(path: "run.ndjson")
/// while let item = reader.next() {
///     switch item {
///     case .event(let event): model.apply(event)
///     case .diagnostic(let d): print(d)
///     }
/// }
/// ```
public final class TraceReader {
    /// How the reader behaves at the end of its input.
    public struct Options: Sendable {
        /// Keep waiting for more data at the end of a file, like `tail -F`
        /// (surviving truncation and replacement of the file).
        public var follow: Bool
        /// Lines longer than this many bytes are skipped with a diagnostic.
        public var maxLineLength: Int
        /// How long to wait between checks for new data when following.
        public var pollInterval: Duration

        /// Creates options.
        public init(follow: Bool = false, maxLineLength: Int = 1 << 20, pollInterval: Duration = .milliseconds(50)) {
            self.follow = follow
            self.maxLineLength = max(64, maxLineLength)
            self.pollInterval = pollInterval
        }
    }

    /// One thing read from the trace.
    public enum Item: Sendable, Equatable {
        /// A valid event.
        case event(TraceEvent)
        /// A problem with the input (the line is skipped).
        case diagnostic(TraceDiagnostic)
    }

    /// The name used in messages (the path, or `-` for standard input).
    public let source: String
    /// Bytes consumed so far.
    public var byteCount: Int { core.byteCount }
    /// Lines seen so far (including blank and bad ones).
    public var lineCount: Int { core.lineCount }
    /// Valid events returned so far.
    public var eventCount: Int { core.eventCount }
    /// Records of unknown kinds, by `ev` value.
    public var unknownKinds: [String: Int] { core.unknownKinds }
    /// Fields this reader did not recognise on records it did.
    public var unknownFieldCount: Int { core.parser.unknownFieldCount }
    /// Lines that could not be used.
    public var invalidLineCount: Int { core.invalidLineCount }
    /// Whether the input ended in the middle of a line.
    public var endedMidLine: Bool { core.endedMidLine }
    /// Set when the input is not a napkin trace at all (its first record is
    /// not a valid trace record); reading stops.
    public var rejection: TraceReadError? { core.rejection }

    /// All mutable reading state lives in one struct, so the hot loop works on
    /// `inout self` (no per-field exclusivity checks on the class).
    private var core: Core
    private let stopSignal: StopSignal

    /// Opens `path` for reading; `-` reads standard input.
    public convenience init(path: String, options: Options = Options()) throws {
        if path == "-" {
            self.init(fileDescriptor: 0, source: "-", options: options)
            return
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            let reason = code == ENOENT ? "no such file (check the path)" :
                code == EACCES ? "permission denied" : TraceDiagnostics.describe(errno: code)
            throw TraceReadError(source: path, message: "cannot open: \(reason)")
        }
        var st = stat()
        if fstat(fd, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR {
            close(fd)
            throw TraceReadError(source: path, message: "is a directory, not a trace file (give the .ndjson file inside it)")
        }
        self.init(descriptor: fd, source: path, path: path, owns: true, options: options)
    }

    /// Reads from an open descriptor (not closed by the reader).
    public convenience init(fileDescriptor: Int32, source: String, options: Options = Options()) {
        self.init(descriptor: fileDescriptor, source: source, path: nil, owns: false, options: options)
    }

    private init(descriptor: Int32, source: String, path: String?, owns: Bool, options: Options) {
        self.source = source
        let stop = StopSignal()
        self.stopSignal = stop
        self.core = Core(fd: descriptor, source: source, path: path, owns: owns, options: options, stop: stop)
    }

    deinit {
        core.release()
    }

    /// Makes a reader that is waiting for data (following) return `nil` soon.
    /// Safe to call from another thread.
    public func stop() {
        stopSignal.flag.store(true, ordering: .relaxed)
    }

    /// The next event or diagnostic, or `nil` at the end of the input.
    public func next() -> Item? {
        core.next()
    }

    /// Reads every remaining item, calling `body` for each.
    public func forEach(_ body: (Item) throws -> Void) rethrows {
        while let item = core.next() { try body(item) }
    }
}

/// Set from any thread to make a following reader give up waiting.
final class StopSignal: Sendable {
    let flag = Atomic<Bool>(false)
}

extension TraceReader {
    /// The reader's mutable state and its line and record logic.
    fileprivate struct Core {
        let options: Options
        let source: String
        let path: String?
        var fd: Int32
        let ownsDescriptor: Bool
        let buffer: UnsafeMutableRawBufferPointer
        let stop: StopSignal
        var start = 0
        var end = 0
        var atEOF = false
        var skippingLongLine = false
        var parser = TraceLineParser()
        var lastSeq: UInt64 = 0
        var pending: [Item] = []
        var inode: UInt64 = 0
        var sawRecord = false
        var byteCount = 0
        var lineCount = 0
        var eventCount = 0
        var unknownKinds: [String: Int] = [:]
        var invalidLineCount = 0
        var endedMidLine = false
        var rejection: TraceReadError?
        static let chunk = 256 << 10

        init(fd: Int32, source: String, path: String?, owns: Bool, options: Options, stop: StopSignal) {
            self.fd = fd
            self.source = source
            self.path = path
            self.ownsDescriptor = owns
            self.options = options
            self.stop = stop
            self.buffer = .allocate(byteCount: options.maxLineLength + Core.chunk + 1, alignment: 16)
            self.inode = Core.inode(of: fd)
        }

        func release() {
            buffer.deallocate()
            if ownsDescriptor { close(fd) }
        }

        mutating func next() -> Item? {
            if !pending.isEmpty { return pending.removeFirst() }
            if rejection != nil { return nil }
            while true {
                guard let line = nextLine() else {
                    return pending.isEmpty ? nil : pending.removeFirst()
                }
                if let item = interpret(line.bytes, complete: line.complete) { return item }
                if rejection != nil { return nil }   // not a trace: nothing after the first record either
                if !pending.isEmpty { return pending.removeFirst() }
            }
        }
        // MARK: - Lines

        struct Line {
            var bytes: UnsafeBufferPointer<UInt8>
            var complete: Bool
        }

        mutating func nextLine() -> Line? {
            while true {
                if end > start, let newline = memchr(buffer.baseAddress! + start, 10, end - start) {
                    let position = buffer.baseAddress!.distance(to: UnsafeMutableRawPointer(newline))
                    let lineStart = start
                    start = position + 1
                    byteCount += position + 1 - lineStart
                    if skippingLongLine {
                        skippingLongLine = false
                        continue
                    }
                    lineCount += 1
                    if position - lineStart > options.maxLineLength {
                        // Too long, even though it fit in the buffer: the limit does not depend on chunking.
                        invalidLineCount += 1
                        pending.append(.diagnostic(TraceDiagnostic(.error, line: lineCount,
                            "longer than \(options.maxLineLength) bytes; skipped (not a napkin trace line?)")))
                        return nil
                    }
                    let bytes = UnsafeBufferPointer(start: (buffer.baseAddress! + lineStart).assumingMemoryBound(to: UInt8.self),
                                                    count: position - lineStart)
                    return Line(bytes: bytes, complete: true)
                }
                // No newline in the buffer.
                if end - start > options.maxLineLength {
                    if !skippingLongLine {
                        lineCount += 1
                        invalidLineCount += 1
                        pending.append(.diagnostic(TraceDiagnostic(.error, line: lineCount,
                            "longer than \(options.maxLineLength) bytes; skipped (not a napkin trace line?)")))
                        skippingLongLine = true
                    }
                    byteCount += end - start
                    start = 0
                    end = 0
                    if !pending.isEmpty { return nil }
                }
                if atEOF && !options.follow {
                    guard end > start else { return nil }
                    // The input ended without a newline.
                    let lineStart = start
                    byteCount += end - start
                    start = end
                    if skippingLongLine { return nil }
                    lineCount += 1
                    endedMidLine = true
                    let bytes = UnsafeBufferPointer(start: (buffer.baseAddress! + lineStart).assumingMemoryBound(to: UInt8.self),
                                                    count: end - lineStart)
                    return Line(bytes: bytes, complete: false)
                }
                if !fill() { return nil }
            }
        }

        /// Reads more bytes; returns false when there will be no more.
        mutating func fill() -> Bool {
            if start > 0 {
                let remaining = end - start
                if remaining > 0 {
                    buffer.baseAddress!.copyMemory(from: buffer.baseAddress! + start, byteCount: remaining)
                }
                start = 0
                end = remaining
            }
            while true {
                if stop.flag.load(ordering: .relaxed) { return false }
                let room = buffer.count - 1 - end
                let n = read(fd, buffer.baseAddress! + end, min(room, Core.chunk))
                if n > 0 {
                    end += n
                    return true
                }
                if n < 0 {
                    if errno == EINTR { continue }
                    if errno == EAGAIN || errno == EWOULDBLOCK {
                        var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                        _ = poll(&p, 1, 100)
                        continue
                    }
                    pending.append(.diagnostic(TraceDiagnostic(.error, line: nil,
                        "read failed: \(TraceDiagnostics.describe(errno: errno))")))
                    atEOF = true
                    return options.follow ? false : end > start
                }
                // End of file.
                guard options.follow, path != nil else {
                    atEOF = true
                    return end > start
                }
                if !waitForMore() { return false }
            }
        }

        /// In follow mode, at the end of a file: waits, and notices truncation
        /// and replacement. Returns false when asked to stop.
        mutating func waitForMore() -> Bool {
            guard let path else { return false }
            let (seconds, attos) = options.pollInterval.components
            let micros = seconds * 1_000_000 + attos / 1_000_000_000_000
            usleep(useconds_t(max(1_000, min(micros, 1_000_000))))
            if stop.flag.load(ordering: .relaxed) { return false }
            var st = stat()
            if stat(path, &st) == 0 && UInt64(st.st_ino) != inode {
                let newFD = open(path, O_RDONLY | O_CLOEXEC)
                if newFD >= 0 {
                    if ownsDescriptor { close(fd) }
                    fd = newFD
                    inode = Core.inode(of: newFD)
                    start = 0
                    end = 0
                    pending.append(.diagnostic(TraceDiagnostic(.note, line: nil,
                        "\(path) was replaced; following the new file")))
                    resetSequence()
                }
                return true
            }
            var own = stat()
            if fstat(fd, &own) == 0 {
                let position = lseek(fd, 0, SEEK_CUR)
                if position > own.st_size {
                    lseek(fd, 0, SEEK_SET)
                    start = 0
                    end = 0
                    pending.append(.diagnostic(TraceDiagnostic(.note, line: nil,
                        "\(path) was truncated; reading it from the start")))
                    resetSequence()
                }
            }
            return true
        }

        mutating func resetSequence() {
            lastSeq = 0
            sawRecord = false
            lineCount = 0
        }

        static func inode(of fd: Int32) -> UInt64 {
            var st = stat()
            return fstat(fd, &st) == 0 ? UInt64(st.st_ino) : 0
        }

        // MARK: - Records

        mutating func interpret(_ bytes: UnsafeBufferPointer<UInt8>, complete: Bool) -> Item? {
            // Blank lines (or just "\r") are allowed.
            var blank = true
            for b in bytes where b != 32 && b != 9 && b != 13 {
                blank = false
                break
            }
            if blank { return nil }
            var bytes = bytes
            if !sawRecord && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
                // A UTF-8 byte-order mark, as some editors write: not part of the record.
                bytes = UnsafeBufferPointer(rebasing: bytes[3...])
            }
            let result = parser.parse(bytes)
            if !sawRecord {
                sawRecord = true
                switch result {
                case .invalid(let reason) where complete:
                    rejection = TraceReadError(source: source, message:
                        "not a napkin trace: line \(lineCount): \(reason) (expected NDJSON written with NAPKIN_TRACE)")
                    return nil
                case .event(let event):
                    if case .sessionStart(let info) = event.kind {
                        if info.version > TraceFormat.version {
                            pending.append(.diagnostic(TraceDiagnostic(.warning, line: lineCount,
                                "written with trace format v\(info.version); this reader knows v\(TraceFormat.version), newer records are skipped")))
                        }
                    } else {
                        pending.append(.diagnostic(TraceDiagnostic(.warning, line: lineCount,
                            "the trace does not start with a session record (its beginning is missing?)")))
                    }
                default:
                    break
                }
            }
            switch result {
            case .event(let event):
                eventCount += 1
                if case .sessionStart = event.kind {
                    lastSeq = event.seq
                } else if event.seq <= lastSeq {
                    pending.append(.event(event))
                    return .diagnostic(TraceDiagnostic(.warning, line: lineCount,
                        "seq \(event.seq) does not follow seq \(lastSeq): events out of order (a merged or edited trace?)"))
                } else {
                    lastSeq = event.seq
                }
                return .event(event)
            case .unknownKind(let name):
                let seen = unknownKinds[name, default: 0]
                unknownKinds[name] = seen + 1
                if seen == 0 {
                    return .diagnostic(TraceDiagnostic(.note, line: lineCount,
                        "unknown event kind \"\(name)\" (from a newer napkin?); skipped, and so are later ones"))
                }
                return nil
            case .invalid(let reason):
                invalidLineCount += 1
                if !complete {
                    return .diagnostic(TraceDiagnostic(.warning, line: lineCount,
                        "the last line is cut short (the app stopped mid-write, e.g. it crashed); ignored"))
                }
                return .diagnostic(TraceDiagnostic(.error, line: lineCount, "\(reason); line skipped"))
            }
        }
    }
}
