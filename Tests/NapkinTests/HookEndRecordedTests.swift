import Foundation
import Napkin
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// The end of a lifecycle hook, recorded from real napkin trees: hooks that
/// return write `hook_end` after everything they did, and a hook that never
/// returns (a `for await` loop written in the hook itself) is reported as
/// `stuck-hook`, naming the hook, and as nothing else.
///
/// Like `AnalysisRecordedTests`, the finding tests poll the analysis with a
/// generous grace period and assert no durations. Each stuck hook is a loop
/// over a stream the test finishes at the end, so the hook returns and the
/// whole tree deallocates: nothing leaks into other tests.
@Suite("Hook ends, recorded")
@MainActor
struct HookEndRecordedTests {
    static let grace: Duration = .seconds(2)
    static let cleanGrace: Duration = .seconds(30)

    // MARK: - Hooks that return

    @Test("hook_end follows what each hook did: activate < its work < hook_end, deactivate < its work < hook_end < task_cancel")
    func endsAfterTheHooksWork() async throws {
        let recorder = TraceRecorder(app: "hook-order")
        var root: RecordedRootRouter?
        var child: HookMarkingRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            child = HookMarkingRouter()
            await root!.attachChild(child!)
            await root!.detachChild(child!)
        }
        let trace = RecordedTrace(recorder)
        let id = try #require(trace.interactorIDs("HookMarkingInteractor").first)
        let events = recorder.eventsAsRecorded
        func seq(_ kind: TraceEvent.Kind) throws -> UInt64 {
            try #require(events.first { $0.kind == kind }?.seq, "no \(kind)")
        }
        let ends = events.filter { $0.kind == .hookEnd(interactor: id) }.map(\.seq)
        try #require(ends.count == 2, "\(ends)")
        let task = try #require(events.compactMap { event -> NodeID? in
            if case .taskStart(let task, id, let label) = event.kind, label == "work" { task } else { nil }
        }.first)
        // didBecomeActive: started, marked, started its task, returned; then the router loaded.
        #expect(try seq(.activate(interactor: id)) < seq(.mark(text: "in didBecomeActive")))
        #expect(try seq(.mark(text: "in didBecomeActive")) < seq(.taskStart(task: task, owner: id, label: "work")))
        #expect(try seq(.taskStart(task: task, owner: id, label: "work")) < ends[0])
        let router = try #require(trace.routerIDs("HookMarkingRouter").first)
        #expect(try ends[0] < seq(.load(router: router)))
        // willResignActive: started, marked, returned; then napkin cancelled the task.
        #expect(try ends[0] < seq(.deactivate(interactor: id)))
        #expect(try seq(.deactivate(interactor: id)) < seq(.mark(text: "in willResignActive")))
        #expect(try seq(.mark(text: "in willResignActive")) < ends[1])
        #expect(try ends[1] < seq(.taskCancel(task: task)))
        // Every hook of the recording ended: the root's too.
        let starts = events.filter { if case .activate = $0.kind { true } else if case .deactivate = $0.kind { true } else { false } }
        #expect(events.filter { if case .hookEnd = $0.kind { true } else { false } }.count == starts.count)
        child = nil
        root = nil
        #expect(await waitUntil { RecordedTrace(recorder).liveCount == 0 })
        #expect(recorder.analyze(grace: Self.cleanGrace).isClean)
    }

    // MARK: - A hook that never returns

    @Test("a didBecomeActive looping on for await, then detached: stuck-hook names didBecomeActive and the detach")
    func stuckDidBecomeActive() async throws {
        let (updates, feed) = AsyncStream.makeStream(of: Int.self)
        let recorder = TraceRecorder(app: "stuck-activate")
        var root: RecordedRootRouter?
        var listener: LoopingListenerRouter?
        var attaching: Task<Void, Never>?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            listener = LoopingListenerRouter(loopingIn: .didBecomeActive, over: updates)
            let (parent, child) = (root!, listener!)
            // The attach awaits the activation, which never ends while the hook loops.
            attaching = Task { await parent.attachChild(child) }
        }
        let owner = try await activated("LoopingListenerInteractor", in: recorder)
        feed.yield(1)                       // the loop runs; it just never ends
        await root!.detachChild(listener!)  // returns: the deactivation waits for the hook
        listener = nil
        let trace = RecordedTrace(recorder)
        let router = try #require(trace.routerIDs("LoopingListenerRouter").first)
        let report = try await findings(recorder, until: .stuckHook)
        // Only this: not active-after-detach, not a leaked router or interactor.
        #expect(report.findings.count == 1, "\(report)")
        let finding = try #require(report.findings(.stuckHook).first)
        #expect(finding.subject == .interactor && finding.type == "LoopingListenerInteractor" && finding.id == owner)
        #expect(finding.message.hasPrefix("didBecomeActive has not returned"), "\(finding.message)")
        #expect(finding.message.contains("could not deactivate it"))
        let rootID = try #require(trace.routerIDs("RecordedRootRouter").first)
        #expect(finding.seqs == [trace.seq(of: .activate(interactor: owner)), trace.seq(of: .detach(parent: rootID, child: router))])
        #expect(!trace.contains(.hookEnd(interactor: owner)))

        // Ending the stream lets the hook return: the end is recorded, the
        // deactivation that waited runs, and everything goes away.
        feed.finish()
        await attaching!.value
        #expect(await waitUntil { RecordedTrace(recorder).contains(.deactivate(interactor: owner)) })
        let after = RecordedTrace(recorder)
        #expect(after.seq(of: .hookEnd(interactor: owner)) < after.seq(of: .deactivate(interactor: owner)))
        root = nil
        #expect(await waitUntil { RecordedTrace(recorder).liveCount == 0 }, "\(RecordedTrace(recorder).alive.sorted())")
    }

    @Test("a willResignActive looping on for await: stuck-hook names willResignActive and the task it kept from being cancelled")
    func stuckWillResignActive() async throws {
        let (updates, feed) = AsyncStream.makeStream(of: Int.self)
        let recorder = TraceRecorder(app: "stuck-resign")
        var root: RecordedRootRouter?
        var listener: LoopingListenerRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            listener = LoopingListenerRouter(loopingIn: .willResignActive, over: updates)
            await root!.attachChild(listener!)
        }
        let owner = try await activated("LoopingListenerInteractor", in: recorder)
        let detaching: Task<Void, Never>
        do {
            let (parent, child) = (root!, listener!)
            // The detach awaits the deactivation, which never ends while the hook loops.
            detaching = Task { await parent.detachChild(child) }
        }
        listener = nil
        #expect(await waitUntil { RecordedTrace(recorder).contains(.deactivate(interactor: owner)) })
        let report = try await findings(recorder, until: .stuckHook)
        // Not orphaned-task (the task was never asked to stop), not a leak.
        #expect(report.findings.count == 1, "\(report)")
        let finding = try #require(report.findings(.stuckHook).first)
        #expect(finding.id == owner && finding.type == "LoopingListenerInteractor")
        #expect(finding.message.hasPrefix("willResignActive has not returned"), "\(finding.message)")
        #expect(finding.message.contains("its bound task was not cancelled"), "\(finding.message)")
        #expect(finding.seqs.last == RecordedTrace(recorder).seq(of: .deactivate(interactor: owner)))
        #expect(RecordedTrace(recorder).count("task_cancel") == 0)

        feed.finish()
        await detaching.value
        #expect(await waitUntil { RecordedTrace(recorder).count("task_end") == 1 })
        let after = RecordedTrace(recorder)
        let ends = after.events.filter { $0.kind == .hookEnd(interactor: owner) }.map(\.seq)
        #expect(ends.count == 2 && ends[1] > after.seq(of: .deactivate(interactor: owner)), "\(ends)")
        let task = try #require(after.events.compactMap { event -> NodeID? in
            if case .taskStart(let task, owner, _) = event.kind { task } else { nil }
        }.first)
        #expect(ends.last! < after.seq(of: .taskCancel(task: task)))
        #expect(after.count("task_cancel") == 1)
        root = nil
        #expect(await waitUntil { RecordedTrace(recorder).liveCount == 0 }, "\(RecordedTrace(recorder).alive.sorted())")
    }

    @Test("the program the stuck-hook fixtures were recorded from, run for real: stuck-hook, as in the fixture; its clean twin: nothing",
          .timeLimit(.minutes(2)))
    func probeRuns() async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        for clean in [false, true] {
            let path = directory + (clean ? "/clean.ndjson" : "/stuck.ndjson")
            let run = try await Probe.run(["stuck-hook"] + (clean ? ["clean"] : []), environment: ["NAPKIN_TRACE": path],
                                          timeout: .seconds(60))
            #expect(run.exitStatus == 0, "\(run.summary)")
            let (result, reader) = try readAll(path: path)
            let events = result.events
            #expect(reader.integrity.isUsable, "\(reader.integrity.problems)")
            let report = TraceAnalyzer.analyze(events)
            if clean {
                #expect(report.isClean && report.undecided == 0, "\(report)")
            } else {
                #expect(report.findings.map(\.rule) == [.stuckHook], "\(report)")
                #expect(report.findings.first?.type == "ScoresInteractor")
                #expect(report.findings.first?.message.hasPrefix("didBecomeActive has not returned") == true)
                // The fixture is this recording: the same events, but for times, pid, wall clock and code lines.
                let fixture = try String(contentsOfFile: Fixtures.path("stuck-hook"), encoding: .utf8)
                let recorded = parseEvents(fixture).map(\.kind)
                #expect(Array(events.map(\.kind).dropFirst()) == Array(recorded.dropFirst()))
            }
        }
    }

    // MARK: - Adoption

    @Test("adopted while didBecomeActive runs: the start is replayed, the end recorded once when the hook returns")
    func adoptedMidHook() async throws {
        let recorder = TraceRecorder(app: "adopt-mid-hook")
        let root = await recorder.record { () -> RecordedRootRouter in
            let root = RecordedRootRouter()
            await root.launch()
            return root
        }
        // Built and attached outside the recording: the inner napkin's
        // didBecomeActive waits on a gate, so its untraced attach waits too.
        let gate = Gate()
        var host: RecordedHostRouter? = RecordedHostRouter()
        var inner: GatedActivationRouter? = GatedActivationRouter(gate: gate)
        let attaching: Task<Void, Never>
        do {
            let (untracedParent, untracedChild) = (host!, inner!)
            attaching = Task { await untracedParent.attachChild(untracedChild) }
        }
        // Activating: the hook has started (the lifecycle is not kept: its deinit records the interactor's).
        #expect(await waitUntil { inner!.interactor.lifecycle.isActiveNow })
        await root.attachChild(host!)                       // adopts the host and the inner napkin, mid-hook
        let id = inner!.interactor.lifecycle.traceID
        try #require(id != 0)
        #expect(RecordedTrace(recorder).contains(.activate(interactor: id)))
        #expect(!RecordedTrace(recorder).contains(.hookEnd(interactor: id)))
        gate.open()
        await attaching.value
        let trace = RecordedTrace(recorder)
        #expect(trace.count("activate") == 3 && trace.count("hook_end") == 3, "root, host, inner: one start and one end each")
        #expect(trace.seq(of: .activate(interactor: id)) < trace.seq(of: .hookEnd(interactor: id)))
        await root.detachChild(host!)
        host = nil
        inner = nil
        #expect(await waitUntil { RecordedTrace(recorder).count("deinit") == 4 }, "\(recorder.ndjson)")
        #expect(recorder.analyze(grace: Self.cleanGrace).isClean, "\(recorder.analyze(grace: Self.cleanGrace))")
        withExtendedLifetime(root) {}
    }

    @Test("adopted when active: the replay records the end too, so even a tiny grace period finds no stuck hook")
    func adoptedWhenActive() async throws {
        let recorder = TraceRecorder(app: "adopt-active")
        let root = await recorder.record { () -> RecordedRootRouter in
            let root = RecordedRootRouter()
            await root.launch()
            return root
        }
        let host = RecordedHostRouter()
        let inner = RecordedCachedRouter()
        await host.attachChild(inner)                       // untraced: active, its hook returned
        await root.attachChild(host)
        let id = inner.interactor.lifecycle.traceID
        let trace = RecordedTrace(recorder)
        #expect(trace.seq(of: .activate(interactor: id)) + 1 == trace.seq(of: .hookEnd(interactor: id)))
        // Long after, in trace time, compared with a 1 ms grace period.
        try await Task.sleep(for: .milliseconds(20))
        let report = await recorder.analyzeOnOwnThread(grace: .milliseconds(1))
        #expect(report.findings(.stuckHook).isEmpty, "\(report)")
        await root.detachChild(host)
        withExtendedLifetime((root, host, inner)) {}
    }

    // MARK: - Helpers

    /// Waits until the first interactor of `type` in `recorder` has activated; returns its id.
    private func activated(_ type: String, in recorder: TraceRecorder) async throws -> NodeID {
        let id = try #require(RecordedTrace(recorder).interactorIDs(type).first)
        try #require(await waitUntil { RecordedTrace(recorder).contains(.activate(interactor: id)) })
        return id
    }

    /// Polls the analysis until a finding of `rule` appears, then waits two
    /// more grace periods so that every other check has had its chance.
    private func findings(_ recorder: TraceRecorder, until rule: Finding.Rule) async throws -> AnalysisReport {
        let found = await eventually { await !recorder.analyzeOnOwnThread(grace: Self.grace).findings(rule).isEmpty }
        try #require(found, "no \(rule.rawValue) finding: \(recorder.analyze(grace: Self.grace))")
        try await Task.sleep(for: Self.grace * 2)
        return await recorder.analyzeOnOwnThread(grace: Self.grace)
    }
}

