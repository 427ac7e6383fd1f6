// The cost of recording where a router and its interactor were made
// (`CreationSite`): creating routers through a builder, tracing off and
// tracing on (the NDJSON sink to /dev/null), in nanoseconds and heap
// allocations per creation, and the one-time cost of a stack seen for the
// first time (its symbolication). docs/benchmarks.md, "Creation sites".
import Foundation
import Napkin
import NapkinTrace
import RuntimeCounters

@MainActor
enum CreationBenchmark {
    final actor Interactor: Interactable {
        nonisolated let lifecycle = InteractorLifecycle()
    }

    /// Napkin's example shape: an initializer of its own calling `super.init`.
    final class OwnInitRouter: Router<Interactor> {
        let label: String
        init(interactor: Interactor, label: String) {
            self.label = label
            super.init(interactor: interactor)
        }
    }

    /// The builder: the line every creation record names.
    @inline(never)
    static func build() -> OwnInitRouter {
        OwnInitRouter(interactor: Interactor(), label: "bench")
    }

    /// A second creation path, first seen when timed: the one-time cost.
    @inline(never)
    static func buildOnce() -> OwnInitRouter {
        OwnInitRouter(interactor: Interactor(), label: "once")
    }

    struct Sample {
        var nanoseconds: Double
        var allocations: Double
    }

    /// `count` creations (each router released at once), per creation.
    static func create(_ count: Int) -> Sample {
        let allocations = runtime_counters_allocations()
        let start = now()
        for _ in 0..<count { withExtendedLifetime(build()) {} }
        let elapsed = now() - start
        return Sample(nanoseconds: Double(elapsed) / Double(count),
                      allocations: Double(runtime_counters_allocations() - allocations) / Double(count))
    }

    static func recording<T>(_ tracer: Tracer, _ body: () -> T) -> T {
        TraceContext.beginRecording()
        defer { TraceContext.endRecording() }
        return TraceContext.$recording.withValue(tracer) { body() }
    }

    static func run(creations count: Int, rounds: Int) {
        let tracer = Tracer(sink: try! NDJSONTraceSink(path: "/dev/null"), app: "napkin-bench")
        // The first traced creation from a stack never seen: the stack kept on
        // the creating thread, then its symbolication when the tracer takes
        // the event (here: the flush, on this thread; in an app: the writer thread).
        let firstStart = now()
        recording(tracer) { withExtendedLifetime(build()) {} }
        let first = Double(now() - firstStart)
        let firstResolveStart = now()
        tracer.flush()
        let firstResolve = Double(now() - firstResolveStart)
        let onceStart = now()
        recording(tracer) { withExtendedLifetime(buildOnce()) {} }
        let once = Double(now() - onceStart)
        let onceResolveStart = now()
        tracer.flush()
        let onceResolve = Double(now() - onceResolveStart)
        var off: [Sample] = [], on: [Sample] = []
        for _ in 0..<rounds {
            off.append(create(count))
            on.append(recording(tracer) { create(count) })
        }
        tracer.flush()
        func median(_ samples: [Sample], _ key: KeyPath<Sample, Double>) -> Double {
            let sorted = samples.map { $0[keyPath: key] }.sorted()
            return sorted[sorted.count / 2]
        }
        let offNs = median(off, \.nanoseconds), onNs = median(on, \.nanoseconds)
        print("creation of a router and its interactor through a builder (medians of \(rounds) rounds of \(count)):")
        print(String(format: "  tracing off:  %8.0f ns per creation, %.2f allocations", offNs, median(off, \.allocations)))
        print(String(format: "  tracing on:   %8.0f ns per creation, %.2f allocations (the records and the creation line)", onNs, median(on, \.allocations)))
        print(String(format: "  first creation from a new stack, on the creating thread: %.3f ms (the process's first), then %.3f ms (another new stack)",
                     first / 1e6, once / 1e6))
        print(String(format: "  its symbolication, on the writer thread: %.3f ms (the process's first), then %.3f ms (another new stack)",
                     firstResolve / 1e6, onceResolve / 1e6))
        print(String(format: "CREATION_OFF_NS %.0f", offNs))
        print(String(format: "CREATION_ON_NS %.0f", onNs))
        print(String(format: "CREATION_ON_ALLOCATIONS %.2f", median(on, \.allocations)))
        print(String(format: "CREATION_OFF_ALLOCATIONS %.2f", median(off, \.allocations)))
        print(String(format: "CREATION_FIRST_MS %.3f", first / 1e6))
        print(String(format: "CREATION_NEW_STACK_MS %.3f", once / 1e6))
        print(String(format: "CREATION_FIRST_RESOLVE_MS %.3f", firstResolve / 1e6))
        print(String(format: "CREATION_NEW_STACK_RESOLVE_MS %.3f", onceResolve / 1e6))
    }
}
