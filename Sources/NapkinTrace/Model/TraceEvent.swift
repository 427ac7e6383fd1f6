/// One lifecycle transition recorded in a trace.
///
/// Every event carries a sequence number that is strictly increasing within a
/// session and agrees with the order in which the transitions happened, and a
/// monotonic timestamp in nanoseconds since the session's origin (the
/// ``SessionInfo/wallClock`` of the session record).
///
/// Type names are written once, when a router or interactor is created; every
/// later event refers to nodes by their ``NodeID`` only.
public struct TraceEvent: Sendable, Hashable {
    /// The event's position in the session; starts at 1 and never repeats.
    public var seq: UInt64
    /// Nanoseconds since the session's monotonic origin.
    public var time: UInt64
    /// What happened.
    public var kind: Kind
    /// The line of the app's code that made it happen, when the trace says
    /// (router creation, attach, detach, task start; the `src` field).
    public var location: CodeLocation? {
        _read { yield storedLocation }
        _modify { yield &storedLocation }
    }
    /// The storage of ``location``, under another name so that the struct
    /// keeps its implicit memberwise initializer, which the public one
    /// calls: an initializer that assigns the fields one by one builds the
    /// event in a temporary and copies it (retaining its strings) on every
    /// event, where the memberwise one builds it in place.
    private var storedLocation: CodeLocation?

    /// The transitions a trace records. See `docs/trace-format.md` for the
    /// NDJSON spelling of each case.
    public enum Kind: Sendable, Hashable {
        /// The first record of every session.
        indirect case sessionStart(SessionInfo)
        /// An interactor was seen for the first time (written once per interactor).
        case interactorCreated(id: NodeID, type: String)
        /// A router was created; it owns the given interactor.
        case routerCreated(id: NodeID, type: String, interactor: NodeID, interactorType: String)
        /// `child` was appended to `parent`'s children.
        case attach(parent: NodeID, child: NodeID)
        /// `child` was removed from `parent`'s children.
        case detach(parent: NodeID, child: NodeID)
        /// An interactor became active (`didBecomeActive()` is about to run).
        case activate(interactor: NodeID)
        /// An interactor started resigning (`willResignActive()` is about to run).
        case deactivate(interactor: NodeID)
        /// The hook the interactor's latest `activate` or `deactivate` started
        /// (`didBecomeActive()` or `willResignActive()`) returned. Written
        /// by sessions of format revision 1 and later (``SessionInfo/revision``).
        case hookEnd(interactor: NodeID)
        /// A router finished `didLoad()`.
        case load(router: NodeID)
        /// A router became the root of a tree (`launch()` / `launch(from:)`).
        case launch(router: NodeID)
        /// A viewable router's view appeared, or disappeared (covered, or removed from its parent).
        case view(router: NodeID, appearance: ViewAppearance)
        /// A task bound to an interactor's active scope started.
        case taskStart(task: NodeID, owner: NodeID, label: String?)
        /// The framework asked a bound task to cancel (its owner deactivated or went away).
        case taskCancel(task: NodeID)
        /// A bound task returned.
        case taskEnd(task: NodeID, outcome: TaskOutcome)
        /// A router or interactor was deallocated.
        case deallocated(id: NodeID)
        /// A retainer search ran in the app for this router or interactor,
        /// alive past its grace period: what holds it (``Retainers``).
        /// Written by sessions of format revision 2 and later.
        indirect case retained(id: NodeID, retainers: Retainers)
        /// Free text the app wrote with ``NapkinTrace/mark(_:)``.
        case mark(text: String)
        /// Events the app produced faster than the sink could write them were
        /// dropped; their sequence numbers, `firstSeq...lastSeq`, are missing.
        case dropped(count: UInt64, firstSeq: UInt64, lastSeq: UInt64)
        /// The last record of a session that ended cleanly.
        case sessionEnd(reason: String)
    }
}

extension TraceEvent {
    /// An event that stands for none, to initialise a variable that is
    /// then given each event in turn.
    package static var placeholder: TraceEvent { TraceEvent(seq: 0, time: 0, kind: .load(router: 0), location: nil) }

    /// Creates an event.
    public init(seq: UInt64, time: UInt64, kind: Kind, location: CodeLocation? = nil) {
        self.init(seq: seq, time: time, kind: kind, storedLocation: location)
    }
}

