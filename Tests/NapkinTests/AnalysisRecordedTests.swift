import Napkin
import NapkinTrace
import Synchronization
import Testing

/// The leak analysis run in-process on traces recorded from real napkin trees
/// with ``TraceRecorder``: each classic bug shape is found, with the right
/// rule, type and id, and clean flows stay silent.
///
/// Leak tests use a short grace period and poll until it has passed (never
/// asserting how long anything took). Clean flows wait until every router and
/// interactor has deallocated, then analyse with the default grace period, so
/// that a slow machine cannot turn a late deactivation into a finding. The
/// suite runs on the main actor: releasing a router there runs its (isolated)
/// deinit at once, so a main actor kept busy by other suites cannot delay it
/// past the grace period.
@Suite("Analysis of recorded napkin trees")
@MainActor
struct AnalysisRecordedTests {
    // Generous: under a full parallel test run the main actor can be busy for a
    // while between a detach and the release that follows it.
    static let grace: Duration = .seconds(2)
    static let cleanGrace: Duration = .seconds(30)

    // MARK: - Bug shapes

    @Test("a forgotten detach on back navigation: two children of the same type → duplicate-child")
    func forgottenDetach() async throws {
        let recorder = TraceRecorder(app: "duplicate")
        var root: RecordedRootRouter?
        var menus: [RecordedMenuRouter] = []
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            menus.append(RecordedMenuRouter())
            await root!.attachChild(menus[0])
            // "Back" forgot detachChild; opening the menu again attaches a second one.
            menus.append(RecordedMenuRouter())
            await root!.attachChild(menus[1])
        }
        let trace = RecordedTrace(recorder)
        let ids = trace.routerIDs("RecordedMenuRouter")
        let rootID = try #require(trace.routerIDs("RecordedRootRouter").first)
        try #require(ids.count == 2)
        let report = try await findings(recorder, until: .duplicateChild)
        #expect(report.findings.count == 1, "\(report)")
        let finding = try #require(report.findings(.duplicateChild).first)
        #expect(finding.type == "RecordedMenuRouter")
        #expect(finding.id == ids[0])
        #expect(finding.subject == .router)
        #expect(finding.seqs == [trace.seq(of: .attach(parent: rootID, child: ids[0])),
                                 trace.seq(of: .attach(parent: rootID, child: ids[1]))])
        for menu in menus { await root!.detachChild(menu) }
        menus.removeAll()
        root = nil
        try await requireAllDeallocated(recorder)
    }

    @Test("a retain cycle through a strong router reference in the interactor → not-deallocated router")
    func retainCycle() async throws {
        let recorder = TraceRecorder(app: "cycle")
        var root: RecordedRootRouter?
        var checkout: RecordedCheckoutRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            checkout = RecordedCheckoutRouter()
            // The interactor keeps its router strongly (a `var router` instead of `weak var`).
            await checkout!.interactor.hold(checkout!)
            await root!.attachChild(checkout!)
        }
        var interactor: RecordedCheckoutInteractor? = checkout!.interactor
        await root!.detachChild(checkout!)
        checkout = nil
        let id = try #require(RecordedTrace(recorder).routerIDs("RecordedCheckoutRouter").first)
        let report = try await findings(recorder, until: .notDeallocated)
        // Only the router: its interactor (held by the router) is not reported separately.
        #expect(report.findings.count == 1, "\(report)")
        let finding = try #require(report.findings.first)
        #expect(finding.rule == .notDeallocated)
        #expect(finding.subject == .router)
        #expect(finding.type == "RecordedCheckoutRouter")
        #expect(finding.id == id)
        // Breaking the cycle lets everything go.
        await interactor!.release()
        interactor = nil
        root = nil
        try await requireAllDeallocated(recorder)
    }

    @Test("a task that ignores cancellation and keeps its interactor alive → orphaned-task, reported as the task")
    func taskIgnoresCancellation() async throws {
        let recorder = TraceRecorder(app: "orphan")
        let gate = RecordedGate()
        var root: RecordedRootRouter?
        var poller: RecordedPollerRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            poller = RecordedPollerRouter(gate: gate, capturesSelf: true)
            await root!.attachChild(poller!)
        }
        await root!.detachChild(poller!)
        poller = nil
        let owner = try #require(RecordedTrace(recorder).interactorIDs("RecordedPollerInteractor").first)
        // The router goes away (its deinit runs on the main actor, which other
        // suites may keep busy: wait for it rather than racing the grace period).
        let router = try #require(RecordedTrace(recorder).routerIDs("RecordedPollerRouter").first)
        #expect(await waitFor { RecordedTrace(recorder).contains(.deallocated(id: router)) })
        let report = try await findings(recorder, until: .orphanedTask, grace: graceCovering(release: router, in: recorder))
        // Not a not-deallocated interactor: the running task is what keeps it.
        #expect(report.findings.count == 1, "\(report)")
        let finding = try #require(report.findings.first)
        #expect(finding.rule == .orphanedTask)
        #expect(finding.subject == .task)
        #expect(finding.type == "RecordedPollerInteractor")
        #expect(finding.id == owner)
        #expect(finding.label == "poller")
        #expect(finding.message.contains("deactivated"))
        gate.open()
        root = nil
        try await requireAllDeallocated(recorder)
    }

    @Test("a task that ignores cancellation after its interactor went away → orphaned-task with the owner's type")
    func taskOutlivesOwner() async throws {
        let recorder = TraceRecorder(app: "orphan-gone")
        let gate = RecordedGate()
        var root: RecordedRootRouter?
        var poller: RecordedPollerRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            poller = RecordedPollerRouter(gate: gate, capturesSelf: false)
            await root!.attachChild(poller!)
        }
        await root!.detachChild(poller!)
        poller = nil
        let owner = try #require(RecordedTrace(recorder).interactorIDs("RecordedPollerInteractor").first)
        let router = try #require(RecordedTrace(recorder).routerIDs("RecordedPollerRouter").first)
        #expect(await waitFor { RecordedTrace(recorder).contains(.deallocated(id: router)) })
        // The interactor itself goes away; its task does not.
        #expect(await waitFor { RecordedTrace(recorder).contains(.deallocated(id: owner)) })
        let report = try await findings(recorder, until: .orphanedTask, grace: graceCovering(release: router, in: recorder))
        #expect(report.findings.count == 1, "\(report)")
        let finding = try #require(report.findings.first)
        #expect(finding.rule == .orphanedTask)
        #expect(finding.type == "RecordedPollerInteractor")
        #expect(finding.id == owner)
        #expect(finding.label == "poller")
        gate.open()
        #expect(await waitFor { RecordedTrace(recorder).count("task_end") == 1 })
        root = nil
        try await requireAllDeallocated(recorder)
    }

    @Test("a task started before the interactor is active → task-started-inactive, and nothing else")
    func taskStartedInactive() async throws {
        let recorder = TraceRecorder(app: "inactive")
        var root: RecordedRootRouter?
        var menu: RecordedPrefetchRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            menu = RecordedPrefetchRouter()
            // Work started by the builder before the napkin is attached.
            await menu!.interactor.prefetch()
            await root!.attachChild(menu!)
        }
        await root!.detachChild(menu!)
        menu = nil
        root = nil
        try await requireAllDeallocated(recorder)
        let owner = try #require(RecordedTrace(recorder).interactorIDs("RecordedPrefetchInteractor").first)
        let report = recorder.analyze(grace: Self.cleanGrace)
        #expect(report.findings.count == 1, "\(report)")
        let finding = try #require(report.findings(.taskStartedInactive).first)
        #expect(finding.type == "RecordedPrefetchInteractor")
        #expect(finding.id == owner)
        #expect(finding.label == "prefetch")
        #expect(finding.severity == .warning)
    }

    @Test("a child retained by a service after its parent left → undetached-child")
    func childRetainedByService() async throws {
        let recorder = TraceRecorder(app: "undetached")
        let service = RecordedRouterCache()
        var root: RecordedRootRouter?
        var host: RecordedHostRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            host = RecordedHostRouter()
            let cached = RecordedCachedRouter()
            service.keep(cached)
            await root!.attachChild(host!)
            await host!.attachChild(cached)
        }
        // Back navigation detaches the host, which never detaches its child.
        await root!.detachChild(host!)
        host = nil
        let trace = RecordedTrace(recorder)
        let hostID = try #require(trace.routerIDs("RecordedHostRouter").first)
        let childID = try #require(trace.routerIDs("RecordedCachedRouter").first)
        #expect(await waitFor { RecordedTrace(recorder).contains(.deallocated(id: hostID)) })
        let report = try await findings(recorder, until: .undetachedChild)
        #expect(report.findings.count == 1, "\(report)")
        let finding = try #require(report.findings.first)
        #expect(finding.rule == .undetachedChild)
        #expect(finding.subject == .router)
        #expect(finding.type == "RecordedCachedRouter")
        #expect(finding.id == childID)
        #expect(finding.seqs == [RecordedTrace(recorder).seq(of: .deallocated(id: hostID))])
        #expect(finding.message.contains("RecordedHostRouter#\(hostID)"))
        service.clear()
        root = nil
        try await requireAllDeallocated(recorder)
    }

    // MARK: - Clean flows

    @Test("swapping two children back and forth is clean")
    func swapChildren() async throws {
        let recorder = TraceRecorder(app: "swap")
        var root: RecordedRootRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            var current: Routing = RecordedTabRouter()
            await root!.attachChild(current)
            for i in 0..<10 {
                let next: Routing = i % 2 == 0 ? RecordedOtherTabRouter() : RecordedTabRouter()
                await root!.detachChild(current)
                await root!.attachChild(next)
                current = next
            }
            await root!.detachChild(current)
        }
        #expect(RecordedTrace(recorder).count("attach") == 11)
        try await expectCleanAfterTeardown(recorder, releasing: &root)
    }

    @Test("detaching and re-attaching the same child is clean")
    func detachAndReattach() async throws {
        let recorder = TraceRecorder(app: "reattach")
        var root: RecordedRootRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            let child = RecordedHostRouter()
            let grandchild = RecordedCachedRouter()
            await root!.attachChild(child)
            await child.attachChild(grandchild)
            for _ in 0..<5 {
                await root!.detachChild(child)
                await root!.attachChild(child)
            }
            await root!.detachChild(child)
        }
        let trace = RecordedTrace(recorder)
        #expect(trace.count("attach") == 7)
        #expect(trace.count("detach") == 6)
        try await expectCleanAfterTeardown(recorder, releasing: &root)
    }

    @Test("a deep tree (depth 25) built, detached and released is clean")
    func deepTree() async throws {
        let recorder = TraceRecorder(app: "deep")
        var root: RecordedRootRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            var parent: Routing = root!
            var top: Routing?
            for _ in 0..<25 {
                let child = RecordedDepthRouter()
                await parent.attachChild(child)
                if top == nil { top = child }
                parent = child
            }
            await root!.detachChild(top!)
        }
        #expect(RecordedTrace(recorder).routerIDs("RecordedDepthRouter").count == 25)
        try await expectCleanAfterTeardown(recorder, releasing: &root)
    }

    @Test("a deep tree alive at the end: 26 levels, clean, and one alive-at-end finding with expect-teardown")
    func deepTreeAlive() async throws {
        let recorder = TraceRecorder(app: "deep-alive")
        var root: RecordedRootRouter?
        await recorder.record {
            root = RecordedRootRouter()
            await root!.launch()
            var parent: Routing = root!
            for _ in 0..<25 {
                let child = RecordedDepthRouter()
                await parent.attachChild(child)
                parent = child
            }
        }
        var state = TraceState()
        for event in recorder.events { state.apply(event) }
        #expect(state.liveTree().map(\.depth).max() == 25)
        #expect(recorder.analyze(grace: Self.cleanGrace).isClean)
        let teardown = recorder.analyze(grace: Self.cleanGrace, expectTeardown: true)
        #expect(teardown.findings.map(\.rule) == [.aliveAtEnd], "\(teardown)")
        #expect(teardown.findings.first?.type == "RecordedRootRouter")
        #expect(teardown.findings.first?.message.contains("25 attached descendants") == true)
        // Releasing the root (while everything is attached and active) tears the whole tree down.
        try await expectCleanAfterTeardown(recorder, releasing: &root)
    }

    @Test("many concurrent flows, each attaching and detaching its own children, are clean")
    func concurrentFlows() async throws {
        let recorder = TraceRecorder(app: "concurrent")
        var roots: [RecordedRootRouter]? = await recorder.record { () -> [RecordedRootRouter] in
            let roots = (0..<12).map { _ in RecordedRootRouter() }
            await runConcurrently(roots)
            return roots
        }
        #expect(RecordedTrace(recorder).count("launch") == 12)
        #expect(RecordedTrace(recorder).count("attach") == 12 * 12)
        #expect(await waitFor { RecordedTrace(recorder).liveCount == 24 })   // 12 roots and their interactors
        try await expectCleanAfterTeardown(recorder, releasing: &roots)
    }

    // MARK: - Helpers

    /// Launches each root and, concurrently for all of them, attaches and
    /// detaches children (with grandchildren every other round).
    private func runConcurrently(_ roots: [RecordedRootRouter]) async {
        await withDiscardingTaskGroup { group in
            for index in roots.indices {
                let root = roots[index]
                group.addTask {
                    await Self.flow(root)
                }
            }
        }
    }

    private static func flow(_ root: RecordedRootRouter) async {
        await root.launch()
        for round in 0..<8 {
            let child = RecordedHostRouter()
            await root.attachChild(child)
            if round % 2 == 0 { await child.attachChild(RecordedCachedRouter()) }
            await Task.yield()
            await root.detachChild(child)
        }
    }

    /// Polls `recorder.analyze(grace:)` until a finding of `rule` appears (or
    /// 20 s pass), then waits two more grace periods so that every other check
    /// has had its chance, and returns the final report.
    private func findings(_ recorder: TraceRecorder, until rule: Finding.Rule,
                          grace: Duration = AnalysisRecordedTests.grace) async throws -> AnalysisReport {
        let found = await waitFor { !recorder.analyze(grace: grace).findings(rule).isEmpty }
        try #require(found, "no \(rule.rawValue) finding: \(recorder.analyze(grace: grace))")
        try await Task.sleep(for: grace * 2)
        return recorder.analyze(grace: grace)
    }

    /// A grace period comfortably longer than the trace time this run took
    /// between detaching `router` and releasing it. On a loaded machine (or
    /// under ThreadSanitizer) that gap can exceed the default, and a test
    /// about something else must not see it as a leak.
    private func graceCovering(release router: NodeID, in recorder: TraceRecorder) -> Duration {
        let events = recorder.events
        let detached = events.first { if case .detach(_, let child) = $0.kind { return child == router }; return false }?.time
        let released = events.first { $0.kind == .deallocated(id: router) }?.time
        guard let detached, let released, released > detached else { return Self.grace }
        return max(Self.grace, .nanoseconds(Int64(released - detached) * 2) + .milliseconds(500))
    }

    /// Waits until every router and interactor of the recording is deallocated.
    private func requireAllDeallocated(_ recorder: TraceRecorder, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let gone = await waitFor { RecordedTrace(recorder).liveCount == 0 }
        try #require(gone, "still alive: \(RecordedTrace(recorder).alive.sorted())", sourceLocation: sourceLocation)
    }

    /// Releases `root`, waits for everything to deallocate, and expects a
    /// clean report with nothing undecided, with and without expect-teardown.
    private func expectCleanAfterTeardown<T>(_ recorder: TraceRecorder, releasing root: inout T?,
                                             sourceLocation: SourceLocation = #_sourceLocation) async throws {
        // Clean means: nothing but late deallocations could be reported, and
        // requireAllDeallocated below proves there are none at all. The grace
        // is generous so that a main actor kept busy by a parallel test run
        // (which delays the release after a detach) is not mistaken for a leak.
        let before = recorder.analyze(grace: Self.cleanGrace)
        #expect(before.isClean, "before teardown:\n\(before)", sourceLocation: sourceLocation)
        root = nil
        try await requireAllDeallocated(recorder, sourceLocation: sourceLocation)
        recorder.finish()
        for teardown in [false, true] {
            let report = recorder.analyze(grace: Self.cleanGrace, expectTeardown: teardown)
            #expect(report.isClean, "\(report)", sourceLocation: sourceLocation)
            #expect(report.undecided == 0, sourceLocation: sourceLocation)
            #expect(report.endedCleanly, sourceLocation: sourceLocation)
        }
        // The recording read back from its NDJSON gives the same events and verdict.
        var parser = TraceLineParser()
        let events = recorder.ndjson.split(separator: "\n").compactMap { line -> TraceEvent? in
            if case .event(let event) = parser.parse(String(line)) { return event }
            return nil
        }
        #expect(events == recorder.events, sourceLocation: sourceLocation)
        #expect(TraceAnalyzer.analyze(events, options: .init(grace: 30_000_000_000, expectTeardown: true)).isClean, sourceLocation: sourceLocation)
    }

    /// Polls `condition` until it holds or `timeout` passes; returns whether it held.
    private func waitFor(timeout: Duration = .seconds(20), _ condition: () -> Bool) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while !condition() {
            if ContinuousClock.now > deadline { return false }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return true
    }
}

