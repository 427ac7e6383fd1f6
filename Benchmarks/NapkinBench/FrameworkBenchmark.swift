import Foundation
import Napkin
import NapkinTrace

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
        print("FRAMEWORK_OFF_WALL_NS \(Int(offWall))")
        print("FRAMEWORK_OFF_CPU_NS \(Int(offCPU))")
    }
}
