/// Turns a ``TraceReader``'s lines into events and checks them as a trace.
///
/// - The first record decides whether the input is a napkin trace at all: a
///   complete first line that is not a valid record rejects the whole input.
/// - A UTF-8 byte-order mark before the first record is ignored.
/// - A first record that is not a session record, or one written with a newer
///   trace format, is warned about.
/// - Sequence numbers must grow (a new session record starts them again);
///   an event out of order is returned after a warning.
/// - Records of unknown kinds are counted and noted once per kind.
/// - Blank lines are allowed; other bad lines are counted and reported.
struct RecordValidator {
    /// The input's name, for the rejection.
    let source: String
    var parser = TraceLineParser()
    private var sawRecord = false
    private var lastSeq: UInt64 = 0
    /// Valid events returned so far.
    private(set) var eventCount = 0
    /// Records of unknown kinds, by `ev` value.
    private(set) var unknownKinds: [String: Int] = [:]
    /// Lines that were not valid records (blank lines excluded).
    private(set) var invalidLineCount = 0
    /// Set when the input is not a napkin trace; nothing more is read.
    private(set) var rejection: TraceReadError?

    init(source: String) {
        self.source = source
    }

    /// Forgets the sequence so far: the followed file started over.
    mutating func restart() {
        lastSeq = 0
        sawRecord = false
    }

    /// The item for `line`, if any; warnings that go with it are queued in `pending`.
    mutating func interpret(_ line: LineFramer.Line, pending: inout [TraceReader.Item]) -> TraceReader.Item? {
        // Blank lines (or just "\r") are allowed.
        var blank = true
        for b in line.bytes where b != 32 && b != 9 && b != 13 {
            blank = false
            break
        }
        if blank { return nil }
        var bytes = line.bytes
        if !sawRecord && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            // A UTF-8 byte-order mark, as some editors write: not part of the record.
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        let result = parser.parse(bytes)
        if !sawRecord {
            sawRecord = true
            if checkFirst(result, line: line, pending: &pending) { return nil }
        }
        switch result {
        case .event(let event):
            eventCount += 1
            if case .sessionStart = event.kind {
                lastSeq = event.seq
            } else if event.seq <= lastSeq {
                pending.append(.event(event))
                return .diagnostic(TraceDiagnostic(.warning, line: line.number,
                    "seq \(event.seq) does not follow seq \(lastSeq): events out of order (a merged or edited trace?)"))
            } else {
                lastSeq = event.seq
            }
            return .event(event)
        case .unknownKind(let name):
            let seen = unknownKinds[name, default: 0]
            unknownKinds[name] = seen + 1
            if seen == 0 {
                return .diagnostic(TraceDiagnostic(.note, line: line.number,
                    "unknown event kind \"\(name)\" (from a newer napkin?); skipped, and so are later ones"))
            }
            return nil
        case .invalid(let reason):
            invalidLineCount += 1
            if !line.complete {
                return .diagnostic(TraceDiagnostic(.warning, line: line.number,
                    "the last line is cut short (the app stopped mid-write, e.g. it crashed); ignored"))
            }
            return .diagnostic(TraceDiagnostic(.error, line: line.number, "\(reason); line skipped"))
        }
    }

    /// Checks the first record; returns `true` when it rejects the input.
    private mutating func checkFirst(_ result: TraceLineParser.Result, line: LineFramer.Line,
                                     pending: inout [TraceReader.Item]) -> Bool {
        switch result {
        case .invalid(let reason) where line.complete:
            rejection = TraceReadError(source: source, message:
                "not a napkin trace: line \(line.number): \(reason) (expected NDJSON written with NAPKIN_TRACE)")
            return true
        case .event(let event):
            if case .sessionStart(let info) = event.kind {
                if info.version > TraceFormat.version {
                    pending.append(.diagnostic(TraceDiagnostic(.warning, line: line.number,
                        "written with trace format v\(info.version); this reader knows v\(TraceFormat.version), newer records are skipped")))
                }
            } else {
                pending.append(.diagnostic(TraceDiagnostic(.warning, line: line.number,
                    "the trace does not start with a session record (its beginning is missing?)")))
            }
        default:
            break
        }
        return false
    }
}
