import Napkin
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

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
        var menus: [RecordedMenuRouter] = []
        var run = await recordOnRoot("duplicate") { root in
            menus.append(RecordedMenuRouter())
            await root.attachChild(menus[0])
            // "Back" forgot detachChild; opening the menu again attaches a second one. The
            // steps are marked, as an app (or a UI test) marks them: without a mark, two
            // same-type children attached back to back are a group (a list, tabs).
            NapkinTrace.mark("back")
            menus.append(RecordedMenuRouter())
            await root.attachChild(menus[1])
        }
        let trace = RecordedTrace(run.recorder)
        let ids = trace.routerIDs("RecordedMenuRouter")
        let rootID = try #require(trace.routerIDs("RecordedRootRouter").first)
        try #require(ids.count == 2)
        let report = try await findings(run.recorder, until: .duplicateChild)
        try expectOnlyFinding(in: report, .duplicateChild, .router, "RecordedMenuRouter", ids[0],
                              seqs: [trace.seq(of: .attach(parent: rootID, child: ids[0])),
                                     trace.seq(of: .attach(parent: rootID, child: ids[1]))])
        for menu in menus { await run.root!.detachChild(menu) }
        menus.removeAll()
        try await release(&run)
    }

    @Test("a retain cycle through a strong router reference in the interactor → not-deallocated router")
    func retainCycle() async throws {
        var checkout: RecordedCheckoutRouter?
        var run = await recordOnRoot("cycle") { root in
            checkout = RecordedCheckoutRouter()
            // The interactor keeps its router strongly (a `var router` instead of `weak var`).
            await checkout!.interactor.hold(checkout!)
            await root.attachChild(checkout!)
        }
        var interactor: RecordedCheckoutInteractor? = checkout!.interactor
        await run.root!.detachChild(checkout!)
        checkout = nil
        let id = try #require(RecordedTrace(run.recorder).routerIDs("RecordedCheckoutRouter").first)
        let report = try await findings(run.recorder, until: .notDeallocated)
        // Only the router: its interactor (held by the router) is not reported separately.
        try expectOnlyFinding(in: report, .notDeallocated, .router, "RecordedCheckoutRouter", id)
        // Breaking the cycle lets everything go.
        await interactor!.release()
        interactor = nil
        try await release(&run)
    }

    @Test("a task that ignores cancellation and keeps its interactor alive → orphaned-task, reported as the task")
    func taskIgnoresCancellation() async throws {
        let gate = Gate()
        var poller = try await detachedPoller(app: "orphan", gate: gate, capturesSelf: true)
        let report = try await findings(poller.run.recorder, until: .orphanedTask, grace: graceCovering(release: poller.router, in: poller.run.recorder))
        // Not a not-deallocated interactor: the running task is what keeps it.
        let finding = try expectOnlyFinding(in: report, .orphanedTask, .task, "RecordedPollerInteractor", poller.owner, label: "poller")
        #expect(finding.message.contains("deactivated"))
        gate.open()
        try await release(&poller.run)
    }

    @Test("a task that ignores cancellation after its interactor went away → orphaned-task with the owner's type")
    func taskOutlivesOwner() async throws {
        let gate = Gate()
        var poller = try await detachedPoller(app: "orphan-gone", gate: gate, capturesSelf: false)
        // The interactor itself goes away; its task does not.
        #expect(await waitUntil { RecordedTrace(poller.run.recorder).contains(.deallocated(id: poller.owner)) })
        let report = try await findings(poller.run.recorder, until: .orphanedTask, grace: graceCovering(release: poller.router, in: poller.run.recorder))
        try expectOnlyFinding(in: report, .orphanedTask, .task, "RecordedPollerInteractor", poller.owner, label: "poller")
        gate.open()
        #expect(await waitUntil { RecordedTrace(poller.run.recorder).count("task_end") == 1 })
        try await release(&poller.run)
    }

    @Test("a task started before the interactor is active → task-started-inactive, and nothing else")
    func taskStartedInactive() async throws {
        var menu: RecordedPrefetchRouter?
        var run = await recordOnRoot("inactive") { root in
            menu = RecordedPrefetchRouter()
            // Work started by the builder before the napkin is attached.
            await menu!.interactor.prefetch()
            await root.attachChild(menu!)
        }
        await run.root!.detachChild(menu!)
        menu = nil
        try await release(&run)
        let owner = try #require(RecordedTrace(run.recorder).interactorIDs("RecordedPrefetchInteractor").first)
        let report = await run.recorder.analyzeOnOwnThread(grace: Self.cleanGrace)
        let finding = try expectOnlyFinding(in: report, .taskStartedInactive, .task, "RecordedPrefetchInteractor", owner, label: "prefetch")
        #expect(finding.severity == .warning)
    }

    @Test("a child retained by a service after its parent left → undetached-child")
    func childRetainedByService() async throws {
        let service = RecordedRouterCache()
        var host: RecordedHostRouter?
        var run = await recordOnRoot("undetached") { root in
            host = RecordedHostRouter()
            let cached = RecordedCachedRouter()
            service.keep(cached)
            await root.attachChild(host!)
            await host!.attachChild(cached)
        }
        // Back navigation detaches the host, which never detaches its child.
        await run.root!.detachChild(host!)
        host = nil
        let trace = RecordedTrace(run.recorder)
        let hostID = try #require(trace.routerIDs("RecordedHostRouter").first)
        let childID = try #require(trace.routerIDs("RecordedCachedRouter").first)
        #expect(await waitUntil { RecordedTrace(run.recorder).contains(.deallocated(id: hostID)) })
        let report = try await findings(run.recorder, until: .undetachedChild)
        let finding = try expectOnlyFinding(in: report, .undetachedChild, .router, "RecordedCachedRouter", childID,
                                            seqs: [RecordedTrace(run.recorder).seq(of: .deallocated(id: hostID))])
        #expect(finding.message.contains("RecordedHostRouter#\(hostID)"))
        service.clear()
        try await release(&run)
    }

    // MARK: - Clean flows

    @Test("swapping two children back and forth is clean")
    func swapChildren() async throws {
        var run = await recordOnRoot("swap") { root in
            var current: Routing = RecordedTabRouter()
            await root.attachChild(current)
            for i in 0..<10 {
                let next: Routing = i % 2 == 0 ? RecordedOtherTabRouter() : RecordedTabRouter()
                await root.detachChild(current)
                await root.attachChild(next)
                current = next
            }
            await root.detachChild(current)
        }
        #expect(RecordedTrace(run.recorder).count("attach") == 11)
        try await expectCleanAfterTeardown(run.recorder, releasing: &run.root)
    }

    @Test("detaching and re-attaching the same child is clean")
    func detachAndReattach() async throws {
        var run = await recordOnRoot("reattach") { root in
            let child = RecordedHostRouter()
            let grandchild = RecordedCachedRouter()
            await root.attachChild(child)
            await child.attachChild(grandchild)
            for _ in 0..<5 {
                await root.detachChild(child)
                await root.attachChild(child)
            }
            await root.detachChild(child)
        }
        let trace = RecordedTrace(run.recorder)
        #expect(trace.count("attach") == 7)
        #expect(trace.count("detach") == 6)
        try await expectCleanAfterTeardown(run.recorder, releasing: &run.root)
    }

    @Test("a deep tree (depth 25) built, detached and released is clean")
    func deepTree() async throws {
        var run = await recordOnRoot("deep") { root in
            await root.detachChild(await Self.attachChain(depth: 25, under: root))
        }
        #expect(RecordedTrace(run.recorder).routerIDs("RecordedDepthRouter").count == 25)
        try await expectCleanAfterTeardown(run.recorder, releasing: &run.root)
    }

    @Test("a deep tree alive at the end: 26 levels, clean, and one alive-at-end finding with expect-teardown")
    func deepTreeAlive() async throws {
        var run = await recordOnRoot("deep-alive") { root in
            _ = await Self.attachChain(depth: 25, under: root)
        }
        var state = TraceState()
        for event in run.recorder.eventsAsRecorded { state.apply(event) }
        #expect(state.liveTree().map(\.depth).max() == 25)
        #expect(run.recorder.analyze(grace: Self.cleanGrace).isClean)
        let teardown = await run.recorder.analyzeOnOwnThread(grace: Self.cleanGrace, expectTeardown: true)
        #expect(teardown.findings.map(\.rule) == [.aliveAtEnd], "\(teardown)")
        #expect(teardown.findings.first?.type == "RecordedRootRouter")
        #expect(teardown.findings.first?.message.contains("25 attached descendants") == true)
        // Releasing the root (while everything is attached and active) tears the whole tree down.
        try await expectCleanAfterTeardown(run.recorder, releasing: &run.root)
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
        #expect(await waitUntil { RecordedTrace(recorder).liveCount == 24 })   // 12 roots and their interactors
        try await expectCleanAfterTeardown(recorder, releasing: &roots)
    }

    // MARK: - Helpers

    /// A root router, launched.
    private static func launchedRoot() async -> RecordedRootRouter {
        let root = RecordedRootRouter()
        await root.launch()
        return root
    }

    /// A recording, and the launched root of the tree it recorded.
    struct Recording {
        let recorder: TraceRecorder
        /// The root; ``release(_:)`` sets it to nil to release the tree.
        var root: RecordedRootRouter?
    }

    /// Records `body`, run on a root router launched inside the recording.
    private func recordOnRoot(_ app: String, _ body: (RecordedRootRouter) async -> Void) async -> Recording {
        let recorder = TraceRecorder(app: app)
        var root: RecordedRootRouter?
        await recorder.record {
            root = await Self.launchedRoot()
            await body(root!)
        }
        return Recording(recorder: recorder, root: root)
    }

    /// Releases the recorded tree and waits until all of it is deallocated.
    private func release(_ run: inout Recording, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        run.root = nil
        try await requireAllDeallocated(run.recorder, sourceLocation: sourceLocation)
    }

    /// Attaches a chain of `depth` routers under `root`, each under the previous one; returns the top one.
    private static func attachChain(depth: Int, under root: RecordedRootRouter) async -> Routing {
        var parent: Routing = root
        var top: Routing?
        for _ in 0..<depth {
            let child = RecordedDepthRouter()
            await parent.attachChild(child)
            if top == nil { top = child }
            parent = child
        }
        return top!
    }

    /// A recording with a poller napkin: its interactor (the task's owner) and router.
    struct PollerRecording {
        var run: Recording
        let owner: NodeID, router: NodeID
    }

    /// Records a poller napkin (whose task waits on `gate` and ignores
    /// cancellation) attached to the root, then detached and dropped; returns
    /// once the poller's router is deallocated.
    private func detachedPoller(app: String, gate: Gate, capturesSelf: Bool) async throws -> PollerRecording {
        var napkin: RecordedPollerRouter?
        let run = await recordOnRoot(app) { root in
            napkin = RecordedPollerRouter(gate: gate, capturesSelf: capturesSelf)
            await root.attachChild(napkin!)
        }
        await run.root!.detachChild(napkin!)
        napkin = nil
        let trace = RecordedTrace(run.recorder)
        let poller = PollerRecording(run: run, owner: try #require(trace.interactorIDs("RecordedPollerInteractor").first),
                                     router: try #require(trace.routerIDs("RecordedPollerRouter").first))
        // The router goes away (its deinit runs on the main actor, which other
        // suites may keep busy: wait for it rather than racing the grace period).
        #expect(await waitUntil { RecordedTrace(run.recorder).contains(.deallocated(id: poller.router)) })
        return poller
    }

    /// Expects `report` to hold exactly one finding, of `rule`, about
    /// `type`#`id` (`subject`), with `label` and, when given, `seqs`.
    @discardableResult
    private func expectOnlyFinding(in report: AnalysisReport, _ rule: Finding.Rule, _ subject: Finding.SubjectKind,
                                   _ type: String, _ id: NodeID, label: String? = nil, seqs: [UInt64]? = nil,
                                   sourceLocation: SourceLocation = #_sourceLocation) throws -> Finding {
        #expect(report.findings.count == 1, "\(report)", sourceLocation: sourceLocation)
        let finding = try #require(report.findings(rule).first, "no \(rule) finding in:\n\(report)", sourceLocation: sourceLocation)
        #expect(finding.subject == subject, sourceLocation: sourceLocation)
        #expect(finding.type == type, sourceLocation: sourceLocation)
        #expect(finding.id == id, sourceLocation: sourceLocation)
        #expect(finding.label == label, sourceLocation: sourceLocation)
        if let seqs { #expect(finding.seqs == seqs, sourceLocation: sourceLocation) }
        return finding
    }

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
        let found = await eventually { await !recorder.analyzeOnOwnThread(grace: grace).findings(rule).isEmpty }
        try #require(found, "no \(rule.rawValue) finding: \(recorder.analyze(grace: grace))")
        try await Task.sleep(for: grace * 2)
        return await recorder.analyzeOnOwnThread(grace: grace)
    }

    /// A grace period comfortably longer than the trace time this run took
    /// between detaching `router` and releasing it. On a loaded machine (or
    /// under ThreadSanitizer) that gap can exceed the default, and a test
    /// about something else must not see it as a leak.
    private func graceCovering(release router: NodeID, in recorder: TraceRecorder) -> Duration {
        let events = recorder.eventsAsRecorded
        let detached = events.first { if case .detach(_, let child) = $0.kind { return child == router }; return false }?.time
        let released = events.first { $0.kind == .deallocated(id: router) }?.time
        guard let detached, let released, released > detached else { return Self.grace }
        return max(Self.grace, .nanoseconds(Int64(released - detached) * 2) + .milliseconds(500))
    }

    /// Waits until every router and interactor of the recording is deallocated.
    private func requireAllDeallocated(_ recorder: TraceRecorder, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let gone = await waitUntil { RecordedTrace(recorder).liveCount == 0 }
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
        let before = await recorder.analyzeOnOwnThread(grace: Self.cleanGrace)
        #expect(before.isClean, "before teardown:\n\(before)", sourceLocation: sourceLocation)
        root = nil
        try await requireAllDeallocated(recorder, sourceLocation: sourceLocation)
        recorder.finish()
        for teardown in [false, true] {
            let report = await recorder.analyzeOnOwnThread(grace: Self.cleanGrace, expectTeardown: teardown)
            #expect(report.isClean, "\(report)", sourceLocation: sourceLocation)
            #expect(report.undecided == 0, sourceLocation: sourceLocation)
            #expect(report.endedCleanly, sourceLocation: sourceLocation)
        }
        // The recording read back from its NDJSON gives the same events and verdict.
        // Both carry the creation lines: worked out off the main actor.
        let events = parseEvents(await recorder.ndjsonWithLines())
        #expect(events == (await recorder.eventsWithLines()), sourceLocation: sourceLocation)
        #expect(TraceAnalyzer.analyze(events, options: .init(grace: 30_000_000_000, expectTeardown: true)).isClean, sourceLocation: sourceLocation)
    }
}

