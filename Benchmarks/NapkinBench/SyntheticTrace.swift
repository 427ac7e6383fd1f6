import NapkinTrace

/// Writes a large, realistic trace: many short-lived subtrees under one root,
/// with tasks, marks and the usual creation/attach/activate/load/detach/
/// deactivate/deinit cycle, so the reader benchmark sees the real event mix.
enum SyntheticTrace {
    /// Appends `cycles` napkin lifecycles (about 19 events each) to `out`.
    static func generate(cycles: Int, into out: inout [UInt8], flushEvery: Int = 1 << 20, flush: ([UInt8]) -> Void) {
        var seq: UInt64 = 0
        var time: UInt64 = 0
        var nextID: UInt64 = 0
        func emit(_ kind: TraceEvent.Kind) {
            seq += 1
            time += 1_700
            TraceEncoder.append(TraceEvent(seq: seq, time: time, kind: kind), to: &out)
            if out.count >= flushEvery {
                flush(out)
                out.removeAll(keepingCapacity: true)
            }
        }
        func id() -> UInt64 { nextID += 1; return nextID }
        emit(.sessionStart(SessionInfo(app: "synthetic", pid: 1, wallClock: 1_795_000_000_000_000_000)))
        let rootInteractor = id(), root = id()
        emit(.interactorCreated(id: rootInteractor, type: "RootInteractor"))
        emit(.routerCreated(id: root, type: "RootRouter", interactor: rootInteractor, interactorType: "RootInteractor"))
        emit(.launch(router: root))
        emit(.activate(interactor: rootInteractor))
        emit(.load(router: root))
        let names = ["Home", "Profile", "Settings", "PitBoard", "Order", "Menu"]
        for cycle in 0..<cycles {
            let name = names[cycle % names.count]
            let interactor = id(), router = id(), task = id()
            emit(.interactorCreated(id: interactor, type: "\(name)Interactor"))
            emit(.routerCreated(id: router, type: "\(name)Router", interactor: interactor, interactorType: "\(name)Interactor"))
            emit(.attach(parent: root, child: router))
            emit(.activate(interactor: interactor))
            emit(.load(router: router))
            emit(.taskStart(task: task, owner: interactor, label: "poller"))
            if cycle % 50 == 0 { emit(.mark(text: "step \(cycle)")) }
            emit(.detach(parent: root, child: router))
            emit(.deactivate(interactor: interactor))
            emit(.taskCancel(task: task))
            emit(.taskEnd(task: task, outcome: .cancelled))
            emit(.deallocated(id: router))
            emit(.deallocated(id: interactor))
        }
        emit(.sessionEnd(reason: "exit"))
        flush(out)
        out.removeAll(keepingCapacity: true)
    }
}