// MARK: - Napkins for these tests

/// Marks each hook from inside it, and starts a bound task in `didBecomeActive`.
final actor HookMarkingInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func didBecomeActive() async {
        NapkinTrace.mark("in didBecomeActive")
        task(named: "work") { try? await Task.sleep(for: .seconds(3600)) }
    }

    func willResignActive() async {
        NapkinTrace.mark("in willResignActive")
    }
}

@MainActor final class HookMarkingRouter: Router<HookMarkingInteractor> {
    convenience init() { self.init(interactor: HookMarkingInteractor()) }
}

/// The bug: one hook reads a stream with `for await` itself instead of in a
/// `task {}`, so it returns only when the stream finishes. `didBecomeActive`
/// also starts a bound task that runs until it is cancelled.
final actor LoopingListenerInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    private let hook: LifecycleHook
    private let updates: AsyncStream<Int>
    private(set) var received = 0

    init(loopingIn hook: LifecycleHook, over updates: AsyncStream<Int>) {
        self.hook = hook
        self.updates = updates
    }

    func didBecomeActive() async {
        task(named: "sync") { try? await Task.sleep(for: .seconds(3600)) }
        if hook == .didBecomeActive { await listen() }
    }

    func willResignActive() async {
        if hook == .willResignActive { await listen() }
    }

    private func listen() async {
        for await _ in updates { received += 1 }
    }
}

@MainActor final class LoopingListenerRouter: Router<LoopingListenerInteractor> {
    convenience init(loopingIn hook: LifecycleHook, over updates: AsyncStream<Int>) {
        self.init(interactor: LoopingListenerInteractor(loopingIn: hook, over: updates))
    }
}

/// An interactor whose `didBecomeActive` waits until a gate opens.
final actor GatedActivationInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let gate: Gate

    init(gate: Gate) { self.gate = gate }

    func didBecomeActive() async {
        await gate.wait()
    }
}

@MainActor final class GatedActivationRouter: Router<GatedActivationInteractor> {
    convenience init(gate: Gate) { self.init(interactor: GatedActivationInteractor(gate: gate)) }
}
