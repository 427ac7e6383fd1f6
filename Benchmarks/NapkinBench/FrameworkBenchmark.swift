import Foundation
import Napkin
import NapkinTrace
import RuntimeCounters

/// The framework's hot path: attach (activate, load) and detach (deactivate)
/// of a child under a launched root, measured in alternating rounds of the
/// same run in three variants (``Variant``): tracing off, the NDJSON sink on,
/// and the in-app detector on with no trace destination. Two kinds of child:
/// - *default hooks*: an interactor that implements no hook. Its transitions
///   need no hop to its actor (see `DefaultHooks` in the framework): the
///   cycle is the framework's own work.
/// - *with hooks*: an interactor that implements `didBecomeActive` and
///   `willResignActive`, as most do: each transition hops to its actor and
///   back (four hops a cycle), which is most of the cycle's time.
///
/// Hops and allocations are counted in `FrameworkCounts.swift`.
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

    /// What a round runs with.
    enum Variant: CaseIterable {
        /// Tracing off: no tracer at all.
        case off
        /// The NDJSON sink on, writing to /dev/null.
        case ndjson
        /// The in-app detector on in log mode with no trace destination (what
        /// `NAPKIN_DETECT=log` alone sets up): the tracer's sink discards
        /// every batch, its writer thread feeds the detector.
        case detect
    }

    /// What a variant runs with: its tracer (`nil`: tracing off) and the
    /// launched root its cycles attach children to, created in the tracer's
    /// recording scope, so that it is traced as an app's root is (an untraced
    /// root would not record its children's attach and detach: without
    /// them the detector schedules no check).
    struct Setup {
        let tracer: Tracer?
        let root: BenchRoot

        @MainActor
        static func launched(_ tracer: Tracer?) async -> Setup {
            let root = await recording(tracer) { BenchRoot(interactor: BenchInteractor(), viewController: BenchView()) }
            await root.launch()
            return Setup(tracer: tracer, root: root)
        }
    }

    /// The setups of the variants, the traced ones with a tracer each for the
    /// whole run.
    struct Setups {
        let off: Setup
        let ndjson: Setup
        let detect: Setup
        /// Detection with no writer thread, drained by the benchmark: the
        /// allocations of the app's threads and of the analysis, apart
        /// (``countedApart(_:_:of:)``; never timed).
        let detectApart: Setup

        @MainActor
        static func launched() async -> Setups {
            func detecting(startWriter: Bool) -> Tracer {
                Tracer(sink: DiscardingSink(), app: "napkin-bench", startWriter: startWriter,
                       detector: Detector(settings: DetectorSettings(mode: .log)))
            }
            return Setups(off: await .launched(nil),
                          ndjson: await .launched(Tracer(sink: try! NDJSONTraceSink(path: "/dev/null"), app: "napkin-bench")),
                          detect: await .launched(detecting(startWriter: true)),
                          detectApart: await .launched(detecting(startWriter: false)))
        }

        subscript(variant: Variant) -> Setup {
            switch variant {
            case .off: off
            case .ndjson: ndjson
            case .detect: detect
            }
        }
    }

    /// Runs `body` recording to `tracer` (`TraceContext.$recording`), as the
    /// NDJSON and the detection rounds both do; with no tracer, just runs it.
    @MainActor
    static func recording<T>(_ tracer: Tracer?, _ body: @MainActor () async -> T) async -> T {
        guard let tracer else { return await body() }
        TraceContext.beginRecording()
        defer { TraceContext.endRecording() }
        return await TraceContext.$recording.withValue(tracer) { await body() }
    }

    struct Sample {
        var wall: Double
        var cpu: Double
    }

    /// The samples of one child's rounds, by variant.
    struct Rounds {
        var samples: [Variant: [Sample]] = [:]

        func has(_ variant: Variant) -> Bool { !(samples[variant] ?? []).isEmpty }
        /// The median wall time per cycle of `variant`'s rounds.
        func wall(_ variant: Variant) -> Double { median(samples[variant, default: []].map(\.wall)) }
        /// The median CPU time per cycle of `variant`'s rounds.
        func cpu(_ variant: Variant) -> Double { median(samples[variant, default: []].map(\.cpu)) }
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

    /// One round of `count` cycles with `setup`. A traced round ends with a
    /// flush whose CPU time (the writer's work on the round's last events,
    /// up to one flush interval of them) counts as the round's, not as the
    /// next round's; its wall time does not (the app does not wait for it).
    @MainActor
    static func round(_ setup: Setup, _ count: Int, of child: Child) async -> Sample {
        var sample = await recording(setup.tracer) { await cycles(count, of: child, root: setup.root) }
        guard let tracer = setup.tracer else { return sample }
        let cpuStart = cpuTime()
        tracer.flush()
        sample.cpu += Double(cpuTime() - cpuStart) / Double(count)
        return sample
    }

    /// A warm-up round of each variant (which also teaches the framework the
    /// child's hooks), then `rounds` rounds of each, alternating; the order
    /// rotates from round to round, so that no variant always follows the
    /// same one.
    @MainActor
    static func measure(_ variants: [Variant], _ count: Int, rounds: Int, of child: Child, setups: Setups) async -> Rounds {
        for variant in variants {
            _ = await round(setups[variant], count / 10, of: child)
        }
        var measured = Rounds()
        for r in 0..<rounds {
            for i in variants.indices {
                let variant = variants[(i + r) % variants.count]
                measured.samples[variant, default: []].append(await round(setups[variant], count, of: child))
            }
        }
        return measured
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
        let variants: [Variant] = tracing ? Variant.allCases : [.off]
        let setups = await Setups.launched()
        print("framework cycle (\(variant)): create child, attach (activate, load), detach (deactivate), release")
        for child in Child.allCases where only == nil || only == child {
            let measured = await measure(variants, count, rounds: rounds, of: child, setups: setups)
            let counts = await countedRuns(variants, count, of: child, setups: setups)
            let apart = tracing && !counts.isEmpty ? await countedApart(count, setups.detectApart, of: child) : nil
            print("  child: \(child.rawValue)")
            printTimes(measured, of: child, rounds: rounds, count: count)
            printCounts(counts, apart: apart, of: child)
            print("\(child.key)_OFF_WALL_NS \(Int(measured.wall(.off)))")
            print("\(child.key)_OFF_CPU_NS \(Int(measured.cpu(.off)))")
        }
        let ndjson = setups.ndjson.tracer!, detect = setups.detect.tracer!
        print("  events dropped while on: \(ndjson.droppedCount) (NDJSON), \(detect.droppedCount) (detection)")
        ndjson.shutdown(reason: "benchmark")
        if tracing { await settle([detect, setups.detectApart.tracer!]) }
    }

    /// Times per cycle and their ratios, in words and as `KEY value` lines.
    static func printTimes(_ measured: Rounds, of child: Child, rounds: Int, count: Int) {
        let offWall = measured.wall(.off), offCPU = measured.cpu(.off)
        print(String(format: "    tracing off:            %8.0f ns/cycle wall, %8.0f ns/cycle CPU (median of %d rounds of %d)",
                     offWall, offCPU, rounds, count))
        guard measured.has(.ndjson), measured.has(.detect) else { return }
        let onWall = measured.wall(.ndjson), onCPU = measured.cpu(.ndjson)
        let detectWall = measured.wall(.detect), detectCPU = measured.cpu(.detect)
        print(String(format: "    NDJSON sink on:         %8.0f ns/cycle wall, %8.0f ns/cycle CPU (the background writer included)", onWall, onCPU))
        print(String(format: "    detection on (log):     %8.0f ns/cycle wall, %8.0f ns/cycle CPU (the writer thread's analysis included, no trace written)",
                     detectWall, detectCPU))
        print(String(format: "    ratio NDJSON/off:       %8.3fx wall, %.3fx CPU", onWall / offWall, onCPU / offCPU))
        print(String(format: "    ratio detection/off:    %8.3fx wall, %.3fx CPU", detectWall / offWall, detectCPU / offCPU))
        print(String(format: "    ratio detection/NDJSON: %8.3fx wall, %.3fx CPU", detectWall / onWall, detectCPU / onCPU))
        print(String(format: "\(child.key)_ON_OFF_WALL %.3f", onWall / offWall))
        print(String(format: "\(child.key)_ON_OFF_CPU %.3f", onCPU / offCPU))
        print(String(format: "\(child.key)_DETECT_OFF_WALL %.3f", detectWall / offWall))
        print(String(format: "\(child.key)_DETECT_OFF_CPU %.3f", detectCPU / offCPU))
        print(String(format: "\(child.key)_DETECT_NDJSON_WALL %.3f", detectWall / onWall))
        print(String(format: "\(child.key)_DETECT_NDJSON_CPU %.3f", detectCPU / onCPU))
    }

    /// Lets the detectors decide every check the cycles left due (one grace
    /// period, then the probe rounds, with the main actor free), ends their
    /// sessions (which decides what only the end decides, and waits for the
    /// reports) and prints what they found: nothing, when every released
    /// child was deallocated.
    @MainActor
    static func settle(_ tracers: [Tracer]) async {
        try? await Task.sleep(for: .milliseconds(1_500))
        var s = NapkinDetector.Statistics()
        for tracer in tracers {
            tracer.shutdown(reason: "benchmark")
            let t = tracer.detector?.statistics ?? NapkinDetector.Statistics()
            s = NapkinDetector.Statistics(findings: s.findings + t.findings, reported: s.reported + t.reported, repeats: s.repeats + t.repeats,
                                          dropped: s.dropped + t.dropped, handlerErrors: s.handlerErrors + t.handlerErrors)
        }
        print("  detector: \(s.findings) findings, \(s.reported) reported, \(s.repeats) repeats, \(s.dropped) dropped, "
              + "\(s.handlerErrors) handler errors (after a grace period idle and the session's end)")
        print("FRAMEWORK_DETECT_FINDINGS \(s.findings)")
    }
}
