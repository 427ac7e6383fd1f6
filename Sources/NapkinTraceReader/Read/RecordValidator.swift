import NapkinTrace

/// Turns a ``TraceReader``'s lines into events and checks them as a trace,
/// keeping its ``TraceIntegrity``.
///
/// - Lines that are not records (the app's own output with
///   `NAPKIN_TRACE=stdout`, JSON log lines) are skipped and counted; before
///   the first record at most ``TraceReader/Options/maxLeadingForeignLines``
///   of them (1,000 by default).
/// - The first record decides whether the input is a napkin trace at all: a
///   damaged first record (or no record at all) rejects the whole input.
/// - A UTF-8 byte-order mark before the first record is ignored.
/// - Each session's sequence numbers must run 1, 2, 3... (a `dropped` record
///   accounts for the ones it names) and its times must not go backwards or
///   jump by more than ``TraceIntegrity/maxPlausibleGap``; anything else is
///   damage. An event out of order is still returned, after a warning.
/// - A resumed session record (``SessionInfo/part`` above 1, written by a
///   socket sink when it reconnects) starts a new session like any session
///   record. Across its replay (the ``SessionInfo/replayCount`` records after
///   it) and the first record after the replay, sequence numbers only need to
///   increase and times must not go backwards: the replay picks the records
///   of the live tree out of the whole session, and the records after it
///   follow whatever was lost. From there on the usual checks apply.
/// - Records of unknown kinds are counted (at most ``maxUnknownKindNames``
///   names) and noted once per kind.
struct RecordValidator {
    // MARK: - State

    /// How many distinct unknown kind names are kept (the rest are counted under one name).
    static let maxUnknownKindNames = 64

    /// The input's name, for the rejection.
    let source: String
    /// How many lines that are not records may come before the first record.
    let maxLeadingForeignLines: Int
    var parser = TraceLineParser()
    private var sawRecord = false
    private var lastSeq: UInt64 = 0
    private var lastTime: UInt64 = 0
    /// How many more records may skip sequence numbers and jump in time: the
    /// replay of a resumed part and the first record after it.
    private var gapAllowance: UInt64 = 0
    /// The reason the first line that is not a record is not one (for a rejection).
    private var firstForeignReason: (line: Int, reason: String)?
    /// Valid events returned so far.
    private(set) var eventCount = 0
    /// Records of unknown kinds, by `ev` value.
    private(set) var unknownKinds: [String: Int] = [:]
    /// Lines that were not valid records (blank lines excluded).
    private(set) var invalidLineCount = 0
    /// What the lines so far say about the trace itself.
    private(set) var integrity = TraceIntegrity()
    /// Set when the input is not a napkin trace; nothing more is read.
    private(set) var rejection: TraceReadError? {
        didSet { isRejected = rejection != nil }
    }
    /// Whether ``rejection`` is set (one byte to test on every line).
    private(set) var isRejected = false

    init(source: String, maxLeadingForeignLines: Int) {
        self.source = source
        self.maxLeadingForeignLines = maxLeadingForeignLines
    }

    // MARK: - Restarts, ends and lines

    /// Forgets the sequence so far: the followed file started over (it was
    /// truncated or replaced), so it is a new trace, with its own integrity.
    mutating func restart() {
        lastSeq = 0
        lastTime = 0
        gapAllowance = 0
        sawRecord = false
        firstForeignReason = nil
        integrity = TraceIntegrity()
    }

    /// The input ended: rejects it if it held no record at all.
    mutating func inputEnded() {
        guard !sawRecord, rejection == nil, let first = firstForeignReason else { return }
        rejection = TraceReadError(source: source, message:
            "not a napkin trace: line \(first.line): \(first.reason) (no trace record in \(integrity.foreignLines) lines; expected NDJSON written with NAPKIN_TRACE)")
    }

    /// The item for `line`, if any; warnings that go with it are queued in `pending`.
    mutating func interpret(_ line: LineFramer.Line, pending: inout [TraceReader.Item]) -> TraceReader.Item? {
        // The common case first: a record exactly as the encoder writes it
        // (never a session record), the next of the session, in time.
        if let event = parser.fastEvent(line.bytes, readable: line.readable) {
            if takeInSequence(event) { return .event(event) }
            return accept(event, line: line, pending: &pending)
        }
        return interpretOther(line, pending: &pending)
    }

    /// Whether `event`, read by the fast path, is simply the next record of
    /// its session, in time; if so it is counted and taken (nothing else to
    /// check). Otherwise ``accept(_:line:pending:)`` must see it.
    @inline(__always)
    mutating func takeInSequence(_ event: borrowing TraceEvent) -> Bool {
        guard sawRecord && event.seq == lastSeq &+ 1 && event.time >= lastTime && gapAllowance == 0
            && event.time - lastTime <= TraceIntegrity.maxPlausibleGap else { return false }
        lastSeq = event.seq
        lastTime = event.time
        integrity.countRecord()
        eventCount &+= 1
        return true
    }

