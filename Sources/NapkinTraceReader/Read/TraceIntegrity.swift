import NapkinTrace

/// Whether a trace can be trusted for a verdict: what the reader (and the
/// model) noticed about the trace itself rather than about the app.
///
/// A trace with a ``Problem`` is *damaged*: its findings may be wrong in
/// either direction (a missing detach reads as a leak, a missing deinit as a
/// retain cycle, missing events hide everything), so `napkin-inspect check`
/// treats it as unusable input (exit status 2) in every output format, never
/// as a pass. What a real pipeline legitimately produces is not a problem:
/// the app's own output around the records (`NAPKIN_TRACE=stdout`), as long
/// as records are the majority; a last line cut short by a crash; events the
/// app dropped and said so (a `dropped` record: the `events-dropped`
/// finding); several sessions one after the other (each is analysed on its
/// own); a session resumed after a gap in a socket connection (a session
/// record with a `part` above 1, followed by the replay of the live tree:
/// see ``resumedParts``).
public struct TraceIntegrity: Sendable, Hashable {
    /// One way a trace is damaged, with how often and where it was first seen.
    public struct Problem: Sendable, Hashable, CustomStringConvertible {
        /// The kinds of damage.
        public enum Kind: String, Sendable, Hashable, CaseIterable {
            /// Most lines are not trace records (garbage, or some other file with a few records in it).
            case mostlyNotRecords = "mostly-not-records"
            /// Lines that look like records (JSON objects) but are not valid ones.
            case damagedRecords = "damaged-records"
            /// The first record is not a session record: the beginning of the trace is missing.
            case noSessionRecord = "no-session-record"
            /// Sequence numbers are missing and no `dropped` record accounts for them.
            case sequenceGap = "sequence-gap"
            /// Sequence numbers go backwards within a session (merged or interleaved writers).
            case sequenceOutOfOrder = "sequence-out-of-order"
            /// Time goes backwards within a session.
            case timeBackwards = "time-backwards"
            /// Time jumps forward by more than ``TraceIntegrity/maxPlausibleGap`` between two events.
            case timeJump = "time-jump"
            /// An id is created again while the node or task it names is alive.
            case idReused = "id-reused"
            /// An event names an id the session never created.
            case unknownID = "unknown-id"
            /// Following the trace would take more than near-linear time (huge
            /// subtrees moved by single events, far more than an app does).
            case tooMuchWork = "too-much-work"
        }

        /// What is wrong.
        public var kind: Kind
        /// How many times it was seen.
        public var count: Int
        /// The line where it was first seen, if known.
        public var line: Int?
        /// The sequence number where it was first seen, if known.
        public var seq: UInt64?
        /// One line: what is wrong, where, and what it means.
        public var message: String

        /// `message (line N, seq S; 3 times)`.
        public var description: String {
            var place: [String] = []
            if let line { place.append("line \(line)") }
            if let seq { place.append("seq \(seq)") }
            if count > 1 { place.append("\(count) times") }
            return place.isEmpty ? message : "\(message) (\(place.joined(separator: ", ")))"
        }
    }

    /// The largest gap in time between two consecutive events of a session
    /// that is taken as real (24 hours); a larger jump is damage (a corrupt
    /// `t`, a wrap-around near 2^64), which would otherwise decide every
    /// pending check at once.
    public static let maxPlausibleGap: UInt64 = 24 * 3600 * 1_000_000_000

    /// The damage found, at most one entry per kind (in the order first seen).
    public private(set) var problems: [Problem] = []
    /// Records read (events and records of unknown kinds).
    public private(set) var records = 0
    /// Lines that are not records (the app's own output, JSON logs); tolerated while records are the majority.
    public private(set) var foreignLines = 0
    /// Sessions read (resumed parts included).
    public private(set) var sessions = 0
    /// Sessions read that resume an earlier one after a gap (a session record
    /// with ``SessionInfo/part`` above 1, from a trace sent over a socket);
    /// counted in ``sessions`` too. Not damage: each part starts with the
    /// replay of the live tree.
    public private(set) var resumedParts = 0
    /// The events the resumed parts say were lost in their gaps (the sum of
    /// their ``SessionInfo/lost``, saturating): what happened then may hold
    /// findings that no part shows.
    public private(set) var eventsLostInGaps: UInt64 = 0
    /// Whether the last line was cut short (the writer stopped mid-line: a crash). Not damage.
    public internal(set) var endedMidLine = false

    /// Creates an empty report.
    public init() {}

    /// Whether the trace can be trusted for a verdict.
    public var isUsable: Bool { problems.isEmpty }

    /// Records a problem (merged with an earlier one of the same kind).
    mutating func note(_ kind: Problem.Kind, line: Int?, seq: UInt64?, _ message: @autoclosure () -> String) {
        if let index = problems.firstIndex(where: { $0.kind == kind }) {
            problems[index].count += 1
            return
        }
        problems.append(Problem(kind: kind, count: 1, line: line, seq: seq, message: message()))
    }

    /// Counts a record.
    mutating func countRecord() { records += 1 }

    /// Counts a line that is not a record.
    mutating func countForeignLine() { foreignLines += 1 }

    /// Counts a session record.
    mutating func countSession() { sessions += 1 }

    /// Counts a resumed session record that says `lost` events were lost in its gap.
    mutating func countResumption(lost: UInt64) {
        resumedParts += 1
        let (sum, overflow) = eventsLostInGaps.addingReportingOverflow(lost)
        eventsLostInGaps = overflow ? .max : sum
    }

    /// Adds what only the end of the input can tell.
    mutating func finish() {
        guard foreignLines > records && records > 0 && !problems.contains(where: { $0.kind == .mostlyNotRecords }) else { return }
        let message = "\(foreignLines) of \(foreignLines + records) lines are not trace records: this is mostly something else (a log with a few records in it?)"
        note(.mostlyNotRecords, line: nil, seq: nil, message)
    }

    /// Counts lines that were too long to be records (they are not records).
    mutating func countForeignLines(_ count: Int) { foreignLines += count }

    /// This report with what the model noticed while folding the trace
    /// (ids reused while alive), so that one report covers the whole trace.
    public func including(_ state: TraceState) -> TraceIntegrity {
        var copy = self
        if let first = state.firstIDConflict {
            copy.note(.idReused, line: nil, seq: first.seq,
                      "id \(first.id) was created again while alive (ids are unique in a session: an edited, merged or corrupt trace)")
            if let index = copy.problems.firstIndex(where: { $0.kind == .idReused }) { copy.problems[index].count = state.idConflictCount }
        }
        if let first = state.firstUnknownID {
            copy.note(.unknownID, line: nil, seq: first.seq,
                      "#\(first.id) was never created in this session (a trace missing records, or edited)")
            if let index = copy.problems.firstIndex(where: { $0.kind == .unknownID }) { copy.problems[index].count = state.unknownIDCount }
        }
        if let stop = state.stoppedAt {
            copy.note(.tooMuchWork, line: nil, seq: stop.seq,
                      "the trace moves huge subtrees with single events far more often than an app can; following it would take quadratic time, so the analysis stopped here")
        }
        return copy
    }
}

extension TraceIntegrity {
    /// A long span of time in words: `3.2 days`, `26.1 hours`.
    static func describe(_ ns: UInt64) -> String {
        let hours = Double(ns) / 3.6e12
        if hours < 48 { return "\((hours * 10).rounded() / 10) hours" }
        let days = hours / 24
        if days < 3650 { return "\((days * 10).rounded() / 10) days" }
        return "\(Int(days / 365.25)) years"
    }
}