// MARK: - The recorded trace, queried

/// Questions about a recording, asked of a snapshot of its events.
struct RecordedTrace {
    let events: [TraceEvent]

    init(_ recorder: TraceRecorder) { events = recorder.events }

    /// Ids of the routers of type `type`, in creation order.
    func routerIDs(_ type: String) -> [NodeID] {
        events.compactMap { if case .routerCreated(let id, type, _, _) = $0.kind { id } else { nil } }
    }

    /// Ids of the interactors of type `type`, in creation order.
    func interactorIDs(_ type: String) -> [NodeID] {
        events.compactMap { if case .interactorCreated(let id, type) = $0.kind { id } else { nil } }
    }

    func contains(_ kind: TraceEvent.Kind) -> Bool { events.contains { $0.kind == kind } }

    /// The sequence number of the first event of `kind` (0 if none).
    func seq(of kind: TraceEvent.Kind) -> UInt64 { events.first { $0.kind == kind }?.seq ?? 0 }

    /// How many events have the wire name `ev`.
    func count(_ ev: String) -> Int { events.filter { $0.kind.wireName == ev }.count }

    /// Routers and interactors created and not deallocated.
    var alive: Set<NodeID> {
        var alive = Set<NodeID>()
        for event in events {
            switch event.kind {
            case .interactorCreated(let id, _): alive.insert(id)
            case .routerCreated(let id, _, let interactor, _):
                alive.insert(id)
                if interactor != 0 { alive.insert(interactor) }
            case .deallocated(let id): alive.remove(id)
            default: break
            }
        }
        return alive
    }