/// Identifies a router, an interactor or a bound task within one session.
///
/// Routers, interactors and tasks share one id space, so an id names exactly one
/// thing in a session. Id 0 is never used.
public typealias NodeID = UInt64

/// How a bound task ended.
public enum TaskOutcome: String, Sendable, Hashable, CaseIterable {
    /// The work returned without having been cancelled.
    case completed
    /// The work returned after cancellation had been requested.
    case cancelled
}

/// The facts written once, in the first record of a session.
///
/// A trace sent over a socket (`NAPKIN_TRACE=tcp:HOST:PORT` or
/// `unix:PATH`) can come in several *parts*: when the inspector was not
/// there, or went away, the app keeps going and, on the next connection,
/// starts over with a *resumed* session record. It has the same ``app``,
/// ``pid`` and ``wallClock`` as the original one (that is what links the
/// parts), a ``part`` above 1, how many events were ``lost`` since the
/// previous part, and how many records follow it as a *replay* of the live
/// tree (``replayCount``): the original records, with their original `seq`
/// and `t`, that make up every router, interactor and running task alive at
/// that moment. See `docs/trace-format.md`, "Parts".
public struct SessionInfo: Sendable, Hashable {
    /// Version of the trace format; this module writes and reads version 1.
    public var version: Int
    /// The process name of the traced app.
    public var app: String
    /// The process id of the traced app.
    public var pid: Int
    /// Wall-clock time of the monotonic origin, as Unix time in nanoseconds.
    public var wallClock: Int64
    /// The revision of format v1 the writer follows (the `rev` field; 0 when
    /// absent): what it promises beyond the records every v1 trace has. From
    /// revision 1 (``TraceFormat/revision``), every `didBecomeActive()` and
    /// `willResignActive()` that returns writes a `hook_end` record, so a
    /// missing one means the hook is still running.
    public var revision: Int
    /// Which part of the session this record starts: 1 for the session's
    /// beginning (the `part` field is then absent), 2 and up for a session
    /// resumed after a gap.
    public var part: Int
    /// For a resumed part: the events of the session that never reached an
    /// inspector since the previous part began (discarded while no inspector
    /// was connected, or in a write that failed). Some of them may be in the
    /// replay: those that still make up the live tree. 0 for part 1.
    public var lost: UInt64
    /// For a resumed part: how many records right after this one replay the
    /// live tree (with their original `seq` and `t`). 0 for part 1.
    public var replayCount: Int

    /// Creates a session record (``part`` 1 unless given, ``revision`` 0:
    /// a record that promises nothing beyond the first v1 traces).
    public init(version: Int = TraceFormat.version, app: String, pid: Int, wallClock: Int64,
                revision: Int = 0, part: Int = 1, lost: UInt64 = 0, replayCount: Int = 0) {
        self.version = version
        self.app = app
        self.pid = pid
        self.wallClock = wallClock
        self.revision = revision
        self.part = part
        self.lost = lost
        self.replayCount = replayCount
    }

    /// Whether the session writes a `hook_end` record whenever a lifecycle
    /// hook returns (``revision`` 1 and later): only then does a hook
    /// without one still run. Older traces never write them.
    public var recordsHookEnds: Bool { revision >= 1 }

    /// Whether this record resumes a session after a gap (``part`` above 1).
    public var isResumed: Bool { part > 1 }

    /// Whether this record resumes the session `earlier` started or resumed:
    /// a later part of the same process's session (same app, pid and wall-clock origin).
    public func resumes(_ earlier: SessionInfo) -> Bool {
        part > earlier.part && app == earlier.app && pid == earlier.pid && wallClock == earlier.wallClock
    }

    /// `part 2, 123 events lost` (`part 3, no events lost`) for a resumed
    /// part, for a heading; `nil` for part 1.
    public var partSummary: String? {
        guard isResumed else { return nil }
        let events = lost == 0 ? "no events" : lost == 1 ? "1 event" : "\(lost) events"
        return "part \(part), \(events) lost"
    }
}

/// Constants of the NDJSON trace format.
public enum TraceFormat {
    /// The format version this module writes, and the highest it reads.
    public static let version = 1
    /// The revision of format v1 this module writes (the session record's
    /// `rev`): 1, sessions that write a `hook_end` record when a lifecycle
    /// hook returns. Readers take a session without `rev` as revision 0.
    public static let revision = 1
}