    /// The item for a line the fast path did not take.
    mutating func interpretOther(_ line: LineFramer.Line, pending: inout [TraceReader.Item]) -> TraceReader.Item? {
        // Blank lines (or just "\r") are allowed.
        if Self.isBlank(line.bytes) { return nil }
        var bytes = line.bytes
        if !sawRecord && bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF {
            // A UTF-8 byte-order mark, as some editors write: not part of the record.
            bytes = UnsafeBufferPointer(rebasing: bytes[3...])
        }
        // (The fast path did not take the line: the general parser decides.)
        switch parser.parseGeneral(bytes) {
        case .event(let event): return accept(event, line: line, pending: &pending)
        case .unknownKind(let name): return unknownKind(name, line: line)
        case .notARecord(let reason): return foreignLine(reason, line: line)
        case .invalid(let reason): return damagedRecord(reason, line: line)
        }
    }

    // MARK: - Lines the general parser read

    /// Whether `bytes` holds nothing but spaces, tabs and carriage returns.
    @inline(__always)
    private static func isBlank(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        for b in bytes where b != 32 && b != 9 && b != 13 { return false }
        return true
    }

    /// A record of an unknown kind, `name`: counted, and noted the first time.
    private mutating func unknownKind(_ name: String, line: LineFramer.Line) -> TraceReader.Item? {
        sawRecord = true
        integrity.countRecord()
        // A newer producer's record takes its sequence number like any other.
        if let seq = parser.unknownKindSeq, seq > lastSeq { lastSeq = seq }
        if gapAllowance > 0 { gapAllowance -= 1 }
        let key = unknownKinds[name] != nil || unknownKinds.count < Self.maxUnknownKindNames ? name : "(other names)"
        let seen = unknownKinds[key, default: 0]
        unknownKinds[key] = seen + 1
        if seen == 0 {
            return .diagnostic(TraceDiagnostic(.note, line: line.number,
                "unknown event kind \"\(name)\" (from a newer napkin?); skipped, and so are later ones"))
        }
        return nil
    }

    /// A line that is not a record (for `reason`): counted, and noted once records started.
    private mutating func foreignLine(_ reason: String, line: LineFramer.Line) -> TraceReader.Item? {
        invalidLineCount += 1
        integrity.countForeignLine()
        if firstForeignReason == nil { firstForeignReason = (line.number, reason) }
        if !sawRecord {
            if integrity.foreignLines > maxLeadingForeignLines { inputEnded() }
            return nil
        }
        return .diagnostic(TraceDiagnostic(.note, line: line.number,
            "not a trace record (the app's own output?): \(reason); skipped"))
    }

    /// A damaged record (for `reason`): a cut last line, the rejection of an
    /// input whose first record is damaged, or damage noted in the integrity.
    private mutating func damagedRecord(_ reason: String, line: LineFramer.Line) -> TraceReader.Item? {
        invalidLineCount += 1
        if !line.complete {
            integrity.endedMidLine = true
            return .diagnostic(TraceDiagnostic(.warning, line: line.number,
                "the last line is cut short (the app stopped mid-write, e.g. it crashed); ignored"))
        }
        if !sawRecord {
            // After lines that were not records (a Markdown file with a JSON example), the first of them says more.
            let earlier = firstForeignReason.map { "line \($0.line): \($0.reason), and " } ?? ""
            rejection = TraceReadError(source: source, message:
                "not a napkin trace: \(earlier)line \(line.number): \(reason) (expected NDJSON written with NAPKIN_TRACE)")
            return nil
        }
        integrity.note(.damagedRecords, line: line.number, seq: nil,
                       "lines that look like records are damaged (\(reason)): the trace was cut, edited or written by two processes at once")
        return .diagnostic(TraceDiagnostic(.error, line: line.number, "\(reason); line skipped"))
    }

    // MARK: - Records in order

    /// A record that is not simply the next of its session (or any record
    /// the general parser read): checks its place in the trace.
    mutating func accept(_ event: TraceEvent, line: LineFramer.Line, pending: inout [TraceReader.Item]) -> TraceReader.Item {
        if !sawRecord { first(event, line: line, pending: &pending) }
        integrity.countRecord()
        eventCount += 1
        return check(event, line: line, pending: &pending)
    }

