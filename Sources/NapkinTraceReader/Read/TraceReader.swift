import NapkinTrace

/// Reads a trace line by line from a file, a pipe or a growing file.
///
/// Memory does not depend on the trace's length: one fixed buffer holds the
/// current chunk, and a line longer than ``Options/maxLineLength`` is skipped
/// with a diagnostic. Blank lines and CRLF endings are accepted; unknown event
/// kinds and unknown fields are skipped and counted (forward compatibility);
/// a malformed line yields a diagnostic with its number and reading goes on;
/// a truncated last line (the writer stopped mid-line) yields a warning.
///
/// The work is split by concern: `LineFramer` cuts the input into lines,
/// `FileFollower` supplies the bytes (and follows a growing file), and
/// `RecordValidator` turns lines into events and checks them as a trace.
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
    // MARK: - Options and items

    /// How the reader behaves at the end of its input.
    public struct Options: Sendable {
        /// Keep waiting for more data at the end of a file, like `tail -F`
        /// (surviving truncation and replacement of the file).
        public var follow: Bool
        /// Lines longer than this many bytes are skipped with a diagnostic.
        public var maxLineLength: Int
        /// How long to wait between checks for new data when following.
        public var pollInterval: Duration
        /// How many lines that are not records may come before the first
        /// record (the app's own output, when it writes its trace to
        /// standard output); one more rejects the input as not a trace.
        /// Give 0 for a destination that only the trace writes to (`fd:N`).
        public var maxLeadingForeignLines: Int
        /// How many bytes one read asks for (the buffer holds this plus
        /// ``maxLineLength``): smaller for the many connections of a listener.
        package var readChunk = LineFramer.chunk
        /// Called with every chunk of bytes as it is read, before it is cut
        /// into lines (on the reading thread): `live --record` keeps the
        /// bytes a connection sent, exactly.
        package var tap: (@Sendable (UnsafeRawBufferPointer) -> Void)?

        /// Creates options.
        public init(follow: Bool = false, maxLineLength: Int = 1 << 20, pollInterval: Duration = .milliseconds(50),
                    maxLeadingForeignLines: Int = 1_000) {
            self.follow = follow
            self.maxLineLength = max(64, maxLineLength)
            self.pollInterval = pollInterval
            self.maxLeadingForeignLines = max(0, maxLeadingForeignLines)
        }
    }

    /// One thing read from the trace.
    public enum Item: Sendable, Equatable {
        /// A valid event.
        case event(TraceEvent)
        /// A problem with the input (the line is skipped).
        indirect case diagnostic(TraceDiagnostic)
    }

    // MARK: - What was read

    /// The name used in messages (the path, or `-` for standard input).
    public let source: String
    /// Bytes consumed so far.
    public var byteCount: Int { core.pointee.lines.byteCount }
    /// Lines seen so far (including blank and bad ones).
    public var lineCount: Int { core.pointee.lines.lineCount }
    /// Valid events returned so far.
    public var eventCount: Int { core.pointee.records.eventCount }
    /// Records of unknown kinds, by `ev` value.
    public var unknownKinds: [String: Int] { core.pointee.records.unknownKinds }
    /// Fields this reader did not recognise on records it did.
    public var unknownFieldCount: Int { core.pointee.records.parser.unknownFieldCount }
    /// Lines that could not be used.
    public var invalidLineCount: Int { core.pointee.lines.tooLongLineCount + core.pointee.records.invalidLineCount }
    /// Whether the input ended in the middle of a line.
    public var endedMidLine: Bool { core.pointee.lines.endedMidLine }
    /// Whether the reader follows its input as it grows (``Options/follow``).
    var follows: Bool { core.pointee.input.follow }
    /// What the input so far says about the trace itself: whether a verdict
    /// on it can be trusted (see ``TraceIntegrity``). Complete once ``next()``
    /// has returned `nil`.
    public var integrity: TraceIntegrity {
        var report = core.pointee.records.integrity
        report.countForeignLines(core.pointee.lines.tooLongLineCount)
        report.endedMidLine = report.endedMidLine || core.pointee.lines.endedMidLine
        report.finish()
        return report
    }
    /// Set when the input is not a napkin trace at all (its first record is
    /// not a valid trace record); reading stops.
    public var rejection: TraceReadError? { core.pointee.records.rejection }

    // MARK: - Reading

    /// All mutable reading state lives in one struct, so the hot loop works on
    /// `inout self`; it is kept behind a pointer the reader owns, so that no
    /// access to it pays for the dynamic exclusivity checks of a class's
    /// stored property (the reader is not shared between threads: only
    /// ``stop()`` is, and it touches `stopSignal` alone).
    private let core: UnsafeMutablePointer<Core>
    private let stopSignal: StopSignal

    /// Opens `path` for reading; `-` reads standard input.
    public convenience init(path: String, options: Options = Options()) throws {
        if path == "-" {
            self.init(fileDescriptor: 0, source: "-", options: options)
            return
        }
        let fd: Int32
        do {
            fd = try Platform.openForReading(path)
        } catch {
            let reason = error.isNoSuchFile ? "no such file (check the path)" :
                error.isPermissionDenied ? "permission denied" : error.description
            throw TraceReadError(source: path, message: "cannot open: \(reason)")
        }
        if Platform.fileFacts(of: fd)?.kind == .directory {
            Platform.closeDescriptor(fd)
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
        self.core = .allocate(capacity: 1)
        self.core.initialize(to: Core(input: FileFollower(fd: descriptor, path: path, owns: owns, follow: options.follow,
                                             pollInterval: options.pollInterval, stop: stop, tap: options.tap),
                         lines: LineFramer(maxLineLength: options.maxLineLength, follow: options.follow,
                                           chunk: options.readChunk),
                         records: RecordValidator(source: source, maxLeadingForeignLines: options.maxLeadingForeignLines)))
    }

    deinit {
        core.pointee.release()
        core.deinitialize(count: 1)
        core.deallocate()
    }

    /// Makes a reader that is waiting for data (following) return `nil` soon.
    /// Safe to call from another thread.
    public func stop() {
        stopSignal.flag.store(true, ordering: .relaxed)
    }

    /// The next event or diagnostic, or `nil` at the end of the input.
    public func next() -> Item? {
        core.pointee.next()
    }

    /// Reads every remaining item, calling `body` for each.
    public func forEach(_ body: (Item) throws -> Void) rethrows {
        while let item = core.pointee.next() { try body(item) }
    }

    /// Reads the remaining items in the order ``next()`` hands them out,
    /// each event to `event` (which returns false to stop reading there)
    /// and each diagnostic to `diagnostic`.
    ///
    /// The fastest way through a whole trace: an event is handed over as
    /// it is read, never wrapped in an ``Item`` (destroying an optional
    /// item goes through the type's value witnesses, a dozen calls per
    /// event). `napkin-inspect` reads this way.
    public func read<E: Error>(event: (TraceEvent) throws(E) -> Bool,
                               diagnostic: (TraceDiagnostic) throws(E) -> Void) throws(E) {
        try core.pointee.read(event: event, diagnostic: diagnostic)
    }

    /// Reads the remaining events, each with the 1-based number of the line
    /// it was read from (as a diagnostic counts lines), until `body` returns
    /// false. Diagnostics are skipped: each carries its own line. For
    /// pointing into a trace file at an event (`check --format sarif`).
    public func readNumberedEvents<E: Error>(_ body: (_ event: TraceEvent, _ line: Int) throws(E) -> Bool) throws(E) {
        try core.pointee.readNumberedEvents(body)
    }
}

