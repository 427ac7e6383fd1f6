import Foundation
import NapkinTrace
import Testing

/// With tracing off, the hook a router or interactor calls when it is created
/// (`TraceContext.current()`, one atomic load) allocates nothing, and neither
/// does the hook of an attach (a nil check: an untraced parent never adopts).
///
/// Measured with glibc's `mallinfo2()`: heap bytes in use before and after
/// 100,000 calls. That counts what the calls keep, not what they allocate and
/// free again; the hook's code has no allocating path to free from.
@Suite("Trace off: hooks allocate nothing")
struct TraceOffTests {
    /// mallinfo2 sees the heap: glibc's allocator, not a sanitizer's
    /// replacement (under ThreadSanitizer, `swift test --sanitize=thread`,
    /// glibc's counters never move, so the measurement says nothing).
    private static let measurable = heapBytesInUse() != nil
        && dlsym(UnsafeMutableRawPointer(bitPattern: 0), "__tsan_init") == nil
    private static let tracedByEnvironment = ProcessInfo.processInfo.environment["NAPKIN_TRACE"] != nil

    @Test("in a fresh process with tracing off: 100,000 hook calls keep 0 heap bytes",
          .enabled(if: measurable))
    func childProcess() async throws {
        let run = try await Probe.run(["alloc", "100000"])
        #expect(run.exitStatus == 0, "\(run.summary)")
        var values: [String: Int] = [:]
        for line in String(decoding: run.stdout, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count >= 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        #expect(values["calls"] == 100_000, "\(values)")
        #expect(values["traced"] == 0, "tracing was on in the child")
        #expect(values["hook-bytes"] == 0, "\(values)")
        // The measurement sees allocations: 100 small arrays are not free.
        #expect((values["control-bytes"] ?? 0) > 0, "\(values)")
    }

    /// Other tests allocate on other threads meanwhile, so the heap moves under
    /// this measurement; one quiet window with a zero delta is proof enough
    /// (a hook that kept anything would keep it in every window).
    private func quietWindowDelta(calls: Int) async -> (delta: Int, traced: Int) {
        var smallest = Int.max
        var traced = 0
        for _ in 0..<300 {
            guard let start = heapBytesInUse() else { break }
            for _ in 0..<calls where TraceContext.current() != nil { traced += 1 }
            let delta = heapBytesInUse()! - start
            if abs(delta) < abs(smallest) { smallest = delta }
            if delta == 0 { break }
            try? await Task.sleep(for: .milliseconds(3))
        }
        return (smallest, traced)
    }

    @Test("in the test process: 100,000 hook calls keep 0 heap bytes, with and without a recorder elsewhere",
          .enabled(if: measurable), .disabled(if: tracedByEnvironment, "NAPKIN_TRACE turns tracing on for this process"))
    func inProcess() async {
        _ = TraceContext.current() // the one-time read of the environment allocates
        #expect(TraceContext.globalTracer == nil)

        let plain = await quietWindowDelta(calls: 100_000)
        #expect(plain.traced == 0)
        #expect(plain.delta == 0, "smallest heap delta over 100,000 calls: \(plain.delta) bytes")

        // A recorder scope active in some other task sends the hook down its
        // slower path (a task-local read); still nothing allocated, still off here.
        TraceContext.beginRecording()
        let recording = await quietWindowDelta(calls: 100_000)
        TraceContext.endRecording()
        #expect(recording.traced == 0)
        #expect(recording.delta == 0, "smallest heap delta over 100,000 calls: \(recording.delta) bytes")
    }

    @Test("an untraced parent attaching untraced children adopts nothing; its trace hook keeps 0 heap bytes over 100,000 calls",
          .enabled(if: measurable), .disabled(if: tracedByEnvironment, "NAPKIN_TRACE turns tracing on for this process"))
    @MainActor
    func noAdoptionWhenOff() async {
        let root = TraceTestRootRouter()
        let children = (0..<1_000).map { _ in TraceTestRouter() }
        let untraced = { (router: TraceTestRouter) in
            router.tracer == nil && router.traceID == 0 && router.interactor.lifecycle.tracer == nil
        }
        // Real attaches and detaches leave everything untraced.
        await root.launch()
        for child in children.prefix(20) {
            await root.attachChild(child)
            await root.detachChild(child)
        }
        #expect(children.allSatisfy(untraced) && root.tracer == nil)

        // The attach's trace hook (the synchronous part, where an adoption would
        // happen), on children that stay alive: an adoption would leave a trace
        // binding in each, in every window. (attachChild as a whole hops
        // between threads, whose allocator caches make heap readings move.)
        var smallest = Int.max
        for _ in 0..<300 {
            guard let start = heapBytesInUse() else { break }
            for _ in 0..<100 {
                for child in children { root.traceAttach(of: child) }
            }
            let delta = heapBytesInUse()! - start
            if abs(delta) < abs(smallest) { smallest = delta }
            if delta == 0 { break }
            try? await Task.sleep(for: .milliseconds(3))
        }
        #expect(smallest == 0, "smallest heap delta over 100,000 hook calls: \(smallest) bytes")
        #expect(children.allSatisfy(untraced))

        // Control: under a recorded parent the same hook adopts, and the measurement sees it.
        let recorder = TraceRecorder(app: "control")
        let traced = recorder.record { TraceTestRootRouter() }
        let fresh = (0..<100).map { _ in TraceTestRouter() }
        let start = heapBytesInUse()!
        for child in fresh { traced.traceAttach(of: child) }
        #expect(heapBytesInUse()! - start > 0)
        #expect(!fresh.contains(where: untraced))
    }

    @Test("objects created with tracing off carry no tracer and id 0",
          .disabled(if: tracedByEnvironment, "NAPKIN_TRACE turns tracing on for this process"))
    @MainActor
    func untracedObjects() async {
        let root = TraceTestRootRouter()
        let child = TraceTestRouter(bindsTask: true)
        #expect(root.tracer == nil && root.traceID == 0)
        #expect(root.interactor.lifecycle.tracer == nil && root.interactor.lifecycle.traceID == 0)
        await root.launch()
        await root.attachChild(child)
        await root.detachChild(child)
        #expect(child.tracer == nil && child.interactor.lifecycle.traceID == 0)
        #expect(!NapkinTrace.isEnabled)
    }
}
