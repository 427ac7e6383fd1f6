import NapkinTrace

/// Parses one NDJSON line of a trace into a ``TraceEvent``: the inverse of ``TraceEncoder``.
///
/// Lines exactly as the encoder writes them take ``TraceFastPath`` (no
/// intermediate values; type names, labels and code locations reused from
/// earlier lines, strings built only for marks and new names). Anything else goes through the general path: ``JSONScanner``
/// reads any valid JSON object (keys in any order, whitespace, escapes,
/// unknown fields of any type, integral numbers written as `12.0`) and
/// ``TraceRecordFields`` maps it to an event or says why it cannot.
public struct TraceLineParser: Sendable {
    /// What one line turned out to be.
    public enum Result: Sendable, Equatable {
        /// A napkin event.
        case event(TraceEvent)
        /// A well-formed record whose `ev` this reader does not know (written
        /// by a newer producer); skipped.
        case unknownKind(String)
        /// Not a trace record at all: not a JSON object (a line of the app's
        /// own output, with `NAPKIN_TRACE=stdout`), or a JSON object without
        /// an `ev` field (a JSON log line). The reason is one line.
        case notARecord(String)
        /// A damaged record: a JSON object that is not valid, or a record
        /// whose fields are missing or of the wrong type. The reason is one line,
        /// fit for a diagnostic.
        case invalid(String)
    }

    /// Fields of known kinds that this reader did not recognise, counted.
    public private(set) var unknownFieldCount = 0
    /// The `seq` of the last record of an unknown kind, if it had one (its
    /// sequence number is taken, so the reader counts it in the sequence).
    private(set) var unknownKindSeq: UInt64?
    /// What the fast path reuses from line to line.
    private var caches = FastPathCaches()

    /// Creates a parser.
    public init() {}

    /// Parses `line` (without its newline; a trailing `\r` is ignored).
    public mutating func parse(_ line: UnsafeBufferPointer<UInt8>) -> Result {
        parse(line, readable: line.count)
    }

    /// Parses `line`, of which `readable` bytes from its start may be loaded
    /// (more than its length when it sits in a buffer with room after it:
    /// the fast path then reads whole words up to its end).
    @inline(__always)
    mutating func parse(_ line: UnsafeBufferPointer<UInt8>, readable: Int) -> Result {
        if let event = fastEvent(line, readable: readable) { return .event(event) }
        return parseGeneral(line)
    }

    /// The event, if `line` is exactly as ``TraceEncoder`` writes it (nil
    /// does not mean the line is bad: see ``parseGeneral(_:)``).
    @inline(__always)
    mutating func fastEvent(_ line: UnsafeBufferPointer<UInt8>, readable: Int) -> TraceEvent? {
        if readable &- line.count >= 8 {
            var fast = TraceFastPath<PaddedReads>(line, readable: readable)
            return fast.parse(&caches)
        }
        var fast = TraceFastPath<ExactReads>(line, readable: readable)
        return fast.parse(&caches)
    }

    /// Reads the record at the start of `bytes` (its line and what follows
    /// it, with at least 8 more readable bytes after them) into `event`, if
    /// it is exactly as ``TraceEncoder`` writes it and ends right before a
    /// newline; returns the line's length (see ``TraceFastPath/parseLine(into:_:)``).
    @inline(__always)
    mutating func fastLine(_ bytes: UnsafeBufferPointer<UInt8>, readable: Int, into event: inout TraceEvent) -> Int? {
        var fast = TraceFastPath<PaddedReads>(bytes, readable: readable)
        return fast.parseLine(into: &event, &caches)
    }

    /// Reads `line` into `event` if it is exactly as ``TraceEncoder`` writes
    /// it; returns whether it was (see ``TraceFastPath/parse(into:_:)``).
    @inline(__always)
    mutating func fastEvent(_ line: UnsafeBufferPointer<UInt8>, readable: Int, into event: inout TraceEvent) -> Bool {
        if readable &- line.count >= 8 {
            var fast = TraceFastPath<PaddedReads>(line, readable: readable)
            return fast.parse(into: &event, &caches)
        }
        var fast = TraceFastPath<ExactReads>(line, readable: readable)
        return fast.parse(into: &event, &caches)
    }

    /// Parses `line` with the general parser only (any JSON object), as
    /// for a line the fast path does not take.
    mutating func parseGeneral(_ line: UnsafeBufferPointer<UInt8>) -> Result {
        var scanner = JSONScanner(line)
        var fields = TraceRecordFields()
        do {
            try fields.read(from: &scanner)
        } catch {
            return scanner.startsWithObject ? .invalid(error.message) : .notARecord(error.message)
        }
        // Fields of known kinds only: a record of an unknown kind is counted as such.
        if fields.name != nil { unknownFieldCount &+= fields.unknownFields }
        let result = fields.makeEvent()
        if case .unknownKind = result { unknownKindSeq = fields.seq }
        return result
    }

    /// Parses a line given as a string (convenience for tests and tools).
    public mutating func parse(_ line: String) -> Result {
        var copy = line
        return copy.withUTF8 { parse($0) }
    }
}
