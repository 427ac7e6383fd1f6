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

    /// Runs `cycles` create/attach/detach/release cycles; returns nanoseconds per cycle.
    @MainActor
    static func cycles(_ count: Int, root: BenchRoot) async -> Double {
        let start = now()
        for _ in 0..<count {
            let child = BenchRouter(interactor: BenchInteractor())
            await root.attachChild(child)
            await root.detachChild(child)
        }
        return Double(now() - start) / Double(count)
    }

    @MainActor
    static func run(cycles count: Int, rounds: Int) async {
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
        var off: [Double] = []
        var on: [Double] = []
        for _ in 0..<rounds {
            off.append(await cycles(count, root: root))
            #if !NAPKIN_NO_TRACE_HOOKS
            TraceContext.beginRecording()
            let traced = await TraceContext.$recording.withValue(tracer) {
                await cycles(count, root: root)
            }
            TraceContext.endRecording()
            on.append(traced)
            #endif
        }
        tracer.shutdown(reason: "benchmark")
        print("framework cycle (\(variant)): create child, attach (activate, load), detach (deactivate), release")
        print(String(format: "  tracing off:        %8.0f ns/cycle (median of %d rounds of %d)", median(off), rounds, count))
        if !on.isEmpty {
            print(String(format: "  NDJSON sink on:     %8.0f ns/cycle", median(on)))
            print(String(format: "  ratio on/off:       %8.2fx (target: at most 1.5x)", median(on) / median(off)))
            print("  events dropped while on: \(tracer.droppedCount)")
        }
        print("FRAMEWORK_OFF_NS \(Int(median(off)))")
    }
}