// MARK: - The recorded trace, queried

/// Questions about a recording, asked of a snapshot of its events.
struct RecordedTrace {
    let events: [TraceEvent]

    init(_ recorder: TraceRecorder) { events = recorder.eventsAsRecorded }   // no question here reads a creation line

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

/// A "service" that caches routers (the bug behind an un-detached child).
@MainActor final class RecordedRouterCache {
    private var routers: [Routing] = []
    func keep(_ router: Routing) { routers.append(router) }
    func clear() { routers.removeAll() }
}

final actor RecordedInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

@MainActor final class RecordedView: HeadlessViewControllable {}

@MainActor final class RecordedRootRouter: LaunchRouter<RecordedInteractor, RecordedView> {
    convenience init() { self.init(interactor: RecordedInteractor(), viewController: RecordedView()) }
}

/// A router with a plain interactor; each test napkin is a subclass, so
/// that the trace names it by its own type.
@MainActor class RecordedPlainRouter: Router<RecordedInteractor> {
    convenience init() { self.init(interactor: RecordedInteractor()) }
}

@MainActor final class RecordedMenuRouter: RecordedPlainRouter {}
@MainActor final class RecordedTabRouter: RecordedPlainRouter {}
@MainActor final class RecordedOtherTabRouter: RecordedPlainRouter {}
@MainActor final class RecordedHostRouter: RecordedPlainRouter {}
@MainActor final class RecordedCachedRouter: RecordedPlainRouter {}
@MainActor final class RecordedDepthRouter: RecordedPlainRouter {}

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
    nonisolated let gate: Gate
    nonisolated let capturesSelf: Bool

    init(gate: Gate, capturesSelf: Bool) {
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
    convenience init(gate: Gate, capturesSelf: Bool) {
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
