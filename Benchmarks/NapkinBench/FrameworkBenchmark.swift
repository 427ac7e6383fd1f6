import Foundation
import Napkin
import NapkinTrace
import RuntimeCounters

/// The framework's hot path: attach (activate, load) and detach (deactivate)
/// of a child under a launched root, with tracing off and with the NDJSON
/// sink on, measured in alternating rounds of the same run, for two kinds of
/// child:
/// - *default hooks*: an interactor that implements no hook. Its transitions
///   need no hop to its actor (see `DefaultHooks` in the framework): the
///   cycle is the framework's own work.
/// - *with hooks*: an interactor that implements `didBecomeActive` and
///   `willResignActive`, as most do: each transition hops to its actor and
///   back (four hops a cycle), which is most of the cycle's time.
enum FrameworkBenchmark {
    final actor BenchInteractor: Interactable {
        nonisolated let lifecycle = InteractorLifecycle()
    }

    final actor HookedInteractor: Interactable {
        nonisolated let lifecycle = InteractorLifecycle()
        private var transitions = 0

        func didBecomeActive() async { transitions += 1 }
        func willResignActive() async { transitions += 1 }
    }

    @MainActor
    final class BenchRouter: Router<BenchInteractor> {}

    @MainActor
    final class HookedRouter: Router<HookedInteractor> {}

    @MainActor
    final class BenchView: HeadlessViewControllable {}

    @MainActor
    final class BenchRoot: LaunchRouter<BenchInteractor, BenchView> {}

    /// The child a cycle creates.
    enum Child: String, CaseIterable {
        case defaultHooks = "default hooks"
        case withHooks = "with hooks"

        /// The prefix of the machine-readable lines.
        var key: String { self == .defaultHooks ? "FRAMEWORK" : "FRAMEWORK_HOOKED" }
    }

    struct Sample {
        var wall: Double
        var cpu: Double
    }

    /// Runs `count` create/attach/detach/release cycles; returns nanoseconds
    /// per cycle of wall time and of the process's CPU time (user + system,
    /// all threads). CPU time is far less disturbed by other processes on a
    /// shared machine; wall time is what the app feels.
    @MainActor
    static func cycles(_ count: Int, of child: Child, root: BenchRoot) async -> Sample {
        let wallStart = now()
        let cpuStart = cpuTime()
        switch child {
        case .defaultHooks:
            for _ in 0..<count {
                let child = BenchRouter(interactor: BenchInteractor())
                await root.attachChild(child)
                await root.detachChild(child)
            }
        case .withHooks:
            for _ in 0..<count {
                let child = HookedRouter(interactor: HookedInteractor())
                await root.attachChild(child)
                await root.detachChild(child)
            }
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
    static func counted(_ count: Int, of child: Child, root: BenchRoot, tracer: Tracer?) async -> Counts {
        if let tracer { TraceContext.beginRecording(); tracer.flush() }
        defer { if tracer != nil { TraceContext.endRecording() } }
        let seq0 = tracer?.sequenceNumber ?? 0
        let main0 = runtime_counters_main_enqueues(), other0 = runtime_counters_other_enqueues()
        let allocations0 = runtime_counters_allocations()
        if let tracer {
            _ = await TraceContext.$recording.withValue(tracer) { await cycles(count, of: child, root: root) }
        } else {
            _ = await cycles(count, of: child, root: root)
        }
        let n = Double(count)
        return Counts(mainHops: Double(runtime_counters_main_enqueues() - main0) / n,
                      otherHops: Double(runtime_counters_other_enqueues() - other0) / n,
                      allocations: Double(runtime_counters_allocations() - allocations0) / n,
                      events: Double((tracer?.sequenceNumber ?? 0) - seq0) / n)
    }

    @MainActor
    static func run(cycles count: Int, rounds: Int, offOnly: Bool = false, only: Child? = nil) async {
        #if NAPKIN_NO_TRACE_HOOKS
        let variant = "hooks removed"
        let tracing = false
        #else
        let variant = "hooks compiled in"
        let tracing = !offOnly
        #endif
        let root = BenchRoot(interactor: BenchInteractor(), viewController: BenchView())
        await root.launch()
        let sink = try! NDJSONTraceSink(path: "/dev/null")
        let tracer = Tracer(sink: sink, app: "napkin-bench")
        print("framework cycle (\(variant)): create child, attach (activate, load), detach (deactivate), release")
        for child in Child.allCases where only == nil || only == child {
            _ = await cycles(count / 10, of: child, root: root) // warm up (and learn the child's hooks)
            var off: [Sample] = []
            var on: [Sample] = []
            for _ in 0..<rounds {
                off.append(await cycles(count, of: child, root: root))
                guard tracing else { continue }
                TraceContext.beginRecording()
                let traced = await TraceContext.$recording.withValue(tracer) {
                    await cycles(count, of: child, root: root)
                }
                TraceContext.endRecording()
                on.append(traced)
            }
            let countedOff = await counted(count, of: child, root: root, tracer: nil)
            let countedOn: Counts? = tracing ? await counted(count, of: child, root: root, tracer: tracer) : nil
            let offWall = median(off.map(\.wall)), offCPU = median(off.map(\.cpu))
            print("  child: \(child.rawValue)")
            print(String(format: "    tracing off:     %8.0f ns/cycle wall, %8.0f ns/cycle CPU (median of %d rounds of %d)", offWall, offCPU, rounds, count))
            if !on.isEmpty {
                let onWall = median(on.map(\.wall)), onCPU = median(on.map(\.cpu))
                print(String(format: "    NDJSON sink on:  %8.0f ns/cycle wall, %8.0f ns/cycle CPU (the background writer included)", onWall, onCPU))
                print(String(format: "    ratio on/off:    %8.3fx wall, %.3fx CPU", onWall / offWall, onCPU / offCPU))
                print(String(format: "\(child.key)_ON_OFF_WALL %.3f", onWall / offWall))
                print(String(format: "\(child.key)_ON_OFF_CPU %.3f", onCPU / offCPU))
            }
            if runtime_counters_available() != 0 {
                print(String(format: "    per cycle, off:  %5.2f hops (%.2f to the main actor, %.2f to other threads), %5.2f heap allocations",
                             countedOff.hops, countedOff.mainHops, countedOff.otherHops, countedOff.allocations))
                print(String(format: "\(child.key)_HOPS_PER_CYCLE %.2f", countedOff.hops))
                print(String(format: "\(child.key)_ALLOCS_PER_CYCLE %.2f", countedOff.allocations))
                if let on = countedOn {
                    var perEvent = (on.allocations - countedOff.allocations) / on.events
                    if abs(perEvent) < 0.0005 { perEvent = 0 }   // not "-0.000"
                    print(String(format: "    per cycle, on:   %5.2f hops, %5.2f heap allocations, %.1f events: %.3f allocations per event (the writer's included)",
                                 on.hops, on.allocations, on.events, perEvent))
                    print(String(format: "\(child.key)_EVENTS_PER_CYCLE %.1f", on.events))
                    print(String(format: "\(child.key)_ALLOCS_PER_EVENT %.3f", perEvent))
                }
            } else {
                print("    hops and allocations per cycle: not counted on this platform (Linux with glibc only)")
            }
            print("\(child.key)_OFF_WALL_NS \(Int(offWall))")
            print("\(child.key)_OFF_CPU_NS \(Int(offCPU))")
        }
        print("  events dropped while on: \(tracer.droppedCount)")
        tracer.shutdown(reason: "benchmark")
    }
}