    /// The first record of the input: is it a session record, of a format this reader knows?
    private mutating func first(_ event: TraceEvent, line: LineFramer.Line, pending: inout [TraceReader.Item]) {
        sawRecord = true
        if case .sessionStart(let info) = event.kind {
            if info.version > TraceFormat.version {
                pending.append(.diagnostic(TraceDiagnostic(.warning, line: line.number,
                    "written with trace format v\(info.version); this reader knows v\(TraceFormat.version), newer records are skipped")))
            }
            return
        }
        integrity.note(.noSessionRecord, line: line.number, seq: event.seq,
                       "the trace does not start with a session record: its beginning is missing, and so may be findings")
        pending.append(.diagnostic(TraceDiagnostic(.warning, line: line.number,
            "the trace does not start with a session record (its beginning is missing?)")))
        lastSeq = event.seq &- 1
        lastTime = event.time
    }

    /// Checks `event`'s place in its session: sequence and time.
    private mutating func check(_ event: TraceEvent, line: LineFramer.Line, pending: inout [TraceReader.Item]) -> TraceReader.Item {
        if case .sessionStart(let info) = event.kind {
            integrity.countSession()
            if info.isResumed {
                integrity.countResumption(lost: info.lost)
                // The replay, and the first record after it, may skip sequence numbers and time.
                gapAllowance = UInt64(clamping: info.replayCount) &+ 1
                pending.append(.diagnostic(TraceDiagnostic(.note, line: line.number,
                    "the app's trace resumes after a gap (\(info.partSummary ?? "part \(info.part)")); it starts over with the live tree, and is analysed as a session of its own")))
            } else {
                gapAllowance = 0
                if integrity.sessions > 1 {
                    pending.append(.diagnostic(TraceDiagnostic(.note, line: line.number,
                        "a new session starts (\(integrity.sessions) in this input, concatenated traces?); each is analysed on its own")))
                }
            }
            lastSeq = event.seq
            lastTime = event.time
            return .event(event)
        }
        if gapAllowance > 0 {
            gapAllowance -= 1
            return checkAcrossGap(event, line: line, pending: &pending)
        }
        checkTime(event, line: line)
        if event.seq <= lastSeq { return outOfOrder(event, line: line, pending: &pending) }
        if event.seq > lastSeq &+ 1 {
            var accounted = false
            if case .dropped(_, let first, let last) = event.kind, first == lastSeq &+ 1, last == event.seq &- 1 { accounted = true }
            if !accounted {
                let missing = event.seq - lastSeq - 1
                integrity.note(.sequenceGap, line: line.number, seq: event.seq,
                               "\(missing) record\(missing == 1 ? " is" : "s are") missing before seq \(event.seq) and no dropped record accounts for them: lines were lost, cut out or edited")
            }
        }
        lastSeq = event.seq
        return .event(event)
    }

    /// An event whose sequence number is not above the previous one: noted
    /// as damage, and still returned, after a warning.
    private mutating func outOfOrder(_ event: TraceEvent, line: LineFramer.Line, pending: inout [TraceReader.Item]) -> TraceReader.Item {
        integrity.note(.sequenceOutOfOrder, line: line.number, seq: event.seq,
                       "sequence numbers go backwards: records of one session are out of order (merged traces, or two processes writing to one destination)")
        pending.append(.event(event))
        return .diagnostic(TraceDiagnostic(.warning, line: line.number,
            "seq \(event.seq) does not follow seq \(lastSeq): events out of order (a merged or edited trace?)"))
    }

    /// Checks a record of a resumed part's replay, or the first record after
    /// it: its sequence number above the previous one (with any gap), its
    /// time not before the previous one's (with any jump).
    private mutating func checkAcrossGap(_ event: TraceEvent, line: LineFramer.Line, pending: inout [TraceReader.Item]) -> TraceReader.Item {
        if event.time < lastTime {
            integrity.note(.timeBackwards, line: line.number, seq: event.seq,
                           "time goes backwards (t \(event.time) after \(lastTime)): the trace was merged, edited or is corrupt")
        } else {
            lastTime = event.time
        }
        if event.seq <= lastSeq { return outOfOrder(event, line: line, pending: &pending) }
        lastSeq = event.seq
        return .event(event)
    }

    private mutating func checkTime(_ event: TraceEvent, line: LineFramer.Line) {
        if event.time < lastTime {
            integrity.note(.timeBackwards, line: line.number, seq: event.seq,
                           "time goes backwards (t \(event.time) after \(lastTime)): the trace was merged, edited or is corrupt")
            return
        }
        if event.time - lastTime > TraceIntegrity.maxPlausibleGap {
            integrity.note(.timeJump, line: line.number, seq: event.seq,
                           "time jumps forward by \(TraceIntegrity.describe(event.time - lastTime)) between two events: a corrupt time")
        }
        lastTime = event.time
    }
}