// MARK: - The core

extension TraceReader {
    /// All mutable reading state, in one struct, so the hot loop works on
    /// `inout self` (no per-field exclusivity checks on the class): the
    /// input, the line framer and the record validator, and the queue of
    /// items found but not yet returned.
    fileprivate struct Core {
        var input: FileFollower
        var lines: LineFramer
        var records: RecordValidator
        /// Items to return before reading on (diagnostics, an out-of-order event).
        var pending: [Item] = []

        func release() {
            lines.release()
            input.release()
        }

        @inline(__always)
        mutating func next() -> Item? {
            // The common case, with nothing in its way: a whole line in the
            // buffer, a record as the encoder writes it, the next of its session.
            if pending.isEmpty && !records.isRejected, let line = lines.nextBufferedLine() {
                if let event = records.parser.fastEvent(line.bytes, readable: line.readable) {
                    if records.takeInSequence(event) { return .event(event) }
                    return records.accept(event, line: line, pending: &pending)
                }
                if let item = records.interpretOther(line, pending: &pending) { return item }
                if records.rejection != nil { return nil }
                if !pending.isEmpty { return pending.removeFirst() }
            }
            return nextSlowly()
        }

        /// See ``TraceReader/read(event:diagnostic:)``.
        mutating func read<E: Error>(event: (TraceEvent) throws(E) -> Bool,
                                     diagnostic: (TraceDiagnostic) throws(E) -> Void) throws(E) {
            // One event variable for every line (see TraceFastPath.parse(into:_:)).
            var fast = TraceEvent.placeholder
            while true {
                // The most common case: a record as the encoder writes it, parsed
                // in the buffer up to its newline (no newline search first).
                if pending.isEmpty && !records.isRejected, let unread = lines.unreadBytes(),
                   let length = records.parser.fastLine(unread.bytes, readable: unread.readable, into: &fast),
                   length <= lines.maxLineLength {
                    let line = lines.consumeLine(length: length)
                    if records.takeInSequence(fast) {
                        if try !event(fast) { return }
                        continue
                    }
                    if try !deliver(records.accept(fast, line: line, pending: &pending), event, diagnostic) { return }
                    continue
                }
                // The common case, as in next(), without the Item.
                if pending.isEmpty && !records.isRejected, let line = lines.nextBufferedLine() {
                    if records.parser.fastEvent(line.bytes, readable: line.readable, into: &fast) {
                        if records.takeInSequence(fast) {
                            if try !event(fast) { return }
                            continue
                        }
                        if try !deliver(records.accept(fast, line: line, pending: &pending), event, diagnostic) { return }
                        continue
                    }
                    if let item = records.interpretOther(line, pending: &pending) {
                        if try !deliver(item, event, diagnostic) { return }
                        continue
                    }
                    if records.rejection != nil { return }
                    continue
                }
                guard let item = nextSlowly() else { return }
                if try !deliver(item, event, diagnostic) { return }
            }
        }

        /// See ``TraceReader/readNumberedEvents(_:)``. An event is handed
        /// out before the next line is read (one out of order waits in
        /// `pending` only behind its warning), so the line count is its line.
        mutating func readNumberedEvents<E: Error>(_ body: (TraceEvent, Int) throws(E) -> Bool) throws(E) {
            while let item = next() {
                if case .event(let event) = item, try !body(event, lines.lineCount) { return }
            }
        }

        /// Hands `item` to `event` or `diagnostic`; false when reading stops.
        private func deliver<E: Error>(_ item: Item, _ event: (TraceEvent) throws(E) -> Bool,
                                       _ diagnostic: (TraceDiagnostic) throws(E) -> Void) throws(E) -> Bool {
            switch item {
            case .event(let e): return try event(e)
            case .diagnostic(let d):
                try diagnostic(d)
                return true
            }
        }

        /// ``next()`` for everything but the common case.
        mutating func nextSlowly() -> Item? {
            if !pending.isEmpty { return pending.removeFirst() }
            if records.rejection != nil { return nil }
            while true {
                switch lines.next(from: &input, pending: &pending) {
                case .line(let line):
                    if let item = records.interpret(line, pending: &pending) { return item }
                    if records.rejection != nil { return nil }   // not a trace: nothing after the first record either
                    if !pending.isEmpty { return pending.removeFirst() }
                case .restarted(let note):
                    // The note comes after the first item of the new file, as
                    // the sequence starts over; reading goes on at once.
                    pending.append(.diagnostic(note))
                    records.restart()
                case .noLine:
                    if pending.isEmpty { records.inputEnded() }
                    return pending.isEmpty ? nil : pending.removeFirst()
                }
            }
        }
    }
}
