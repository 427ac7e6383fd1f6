import NapkinTrace

/// Traces of about a million events in shapes chosen to be expensive, next to
/// a normal one of the same size: every command must stay near-linear in
/// time and bounded in memory on each (issue "Verdicts you can gate a
/// release on"). ``HostileBenchmark`` runs the commands on them.
enum HostileShapes {
    /// A generated trace: its name, what it stresses, and a writer.
    struct Shape {
        var name: String
        var stresses: String
        var write: (inout TraceWriter) -> Void
    }

    /// Every shape, each about `events` events.
    static func all(events: Int) -> [Shape] {
        let n = max(1_000, events)
        return [
            Shape(name: "normal", stresses: "the usual lifecycle mix (reference)") { w in
                w.root()
                for cycle in 0..<(n / 13) { w.cycle(cycle) }
            },
            Shape(name: "deep-chain", stresses: "a chain of routers 100,000+ levels deep") { w in
                w.root()
                var parent = w.rootID
                for _ in 0..<(n / 5) { parent = w.child(of: parent, type: "Level") }
            },
            Shape(name: "wide", stresses: "N/10 children of one parent (100,000 at 1M events), then detached") { w in
                w.root()
                var children: [NodeID] = []
                for _ in 0..<(n / 10) { children.append(w.child(of: w.rootID, type: "Row")) }
                for child in children { w.detachAndRelease(child, from: w.rootID) }
            },
            Shape(name: "check-storm", stresses: "1,000 running tasks across (N - 2,000)/2 deactivations (checks multiply)") { w in
                w.root()
                let owner = w.child(of: w.rootID, type: "Busy")
                for _ in 0..<1_000 { w.startTask(owner: owner - 1) }
                for _ in 0..<((n - 2_000) / 2) {
                    w.emit(.deactivate(interactor: owner - 1))
                    w.emit(.activate(interactor: owner - 1))
                }
            },
            Shape(name: "id-collisions", stresses: "ids 2^40 apart (they collided in an unseeded hash)") { w in
                w.root()
                w.idStride = 1 << 40
                for cycle in 0..<(n / 13) { w.cycle(cycle) }
            },
            Shape(name: "long-names", stresses: "type names and marks of 1 KB") { w in
                w.root()
                w.longNames = true
                for cycle in 0..<(n / 13) { w.cycle(cycle) }
            },
            Shape(name: "subtree-moves", stresses: "a 5,000-router subtree moved by single events") { w in
                w.root()
                let top = w.child(of: 0, type: "Top", attach: false)
                var parent = top
                for _ in 0..<5_000 { parent = w.child(of: parent, type: "Inner") }
                while w.count < n {
                    w.emit(.attach(parent: w.rootID, child: top))
                    w.emit(.detach(parent: w.rootID, child: top))
                }
            },
        ]
    }
}

/// Writes a generated trace: ids, sequence numbers and times, buffered.
struct TraceWriter {
    private(set) var out: [UInt8] = []
    private(set) var count = 0
    private var seq: UInt64 = 0
    private var time: UInt64 = 0
    private var nextID: UInt64 = 0
    var idStride: UInt64 = 1
    var longNames = false
    private(set) var rootID: NodeID = 0
    let flush: ([UInt8]) -> Void

    init(flush: @escaping ([UInt8]) -> Void) {
        self.flush = flush
        emit(.sessionStart(SessionInfo(app: "hostile", pid: 1, wallClock: 1_795_000_000_000_000_000)))
    }

    mutating func emit(_ kind: TraceEvent.Kind) {
        seq += 1
        time += 1_700
        count += 1
        TraceEncoder.append(TraceEvent(seq: seq, time: time, kind: kind), to: &out)
        if out.count >= 1 << 20 {
            flush(out)
            out.removeAll(keepingCapacity: true)
        }
    }

    mutating func finish() {
        emit(.sessionEnd(reason: "exit"))
        flush(out)
        out.removeAll()
    }

    private mutating func id() -> NodeID {
        nextID += idStride
        return nextID
    }

    private func name(_ base: String) -> String {
        longNames ? base + String(repeating: "X", count: 1_000) : base
    }

    /// A launched, active, loaded root.
    mutating func root() {
        rootID = child(of: 0, type: "Root", attach: false)
        emit(.launch(router: rootID))
    }

    /// A router (and interactor) attached under `parent` (activated and loaded); returns the router's id.
    mutating func child(of parent: NodeID, type: String, attach: Bool = true) -> NodeID {
        let interactor = id(), router = id()
        emit(.interactorCreated(id: interactor, type: name(type + "Interactor")))
        emit(.routerCreated(id: router, type: name(type + "Router"), interactor: interactor, interactorType: name(type + "Interactor")))
        if attach {
            emit(.attach(parent: parent, child: router))
            emit(.activate(interactor: interactor))
        }
        return router
    }

    mutating func startTask(owner: NodeID) {
        emit(.taskStart(task: id(), owner: owner, label: "work"))
    }

    mutating func detachAndRelease(_ router: NodeID, from parent: NodeID) {
        emit(.detach(parent: parent, child: router))
        emit(.deallocated(id: router))
    }

    /// One napkin's whole life: created, attached, a task, detached, deallocated.
    mutating func cycle(_ n: Int) {
        let router = child(of: rootID, type: ["Home", "Menu", "Order"][n % 3])
        let interactor = router - idStride, task = id()
        emit(.load(router: router))
        emit(.taskStart(task: task, owner: interactor, label: name("poller")))
        if n % 50 == 0 { emit(.mark(text: name("step"))) }
        emit(.detach(parent: rootID, child: router))
        emit(.deactivate(interactor: interactor))
        emit(.taskCancel(task: task))
        emit(.taskEnd(task: task, outcome: .cancelled))
        emit(.deallocated(id: router))
        emit(.deallocated(id: interactor))
    }
}
