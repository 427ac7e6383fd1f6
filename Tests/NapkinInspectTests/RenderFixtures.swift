import NapkinTrace
@testable import napkin_inspect

/// Small hand-built traces for the renderer tests: events are added with a time
/// in milliseconds and get consecutive sequence numbers.
struct RenderFixture {
    private(set) var events: [TraceEvent] = []
    private var seq: UInt64 = 0

    init(app: String = "demo", pid: Int = 42) {
        add(0, .sessionStart(SessionInfo(app: app, pid: pid, wallClock: 1_700_000_000_000_000_000)))
    }

    mutating func add(_ ms: Double, _ kind: TraceEvent.Kind) {
        seq += 1
        events.append(TraceEvent(seq: seq, time: UInt64(ms * 1_000_000), kind: kind))
    }

    /// Appends `event` as given: any sequence number and time (up to 2^64 - 1).
    mutating func append(_ event: TraceEvent) {
        events.append(event)
    }

    /// Creates router `id` with interactor `id - 1`.
    mutating func router(_ id: NodeID, _ type: String, at ms: Double) {
        let interactorType = type.hasSuffix("Router") ? String(type.dropLast(6)) + "Interactor" : type + "Interactor"
        add(ms, .interactorCreated(id: id - 1, type: interactorType))
        add(ms, .routerCreated(id: id, type: type, interactor: id - 1, interactorType: interactorType))
    }

    /// Creates router `id` (with interactor `id - 1`) and launches it as an active root.
    mutating func launch(_ id: NodeID, _ type: String, at ms: Double) {
        router(id, type, at: ms)
        add(ms, .launch(router: id))
        add(ms, .activate(interactor: id - 1))
    }

    /// Creates router `id` (with interactor `id - 1`) and attaches it to `parent`, active unless `active` is false.
    mutating func attach(_ id: NodeID, _ type: String, to parent: NodeID, at ms: Double, active: Bool = true) {
        router(id, type, at: ms)
        add(ms, .attach(parent: parent, child: id))
        if active { add(ms, .activate(interactor: id - 1)) }
    }

    /// The same trace, cut after the events at `ms`.
    func until(ms: Double) -> RenderFixture {
        var copy = self
        copy.events = events.filter { Double($0.time) <= ms * 1_000_000 }
        return copy
    }

    var history: TraceHistory {
        var history = TraceHistory()
        for event in events { history.apply(event) }
        return history
    }

    var state: TraceState {
        var state = TraceState()
        for event in events { state.apply(event) }
        return state
    }

    /// The analyzer after the whole trace (finished), with a short grace period.
    func analyzer(grace: UInt64 = 20_000_000) -> TraceAnalyzer {
        var analyzer = TraceAnalyzer(options: .init(grace: grace))
        for event in events { analyzer.consume(event) }
        analyzer.finish()
        return analyzer
    }

    /// A root with a child that comes and goes cleanly (with a task and a
    /// mark), and a second child that is detached and never deallocated.
    static var small: RenderFixture {
        var f = RenderFixture()
        f.launch(2, "RootRouter", at: 1)
        f.attach(4, "HomeRouter", to: 2, at: 10)
        f.add(12, .taskStart(task: 5, owner: 3, label: "poll"))
        f.add(40, .mark(text: "open \"settings\""))
        f.add(50, .detach(parent: 2, child: 4))
        f.add(50, .deactivate(interactor: 3))
        f.add(50, .taskCancel(task: 5))
        f.add(52, .taskEnd(task: 5, outcome: .cancelled))
        f.add(60, .deallocated(id: 4))
        f.add(60, .deallocated(id: 3))
        f.attach(7, "SettingsRouter", to: 2, at: 70)
        f.add(90, .detach(parent: 2, child: 7))
        f.add(90, .deactivate(interactor: 6))
        f.add(130, .sessionEnd(reason: "exit"))
        return f
    }

    /// A parent detached with its child still attached to it, and the child's
    /// task still running after the cancellation request.
    static var leaky: RenderFixture {
        var f = RenderFixture(app: "leaky", pid: 7)
        f.launch(2, "RootRouter", at: 0)
        f.attach(4, "ParentRouter", to: 2, at: 10)
        f.attach(6, "ChildRouter", to: 4, at: 10)
        f.add(20, .taskStart(task: 7, owner: 5, label: "loop"))
        f.add(50, .detach(parent: 2, child: 4))
        f.add(50, .deactivate(interactor: 3))
        f.add(50, .deactivate(interactor: 5))
        f.add(50, .taskCancel(task: 7))
        f.add(100, .sessionEnd(reason: "exit"))
        return f
    }

    /// An app that reports its views: a list under the root, a detail pushed
    /// over it and popped by the Back button but never detached (its view gone,
    /// its router still attached: view-gone-still-attached), a settings screen
    /// detached at 1 s with its view left on screen (view-shown-after-detach
    /// with a view grace period under 3 s, undecided with the default 5 s), and
    /// the list covered by a sheet at 3 s. The trace ends at 4 s.
    static var views: RenderFixture {
        var f = RenderFixture(app: "views", pid: 9)
        f.launch(2, "RootRouter", at: 0)
        f.add(0, .view(router: 2, appearance: .shown))
        f.attach(4, "ListRouter", to: 2, at: 100)
        f.add(100, .view(router: 4, appearance: .shown))
        f.attach(8, "SettingsRouter", to: 2, at: 300)
        f.add(300, .view(router: 8, appearance: .shown))
        f.attach(6, "DetailRouter", to: 4, at: 500)
        f.add(500, .view(router: 4, appearance: .covered))
        f.add(500, .view(router: 6, appearance: .shown))
        f.add(1_000, .view(router: 6, appearance: .removed))
        f.add(1_000, .view(router: 4, appearance: .shown))
        f.add(1_000, .detach(parent: 2, child: 8))
        f.add(1_000, .deactivate(interactor: 7))
        f.add(3_000, .view(router: 4, appearance: .covered))
        f.add(4_000, .sessionEnd(reason: "exit"))
        return f
    }

    /// The trace as NDJSON, as an app would write it.
    var ndjson: String {
        var bytes: [UInt8] = []
        for event in events { TraceEncoder.append(event, to: &bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A root with `count` children attached to it.
    static func wide(_ count: Int) -> RenderFixture {
        var f = RenderFixture(app: "wide")
        f.launch(2, "RootRouter", at: 0)
        for k in 0..<count {
            f.attach(NodeID(4 + 2 * k), "ChildRouter\(k)", to: 2, at: Double(k) + 1)
        }
        return f
    }

    /// A root and a child with hostile names (`root`, `child`), a task with a
    /// hostile label, and a hostile mark: text a diagram must escape.
    static func hostile(root: String, child: String, taskLabel: String, mark: String) -> RenderFixture {
        var f = RenderFixture()
        f.launch(2, root, at: 1)
        f.attach(4, child, to: 2, at: 2, active: false)
        f.add(3, .taskStart(task: 9, owner: 3, label: taskLabel))
        f.add(4, .mark(text: mark))
        return f
    }
}

/// Removes ANSI escape sequences.
func stripANSI(_ text: String) -> String {
    var out = ""
    var inEscape = false
    for ch in text {
        if inEscape {
            if ch == "m" { inEscape = false }
        } else if ch == "\u{1B}" {
            inEscape = true
        } else {
            out.append(ch)
        }
    }
    return out
}