    var liveCount: Int { alive.count }
}

// MARK: - Napkins for these tests

/// A one-shot gate a task can wait on without noticing cancellation.
final class RecordedGate: Sendable {
    private let state = Mutex<(open: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { s -> Bool in
                if s.open { return true }
                s.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }

    func open() {
        let waiters = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.open = true
            defer { s.waiters.removeAll() }
            return s.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

/// A "service" that caches routers (the bug behind an un-detached child).
@MainActor final class RecordedRouterCache {
    private var routers: [Routing] = []
    func keep(_ router: Routing) { routers.append(router) }
    func clear() { routers.removeAll() }
}

final actor RecordedInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

@MainActor final class RecordedView: ViewControllable {}

@MainActor final class RecordedRootRouter: LaunchRouter<RecordedInteractor, RecordedView> {
    convenience init() { self.init(interactor: RecordedInteractor(), viewController: RecordedView()) }
}

@MainActor final class RecordedMenuRouter: Router<RecordedInteractor> {
    convenience init() { self.init(interactor: RecordedInteractor()) }
}

@MainActor final class RecordedTabRouter: Router<RecordedInteractor> {
    convenience init() { self.init(interactor: RecordedInteractor()) }
}

@MainActor final class RecordedOtherTabRouter: Router<RecordedInteractor> {
    convenience init() { self.init(interactor: RecordedInteractor()) }
}

@MainActor final class RecordedHostRouter: Router<RecordedInteractor> {
    convenience init() { self.init(interactor: RecordedInteractor()) }
}

@MainActor final class RecordedCachedRouter: Router<RecordedInteractor> {
    convenience init() { self.init(interactor: RecordedInteractor()) }
}

@MainActor final class RecordedDepthRouter: Router<RecordedInteractor> {
    convenience init() { self.init(interactor: RecordedInteractor()) }
}

/// An interactor that keeps a strong reference to its router: a retain cycle.
final actor RecordedCheckoutInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    private var router: RecordedCheckoutRouter?
    func hold(_ router: RecordedCheckoutRouter) { self.router = router }
    func release() { router = nil }
}

@MainActor final class RecordedCheckoutRouter: Router<RecordedCheckoutInteractor> {
    convenience init() { self.init(interactor: RecordedCheckoutInteractor()) }
}

/// An interactor whose bound task "poller" waits on a gate and never checks
/// for cancellation; with `capturesSelf` the task also keeps the interactor.
final actor RecordedPollerInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let gate: RecordedGate
    nonisolated let capturesSelf: Bool

    init(gate: RecordedGate, capturesSelf: Bool) {
        self.gate = gate
        self.capturesSelf = capturesSelf
    }

    func didBecomeActive() async {
        if capturesSelf {
            task(named: "poller") { await self.poll() }
        } else {
            task(named: "poller") { [gate] in await gate.wait() }
        }
    }

    private func poll() async { await gate.wait() }
}

@MainActor final class RecordedPollerRouter: Router<RecordedPollerInteractor> {
    convenience init(gate: RecordedGate, capturesSelf: Bool) {
        self.init(interactor: RecordedPollerInteractor(gate: gate, capturesSelf: capturesSelf))
    }
}

/// An interactor whose builder starts work before the napkin is attached.
final actor RecordedPrefetchInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    func prefetch() {
        task(named: "prefetch") { try? await Task.sleep(for: .milliseconds(1)) }
    }
}

@MainActor final class RecordedPrefetchRouter: Router<RecordedPrefetchInteractor> {
    convenience init() { self.init(interactor: RecordedPrefetchInteractor()) }
}
