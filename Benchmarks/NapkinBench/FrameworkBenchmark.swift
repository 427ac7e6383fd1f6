import Foundation
import Napkin
import NapkinTrace
import RuntimeCounters

/// The framework's hot path: attach (activate, load) and detach (deactivate)
/// of a child under a launched root, with tracing off and with the NDJSON
/// sink on, measured in alternating rounds of the same run.
enum FrameworkBenchmark {
    final actor BenchInteractor: Interactable {
        nonisolated let lifecycle = InteractorLifecycle()
    }

    @MainActor
    final class BenchRouter: Router<BenchInteractor> {}

    @MainActor
    final class BenchView: ViewControllable {}

    @MainActor
    final class BenchRoot: LaunchRouter<BenchInteractor, BenchView> {}

    struct Sample {
        var wall: Double
        var cpu: Double
    }

    /// Runs `count` create/attach/detach/release cycles; returns nanoseconds
    /// per cycle of wall time and of the process's CPU time (user + system,
    /// all threads). CPU time is far less disturbed by other processes on a
    /// shared machine; wall time is what the app feels.
    @MainActor
    static func cycles(_ count: Int, root: BenchRoot) async -> Sample {
        let wallStart = now()
        let cpuStart = cpuTime()
        for _ in 0..<count {
            let child = BenchRouter(interactor: BenchInteractor())
            await root.attachChild(child)
            await root.detachChild(child)
        }
        return Sample(wall: Double(now() - wallStart) / Double(count), cpu: Double(cpuTime() - cpuStart) / Double(count))
    }

    /// What one cycle costs besides time, averaged over a counted run.
    struct Counts {
        /// Jobs handed to another thread: hops onto an actor, back to the main actor, new tasks.
        var hops: Double { mainHops + otherHops }
        var mainHops: Double
        var otherHops: Double
        /// Heap allocations of the whole process (the trace writer's included).
        var allocations: Double
        /// Trace events emitted (0 with tracing off).
        var events: Double
    }

    /// Runs `count` cycles with tracing off (`tracer` nil) or recording to
    /// `tracer`, counting hops, allocations and events (RuntimeCounters).
    @MainActor
    static func counted(_ count: Int, root: BenchRoot, tracer: Tracer?) async -> Counts {
        if let tracer { TraceContext.beginRecording(); tracer.flush() }
        defer { if tracer != nil { TraceContext.endRecording() } }
        let seq0 = tracer?.sequenceNumber ?? 0
        let main0 = runtime_counters_main_enqueues(), other0 = runtime_counters_other_enqueues()
        let allocations0 = runtime_counters_allocations()
        if let tracer {
            _ = await TraceContext.$recording.withValue(tracer) { await cycles(count, root: root) }
        } else {
            _ = await cycles(count, root: root)
        }
        let n = Double(count)
        return Counts(mainHops: Double(runtime_counters_main_enqueues() - main0) / n,
                      otherHops: Double(runtime_counters_other_enqueues() - other0) / n,
                      allocations: Double(runtime_counters_allocations() - allocations0) / n,
                      events: Double((tracer?.sequenceNumber ?? 0) - seq0) / n)
    }

    @MainActor
    static func run(cycles count: Int, rounds: Int, offOnly: Bool = false) async {
        #if NAPKIN_NO_TRACE_HOOKS
        let variant = "hooks removed"
        #else
        let variant = "hooks compiled in"
        #endif
        let root = BenchRoot(interactor: BenchInteractor(), viewController: BenchView())
        await root.launch()
        _ = await cycles(count / 10, root: root) // warm up

        let sink = try! NDJSONTraceSink(path: "/dev/null")
        let tracer = Tracer(sink: sink, app: "napkin-bench")
        var off: [Sample] = []
        var on: [Sample] = []
        for _ in 0..<rounds {
            off.append(await cycles(count, root: root))
            #if !NAPKIN_NO_TRACE_HOOKS
            if offOnly { continue }
            TraceContext.beginRecording()
            let traced = await TraceContext.$recording.withValue(tracer) {
                await cycles(count, root: root)
            }
            TraceContext.endRecording()
            on.append(traced)
            #endif
        }
        let countedOff = await counted(count, root: root, tracer: nil)
        #if NAPKIN_NO_TRACE_HOOKS
        let countedOn: Counts? = nil
        #else
        let countedOn: Counts? = offOnly ? nil : await counted(count, root: root, tracer: tracer)
        #endif
        tracer.shutdown(reason: "benchmark")
        let offWall = median(off.map(\.wall)), offCPU = median(off.map(\.cpu))
        print("framework cycle (\(variant)): create child, attach (activate, load), detach (deactivate), release")
        print(String(format: "  tracing off:     %8.0f ns/cycle wall, %8.0f ns/cycle CPU (median of %d rounds of %d)", offWall, offCPU, rounds, count))
        if !on.isEmpty {
            let onWall = median(on.map(\.wall)), onCPU = median(on.map(\.cpu))
            print(String(format: "  NDJSON sink on:  %8.0f ns/cycle wall, %8.0f ns/cycle CPU (the background writer included)", onWall, onCPU))
            print(String(format: "  ratio on/off:    %8.2fx wall, %.2fx CPU (target: at most 1.5x)", onWall / offWall, onCPU / offCPU))
            print("  events dropped while on: \(tracer.droppedCount)")
        }
        if runtime_counters_available() != 0 {
            print(String(format: "  per cycle, off:  %5.2f hops (%.2f to the main actor, %.2f to other threads), %5.2f heap allocations",
                         countedOff.hops, countedOff.mainHops, countedOff.otherHops, countedOff.allocations))
            print(String(format: "FRAMEWORK_HOPS_PER_CYCLE %.2f", countedOff.hops))
            print(String(format: "FRAMEWORK_ALLOCS_PER_CYCLE %.2f", countedOff.allocations))
            if let on = countedOn {
                let perEvent = (on.allocations - countedOff.allocations) / on.events
                print(String(format: "  per cycle, on:   %5.2f hops, %5.2f heap allocations, %.1f events: %.3f allocations per event (the writer's included)",
                             on.hops, on.allocations, on.events, perEvent))
                print(String(format: "FRAMEWORK_EVENTS_PER_CYCLE %.1f", on.events))
                print(String(format: "FRAMEWORK_ALLOCS_PER_EVENT %.3f", perEvent))
            }
        } else {
            print("  hops and allocations per cycle: not counted on this platform (Linux with glibc only)")
        }
        print("FRAMEWORK_OFF_WALL_NS \(Int(offWall))")
        print("FRAMEWORK_OFF_CPU_NS \(Int(offCPU))")
    }
}
