import NapkinTrace
import RuntimeCounters

/// The emit path alone: events stamped and queued by the calling thread, then
/// encoded and written by the background writer to /dev/null, without the
/// framework around them. Reports the caller's time per event, the process's
/// CPU time per event (the writer's encoding included) and heap allocations
/// per event once every type name is known.
enum EmitBenchmark {
    static func run(events: Int, rounds: Int) {
        let sink = try! NDJSONTraceSink(path: "/dev/null")
        // A queue that holds a whole round: the caller never drops, whatever the writer's pace.
        let tracer = Tracer(sink: sink, app: "napkin-bench", capacity: events + 1_024)
        let location = CodeLocation(fileID: "Bench/EmitBenchmark.swift", line: 42)
        // The framework's event mix of one cycle, with the names a real app has.
        func cycle(_ i: UInt64) {
            let id = i &* 4
            tracer.emit(.interactorCreated(id: id, type: "HomeInteractor"))
            tracer.emit(.routerCreated(id: id + 1, type: "HomeRouter", interactor: id, interactorType: "HomeInteractor"), at: location)
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
        }
        let perCycle = 12
        let cycles = max(1, events / perCycle)
        // Warm up: the queue and the writer's buffers reach their size.
        for i in 0..<UInt64(cycles) { cycle(i) }
        tracer.flush()
        var wall: [Double] = [], cpu: [Double] = [], allocations: [Double] = []
        for _ in 0..<rounds {
            let a0 = runtime_counters_allocations()
            let w0 = now(), c0 = cpuTime()
            for i in 0..<UInt64(cycles) { cycle(i) }
            let w1 = now()
            tracer.flush()
            let c1 = cpuTime()
            let n = Double(cycles * perCycle)
            wall.append(Double(w1 - w0) / n)
            cpu.append(Double(c1 - c0) / n)
            allocations.append(Double(runtime_counters_allocations() - a0) / n)
        }
        let dropped = tracer.droppedCount
        tracer.shutdown(reason: "benchmark")
        print("emit path: \(cycles * perCycle) events per round, \(rounds) rounds, NDJSON to /dev/null")
        print(String(format: "  caller:  %6.1f ns per event (stamp and queue, while the writer drains on another thread)", median(wall)))
        print(String(format: "  process: %6.1f ns CPU per event (the encoding and writing included)", median(cpu)))
        if runtime_counters_available() != 0 {
            print(String(format: "  heap allocations per event: %.4f", median(allocations)))
            print(String(format: "EMIT_ALLOCS_PER_EVENT %.4f", median(allocations)))
        }
        print("  events dropped: \(dropped)")
        print(String(format: "EMIT_NS_PER_EVENT %.1f", median(wall)))
        print(String(format: "EMIT_CPU_NS_PER_EVENT %.1f", median(cpu)))
    }
}
