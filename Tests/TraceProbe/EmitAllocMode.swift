import Napkin
import NapkinTrace
import RuntimeCounters
import NapkinLibc

/// A leaf napkin with no work of its own: its cycle is the framework's alone.
final actor LeafInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

@MainActor final class LeafRouter: Router<LeafInteractor> {}

/// The `emit-alloc` mode: heap allocations of `cycles` create/attach/detach/
/// release cycles of a leaf under a launched root, with tracing off and
/// recorded to an NDJSON file, in three alternating rounds (the fewest of
/// each count) (the background writer's work included:
/// the counters see every thread). Prints `off-allocations`,
/// `on-allocations` and `events`; the difference over the events is what the
/// emit path allocates per event. Then the emit path alone (no framework
/// around it): `direct-events` events, written in `direct-batches` flushes,
/// and their `direct-allocations` (the fewest of three rounds).
/// Returns the routers to keep.
@MainActor
func emitAllocations(cycles: Int) async -> [AnyObject] {
    guard runtime_counters_available() != 0 else {
        print("unsupported")
        return []
    }
    guard TraceContext.current() == nil else { fail("emit-alloc needs tracing off (unset NAPKIN_TRACE)") }
    let directory = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
    let path = directory + "/napkin-emit-alloc-\(getpid()).ndjson"
    defer { unlink(path) }
    let tracer = Tracer(sink: try! NDJSONTraceSink(path: path), app: "emit-alloc")
    let root = RootRouter(interactor: RootInteractor(), viewController: RootView())
    await root.launch()

    func run(_ count: Int) async {
        for i in 0..<count {
            let child = LeafRouter(interactor: LeafInteractor())
            await root.attachChild(child)
            await root.detachChild(child)
            // Keep the queue well under its bound: no drop, and the writer's work is counted.
            if i % 500 == 499, let traced = TraceContext.current() { traced.flush() }
        }
    }
    func recorded(_ count: Int) async {
        await TraceContext.$recording.withValue(tracer) { await run(count) }
        tracer.flush()
    }

    // Warm up both ways: every type is named, every buffer has its size.
    await run(cycles / 10 + 100)
    TraceContext.beginRecording()
    await recorded(cycles / 10 + 100)

    // Alternating rounds; the fewest of each: the runtime's own occasional
    // allocations (a new worker thread) land in some rounds, not in all.
    var off = UInt64.max, on = UInt64.max, events: UInt64 = 0
    for _ in 0..<3 {
        let off0 = runtime_counters_allocations()
        await run(cycles)
        off = min(off, runtime_counters_allocations() - off0)

        let seq0 = tracer.sequenceNumber
        let on0 = runtime_counters_allocations()
        await recorded(cycles)
        on = min(on, runtime_counters_allocations() - on0)
        events = tracer.sequenceNumber - seq0
    }
    TraceContext.endRecording()

    // The emit path alone, without the framework's hops around it (whose
    // runtime allocations vary a little from round to round): the events of
    // a cycle, stamped, queued, encoded and written, flushed every 700.
    let location = CodeLocation(fileID: "TraceProbe/EmitAllocMode.swift", line: 1)
    func emitCycle(_ i: UInt64) {
        let id = 1_000_000 + i * 3
        tracer.emit(.interactorCreated(id: id, type: "LeafInteractor"))
        tracer.emit(.routerCreated(id: id + 1, type: "LeafRouter", interactor: id, interactorType: "LeafInteractor"), at: location)
        tracer.emit(.attach(parent: 1, child: id + 1), at: location)
        tracer.emit(.activate(interactor: id))
        tracer.emit(.taskStart(task: id + 2, owner: id, label: "updates"), at: location)
        tracer.emit(.load(router: id + 1))
        tracer.emit(.detach(parent: 1, child: id + 1), at: location)
        tracer.emit(.deactivate(interactor: id))
        tracer.emit(.taskCancel(task: id + 2))
        tracer.emit(.taskEnd(task: id + 2, outcome: .cancelled))
        tracer.emit(.deallocated(id: id + 1))
        tracer.emit(.deallocated(id: id))
        if i % 64 == 63 { tracer.flush() }
    }
    // While loops: a debug build's range iterator allocates on each step.
    var i: UInt64 = 0
    while i < UInt64(cycles) { emitCycle(i); i += 1 }
    tracer.flush()
    // Three rounds, the fewest: on a busy machine the runtime's own
    // allocations on other threads (a worker woken, a timer) land in some
    // rounds, and the counters see every thread.
    var direct = UInt64.max, directEvents: UInt64 = 0
    for _ in 0..<3 {
        let direct0 = runtime_counters_allocations(), directSeq0 = tracer.sequenceNumber
        i = 0
        while i < UInt64(cycles) { emitCycle(i); i += 1 }
        tracer.flush()
        direct = min(direct, runtime_counters_allocations() - direct0)
        directEvents = tracer.sequenceNumber - directSeq0
    }
    tracer.shutdown(reason: "done")

    print("cycles \(cycles)")
    print("off-allocations \(off)")
    print("on-allocations \(on)")
    print("events \(events)")
    print("direct-events \(directEvents)")
    print("direct-batches \(cycles / 64 + 1)")
    print("direct-allocations \(direct)")
    print("dropped \(tracer.droppedCount)")
    return [root]
}
