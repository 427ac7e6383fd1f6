// Building traces event by event, and the small trees several suites start from.

import NapkinTrace

/// Builds a trace event by event with increasing sequence numbers; time
/// advances by `step` ns per event unless given.
struct TraceBuilder {
    private(set) var events: [TraceEvent] = []
    private(set) var seq: UInt64 = 0
    private(set) var time: UInt64 = 0
    var step: UInt64 = 1_000_000
    /// Whether the session records hook ends (format revision 1): then the
    /// helpers below write a `hook_end` after each `activate` and `deactivate`.
    let recordsHookEnds: Bool

    /// Starts a session of format revision `revision` (0: written before `hook_end` existed).
    init(app: String = "test", revision: Int = 0) {
        recordsHookEnds = revision >= 1
        add(.sessionStart(SessionInfo(app: app, pid: 1, wallClock: 1_700_000_000_000_000_000, revision: revision)), at: 0)
    }

    /// Appends the end of interactor `id`'s running hook, if the session records hook ends.
    mutating func hookEnd(_ id: NodeID) {
        if recordsHookEnds { add(.hookEnd(interactor: id)) }
    }

    /// Appends `kind`, at `time` if given (else `step` after the previous
    /// event), made at `location` if given (`src`).
    @discardableResult
    mutating func add(_ kind: TraceEvent.Kind, at time: UInt64? = nil, location: CodeLocation? = nil) -> TraceEvent {
        seq += 1
        self.time = time ?? (seq == 1 ? 0 : self.time + step)
        let event = TraceEvent(seq: seq, time: self.time, kind: kind, location: location)
        events.append(event)
        return event
    }

    /// Lets `ns` of trace time pass before the next event.
    mutating func wait(_ ns: UInt64) { time += ns }

    /// Creates an interactor `id - 1` and router `id` of types `<name>Interactor` / `<name>Router`.
    mutating func router(_ id: NodeID, _ name: String) {
        add(.interactorCreated(id: id - 1, type: name + "Interactor"))
        add(.routerCreated(id: id, type: name + "Router", interactor: id - 1, interactorType: name + "Interactor"))
    }

    /// Creates and launches root router `id` (interactor `id - 1`), activated and loaded.
    mutating func root(_ id: NodeID, _ name: String = "Root") {
        router(id, name)
        add(.launch(router: id))
        add(.activate(interactor: id - 1))
        hookEnd(id - 1)
        add(.load(router: id))
    }

    /// Attaches router `child` (interactor `child - 1`) to `parent`, activates and loads it.
    mutating func attach(_ child: NodeID, to parent: NodeID) {
        add(.attach(parent: parent, child: child))
        add(.activate(interactor: child - 1))
        hookEnd(child - 1)
        add(.load(router: child))
    }

    /// Detaches router `child` from `parent` and deactivates its interactor.
    mutating func detach(_ child: NodeID, from parent: NodeID) {
        add(.detach(parent: parent, child: child))
        add(.deactivate(interactor: child - 1))
        hookEnd(child - 1)
    }

    /// Deallocates router `id` and its interactor `id - 1`.
    mutating func release(_ id: NodeID) {
        add(.deallocated(id: id))
        add(.deallocated(id: id - 1))
    }

    /// Folds every event up to `seq` into a fresh state.
    func state(upTo seq: UInt64 = .max) -> TraceState {
        var state = TraceState()
        for event in events where event.seq <= seq { state.apply(event) }
        return state
    }
}

extension TraceBuilder {
    /// `RootRouter#2` (interactor #1) with `HomeRouter#4` (interactor #3)
    /// attached, both active and loaded, at t ≈ 0.
    static func homeTree(revision: Int = 0) -> TraceBuilder {
        var b = TraceBuilder(revision: revision)
        b.root(2)
        b.child(4, "Home", of: 2)
        return b
    }

    /// ``homeTree()`` with `ProfileRouter#6` (interactor #5) attached to Home.
    static func homeProfileTree(revision: Int = 0) -> TraceBuilder {
        var b = homeTree(revision: revision)
        b.child(6, "Profile", of: 4)
        return b
    }

    /// Creates router `id` (interactor `id - 1`) of types `<name>Router` /
    /// `<name>Interactor`, and attaches, activates and loads it under `parent`.
    mutating func child(_ id: NodeID, _ name: String, of parent: NodeID) {
        router(id, name)
        attach(id, to: parent)
    }

    /// A chain root → 1 → 2 → ... of `depth` routers (router `2i + 2`,
    /// interactor `2i + 1`, types `R` and `I`), each active, then `extra` events.
    static func chain(depth: Int, then extra: [TraceEvent.Kind] = []) -> [TraceEvent] {
        var events: [TraceEvent] = []
        var seq: UInt64 = 0
        func add(_ kind: TraceEvent.Kind) {
            seq += 1
            events.append(TraceEvent(seq: seq, time: seq * 1_000, kind: kind))
        }
        add(.sessionStart(SessionInfo(app: "deep", pid: 1, wallClock: 0)))
        for i in 0..<UInt64(depth) {
            let interactor = 2 * i + 1, router = 2 * i + 2
            add(.interactorCreated(id: interactor, type: "I"))
            add(.routerCreated(id: router, type: "R", interactor: interactor, interactorType: "I"))
            if i == 0 { add(.launch(router: router)) } else { add(.attach(parent: router - 2, child: router)) }
            add(.activate(interactor: interactor))
        }
        for kind in extra { add(kind) }
        return events
    }
}

extension UInt64 {
    /// One second of trace time, in nanoseconds.
    static let second: UInt64 = 1_000_000_000
}
