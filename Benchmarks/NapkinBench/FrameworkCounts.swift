import Foundation
import NapkinTrace
import RuntimeCounters

/// What the framework benchmark's cycle costs besides time: hops and heap
/// allocations (RuntimeCounters, Linux with glibc), per cycle and per event,
/// in each variant.
extension FrameworkBenchmark {
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

    /// Allocations with detection on, apart: on the app's threads (the
    /// cycles), and in the analysis (the writer's drains).
    struct DetectionSplit {
        /// Per cycle, on the app's threads.
        var app: Double
        /// Per event, in the drains.
        var analysisPerEvent: Double
        /// CPU time of the drains per event, in nanoseconds.
        var analysisNanoseconds: Double
        /// Trace events per cycle.
        var events: Double
    }

    /// Runs `count` cycles with `setup`, counting hops, allocations and
    /// events. A traced run starts with a flush (what earlier runs left is
    /// not counted) and ends with one (the writer's work on every event of
    /// the run is).
    @MainActor
    static func counted(_ count: Int, _ setup: Setup, of child: Child) async -> Counts {
        setup.tracer?.flush()
        let seq0 = setup.tracer?.sequenceNumber ?? 0
        let main0 = runtime_counters_main_enqueues(), other0 = runtime_counters_other_enqueues()
        let allocations0 = runtime_counters_allocations()
        _ = await recording(setup.tracer) { await cycles(count, of: child, root: setup.root) }
        setup.tracer?.flush()
        let n = Double(count)
        return Counts(mainHops: Double(runtime_counters_main_enqueues() - main0) / n,
                      otherHops: Double(runtime_counters_other_enqueues() - other0) / n,
                      allocations: Double(runtime_counters_allocations() - allocations0) / n,
                      events: Double((setup.tracer?.sequenceNumber ?? 0) - seq0) / n)
    }

    /// The cycles between two drains in ``countedApart(_:_:of:)``.
    static let apartChunk = 500

    /// Counts a run with detection on in two parts, with `setup`, whose
    /// tracer has no writer thread: the cycles, ``apartChunk`` at a time,
    /// their events waiting in its queue (what the app's threads allocate),
    /// and after each chunk the drain that the writer would do (the
    /// detector's analysis), on this thread. Two chunks first, uncounted:
    /// the queue's two buffers grow to a chunk's events, as they do in the
    /// first drains of a session.
    @MainActor
    static func countedApart(_ count: Int, _ setup: Setup, of child: Child) async -> DetectionSplit {
        let chunk = apartChunk, tracer = setup.tracer!
        return await recording(tracer) {
            for _ in 0..<2 {
                _ = await cycles(chunk, of: child, root: setup.root)
                tracer.flush()
            }
            let seq0 = tracer.sequenceNumber
            var app: UInt64 = 0, analysis: UInt64 = 0, analysisCPU: UInt64 = 0
            for done in stride(from: 0, to: count, by: chunk) {
                let start = runtime_counters_allocations()
                _ = await cycles(min(chunk, count - done), of: child, root: setup.root)
                let cycled = runtime_counters_allocations(), cpu = threadCPUTime()
                tracer.flush()
                analysisCPU += threadCPUTime() - cpu
                app += cycled - start
                analysis += runtime_counters_allocations() - cycled
            }
            let events = Double(tracer.sequenceNumber - seq0)
            return DetectionSplit(app: Double(app) / Double(count), analysisPerEvent: Double(analysis) / events,
                                  analysisNanoseconds: Double(analysisCPU) / events, events: events / Double(count))
        }
    }

    /// CPU time of the calling thread so far, in nanoseconds (a drain runs
    /// on the calling thread from start to end).
    static func threadCPUTime() -> UInt64 {
        var ts = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
        return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
    }

    /// A counted run of each variant (none where nothing is counted).
    @MainActor
    static func countedRuns(_ variants: [Variant], _ count: Int, of child: Child, setups: Setups) async -> [Variant: Counts] {
        guard runtime_counters_available() != 0 else { return [:] }
        var counts: [Variant: Counts] = [:]
        for variant in variants {
            counts[variant] = await counted(count, setups[variant], of: child)
        }
        return counts
    }

    /// Allocations per event of a traced run over the run with tracing off.
    static func perEvent(_ on: Counts, over off: Counts) -> Double {
        notNegativeZero((on.allocations - off.allocations) / on.events)
    }

    /// `x`, with what prints as "-0.000" as 0.
    static func notNegativeZero(_ x: Double) -> Double { abs(x) < 0.0005 ? 0 : x }

    /// The counts, in words and as `KEY value` lines.
    static func printCounts(_ counts: [Variant: Counts], apart split: DetectionSplit?, of child: Child) {
        guard let off = counts[.off] else {
            print("    hops and allocations per cycle: not counted on this platform (Linux with glibc only)")
            return
        }
        let key = child.key
        print(String(format: "    per cycle, off:          %5.2f hops (%.2f to the main actor, %.2f to other threads), %5.2f heap allocations",
                     off.hops, off.mainHops, off.otherHops, off.allocations))
        print(String(format: "\(key)_HOPS_PER_CYCLE %.2f", off.hops))
        print(String(format: "\(key)_ALLOCS_PER_CYCLE %.2f", off.allocations))
        if let on = counts[.ndjson] {
            print(String(format: "    per cycle, NDJSON on:    %5.2f hops, %5.2f heap allocations, %.1f events: %.3f allocations per event (the writer's included)",
                         on.hops, on.allocations, on.events, perEvent(on, over: off)))
            print(String(format: "\(key)_EVENTS_PER_CYCLE %.1f", on.events))
            print(String(format: "\(key)_ALLOCS_PER_EVENT %.3f", perEvent(on, over: off)))
        }
        if let on = counts[.detect] {
            print(String(format: "    per cycle, detection on: %5.2f hops, %5.2f heap allocations, %.1f events: %.3f allocations per event "
                         + "(the writer thread's analysis included; the app's emit path is the NDJSON row's)",
                         on.hops, on.allocations, on.events, perEvent(on, over: off)))
            print(String(format: "\(key)_DETECT_HOPS_PER_CYCLE %.2f", on.hops))
            print(String(format: "\(key)_DETECT_ALLOCS_PER_EVENT %.3f", perEvent(on, over: off)))
        }
        if let split {
            let app = notNegativeZero((split.app - off.allocations) / split.events)
            print(String(format: "      apart (drains between chunks of %d cycles): %.3f allocations per event on the app's threads; "
                         + "the analysis: %.3f allocations, %.0f ns of CPU per event", apartChunk, app, split.analysisPerEvent, split.analysisNanoseconds))
            print(String(format: "\(key)_DETECT_APP_ALLOCS_PER_EVENT %.3f", app))
            print(String(format: "\(key)_DETECT_ANALYSIS_ALLOCS_PER_EVENT %.3f", split.analysisPerEvent))
            print(String(format: "\(key)_DETECT_ANALYSIS_NS_PER_EVENT %.0f", split.analysisNanoseconds))
        }
    }
}
