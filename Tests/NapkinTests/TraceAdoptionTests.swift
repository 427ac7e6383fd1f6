import Foundation
import Napkin
import NapkinTrace
import Testing
import TestSupport

/// Recording follows the tree: a router attached under a recorded router is
/// recorded, with its interactor, its tasks and its whole subtree, wherever it
/// was created (it is *adopted* by its parent's trace). A router that already
/// reports to a trace keeps it.
///
/// The objects these tests build outside `record {}` must be untraced, which
/// `NAPKIN_TRACE` would change (they would report to the process-wide trace
/// and keep it), so the suite is off when it is set.
@Suite("Recording follows the tree", .disabled(if: ProcessInfo.processInfo.environment["NAPKIN_TRACE"] != nil,
                                                "NAPKIN_TRACE traces the objects created outside record {}"))
@MainActor
struct TraceAdoptionTests {
    /// Generous: under a full parallel test run the main actor can be busy.
    static let grace: Duration = .seconds(2)
    /// For clean verdicts, once everything has deallocated: a deactivation
    /// that a loaded machine (or ThreadSanitizer) delays is not a finding.
    static let cleanGrace: Duration = .seconds(30)

    // MARK: - The README's "In tests" example

    // The README's 200 ms grace suits a quiet machine. Under a loaded one a
    // deactivation can take longer than that, which a short grace reports too
    // (active-after-detach): each test runs the README's code as written, then
    // checks the exact verdict with a grace a loaded machine does not exceed.

    @Test("README: LoggedIn created by logIn() outside record {} and leaked → not-deallocated")
    func readmeExampleLeak() async throws {
        let recorder = TraceRecorder()
        let root = await recorder.record { await makeLaunchedRoot(leaking: true) }  // objects created inside are recorded
        await root.logIn()
        weak let loggedIn = root.loggedIn
        await root.logOut()
        try await Task.sleep(for: .milliseconds(300))
        let report = await recorder.analyzeOnOwnThread(grace: .milliseconds(200))
        // The README asserts `report.isClean`: this flow leaks, so that assertion must fail.
        #expect(!report.isClean, "the leak was not recorded:\n\(recorder.eventsAsRecorded.map { "\($0.kind)" }.joined(separator: "\n"))")
        let id = try #require(AdoptionTrace(recorder).routerIDs("LoginFlowLoggedInRouter").first,
                              "LoggedIn is not in the recording")
        #expect(report.findings(.notDeallocated).map(\.id) == [id], "\(report)")

        // The exact verdict: one finding, the LoggedIn router. The grace covers the time
        // LoggedIn's deactivation took to start (long on a loaded machine).
        let trace = AdoptionTrace(recorder)
        let rootID = root.traceID, interactorID = trace.interactorOf(id)
        try #require(await waitUntil { AdoptionTrace(recorder).contains(.deactivate(interactor: interactorID)) })
        let lag = AdoptionTrace(recorder).time(of: .deactivate(interactor: interactorID)) &- trace.time(of: .detach(parent: rootID, child: id))
        let grace = max(Self.grace, .nanoseconds(Int64(lag) * 2) + .milliseconds(500))
        let found = await eventually { await !recorder.analyzeOnOwnThread(grace: grace).findings(.notDeallocated).isEmpty }
        try await Task.sleep(for: grace)
        let exact = await recorder.analyzeOnOwnThread(grace: grace)
        try #require(found, "\(exact)")
        #expect(exact.findings.count == 1, "\(exact)")
        let finding = try #require(exact.findings(.notDeallocated).first, "\(exact)")
        #expect(finding.subject == .router && finding.type == "LoginFlowLoggedInRouter" && finding.id == id, "\(finding)")
        // Break the cycle: everything goes away.
        try #require(loggedIn != nil)
        await loggedIn?.interactor.release()
        #expect(await waitUntil { AdoptionTrace(recorder).contains(.deallocated(id: id)) })
    }

    @Test("README: the clean flow is clean, and LoggedIn and the child it attached are in the recording")
    func readmeExampleClean() async throws {
        let recorder = TraceRecorder()
        let root = await recorder.record { await makeLaunchedRoot() }  // objects created inside are recorded
        await root.logIn()
        await root.logOut()
        try await Task.sleep(for: .milliseconds(300))
        let report = await recorder.analyzeOnOwnThread(grace: .milliseconds(200))

        // Everything LoggedIn brought is gone (logOut released it).
        #expect(await waitUntil { AdoptionTrace(recorder).liveCount == 2 }, "\(AdoptionTrace(recorder).alive.sorted())")
        let trace = AdoptionTrace(recorder)
        let rootID = root.traceID
        let loggedIn = try #require(trace.routerIDs("LoginFlowLoggedInRouter").first)
        let menu = try #require(trace.routerIDs("LoginFlowMenuRouter").first)
        // The README's assertion, as written, whenever the teardown (detach to the last
        // deallocation) fit in its 200 ms; the final verdict, whatever the machine's load.
        let teardown = trace.time(of: .deallocated(id: trace.interactorOf(menu))) &- trace.time(of: .detach(parent: rootID, child: loggedIn))
        if teardown < 150_000_000 { #expect(report.isClean, "\(report)") }
        let final = await recorder.analyzeOnOwnThread(grace: Self.cleanGrace)
        #expect(final.isClean, "\(final)")

        for kind: TraceEvent.Kind in [.attach(parent: rootID, child: loggedIn), .attach(parent: loggedIn, child: menu),
                                      .detach(parent: rootID, child: loggedIn),
                                      .deallocated(id: loggedIn), .deallocated(id: menu)] {
            #expect(trace.contains(kind), "\(kind) missing")
        }
        // The creation records come before the attach that adopted it.
        #expect(trace.seq(of: .interactorCreated(id: trace.interactorOf(loggedIn), type: "LoginFlowLoggedInInteractor"))
                < trace.seq(of: .attach(parent: rootID, child: loggedIn)))
        #expect(trace.seq(of: .attach(parent: rootID, child: loggedIn)) < trace.seq(of: .attach(parent: loggedIn, child: menu)))
        #expect(trace.liveCount == 2, "only the root and its interactor are alive: \(trace.alive.sorted())")
    }

    // MARK: - What adoption records

    @Test("an untraced subtree attached under a recorded root: each router's creation and state, then its link")
    func adoptedSubtreeSequence() async throws {
        let recorder = TraceRecorder(app: "adopt")
        let root = await recorder.record { () -> TraceTestRootRouter in
            let root = TraceTestRootRouter()                     // interactor 1, router 2
            await root.launch()
            return root
        }
        // Built outside the recording: a host whose child is attached (so active, with its
        // "watch" task running, and loaded) before the host itself is attached anywhere.
        var host: TraceTestRouter? = TraceTestRouter()
        var inner: TraceTestRouter? = TraceTestRouter(bindsTask: true)
        await host!.attachChild(inner!)
        #expect(host!.tracer == nil && inner!.tracer == nil)

        await root.attachChild(host!)                            // adopts host (3, 4) and inner (5, 6, task 7)
        #expect(host!.traceID == 4 && inner!.traceID == 6)
        #expect(host!.interactor.lifecycle.traceID == 3 && inner!.interactor.lifecycle.traceID == 5)
        await root.detachChild(host!)
        try #require(await waitUntil { AdoptionTrace(recorder).contains(.taskEnd(task: 7, outcome: .cancelled)) })
        host = nil
        inner = nil
        try #require(await waitUntil { AdoptionTrace(recorder).contains(.deallocated(id: 5)) })

        let expected: [TraceEvent.Kind] = [
            .interactorCreated(id: 1, type: "TraceTestInteractor"),
            .routerCreated(id: 2, type: "TraceTestRootRouter", interactor: 1, interactorType: "TraceTestInteractor"),
            .launch(router: 2),
            .activate(interactor: 1),
            .hookEnd(interactor: 1),
            .load(router: 2),
            // adoption, in pre-order: each router is created (its interactor, the router, then
            // the interactor's state and running tasks) just before its link to its parent;
            // a router that has loaded records it after its subtree
            .interactorCreated(id: 3, type: "TraceTestInteractor"),
            .routerCreated(id: 4, type: "TraceTestRouter", interactor: 3, interactorType: "TraceTestInteractor"),
            .attach(parent: 2, child: 4),
            .interactorCreated(id: 5, type: "TraceTestInteractor"),
            .routerCreated(id: 6, type: "TraceTestRouter", interactor: 5, interactorType: "TraceTestInteractor"),
            .activate(interactor: 5),
            .hookEnd(interactor: 5),                             // active: its didBecomeActive has returned
            .taskStart(task: 7, owner: 5, label: "watch"),
            .attach(parent: 4, child: 6),
            .load(router: 6),
            // then the attach goes on as usual: the host activates (its child already is) and loads
            .activate(interactor: 3),
            .hookEnd(interactor: 3),
            .load(router: 4),
            .detach(parent: 2, child: 4),
            .deactivate(interactor: 3),
            .hookEnd(interactor: 3),
            .deactivate(interactor: 5),
            .hookEnd(interactor: 5),
            .taskCancel(task: 7),
            .taskEnd(task: 7, outcome: .cancelled),
            .deallocated(id: 4),
            .deallocated(id: 3),
            .deallocated(id: 6),
            .deallocated(id: 5),
        ]
        let actual = recorder.eventsAsRecorded.dropFirst().map(\.kind)
        #expect(actual == expected, "\(actual.map { "\($0)" }.joined(separator: "\n"))")
        let report = await recorder.analyzeOnOwnThread(grace: Self.cleanGrace)
        #expect(report.isClean, "\(report)")
        withExtendedLifetime(root) {}
    }

    @Test("a task started before adoption that ignores cancellation → orphaned-task, with its label")
    func orphanedTaskStartedBeforeAdoption() async throws {
        let recorder = TraceRecorder(app: "adopt-orphan")
        let root = await recorder.record { await makeLaunchedRoot() }
        let gate = Gate()
        // Outside the recording, a builder attaches the poller to its (not yet attached) parent:
        // the poller activates and starts its "poller" task, which ignores cancellation.
        var parent: RecordedHostRouter? = RecordedHostRouter()
        var poller: RecordedPollerRouter? = RecordedPollerRouter(gate: gate, capturesSelf: false)
        await parent!.attachChild(poller!)
        await root.attachChild(parent!)
        let owner = poller!.interactor.lifecycle.traceID
        let router = poller!.traceID, top = parent!.traceID
        #expect(owner != 0)
        await root.detachChild(parent!)
        parent = nil
        poller = nil

        let report = try await findings(recorder, until: .orphanedTask, detached: top, released: router)
        #expect(report.findings.count == 1, "\(report)")
        let finding = try #require(report.findings(.orphanedTask).first)
        #expect(finding.type == "RecordedPollerInteractor" && finding.id == owner && finding.label == "poller", "\(finding)")
        gate.open()
        #expect(await waitUntil { AdoptionTrace(recorder).count("task_end") == 1 })
    }

    @Test("work a builder started before the attach (inactive) and that ignores cancellation → task-started-inactive and orphaned-task")
    func prefetchBeforeAdoption() async throws {
        let recorder = TraceRecorder(app: "adopt-prefetch")
        let root = await recorder.record { await makeLaunchedRoot() }
        let gate = Gate()
        var napkin: LoginFlowPrefetchRouter? = LoginFlowPrefetchRouter()
        await napkin!.interactor.prefetch(until: gate)
        await root.attachChild(napkin!)
        let owner = napkin!.interactor.lifecycle.traceID
        let router = napkin!.traceID
        await root.detachChild(napkin!)
        napkin = nil

        let report = try await findings(recorder, until: .orphanedTask, detached: router, released: router)
        #expect(report.findings.map(\.rule).sorted { $0.rawValue < $1.rawValue } == [.orphanedTask, .taskStartedInactive], "\(report)")
        for finding in report.findings {
            #expect(finding.id == owner && finding.label == "prefetch", "\(finding)")
        }
        gate.open()
        #expect(await waitUntil { AdoptionTrace(recorder).count("task_end") == 1 })
    }

    @Test("a router created inside the recording with an interactor created outside it: the interactor is recorded with it")
    func interactorCreatedOutside() async throws {
        let recorder = TraceRecorder(app: "adopt-interactor")
        let interactor = RecordedInteractor()
        let router = recorder.record { RecordedHostRouter(interactor: interactor) }
        let id = interactor.lifecycle.traceID
        #expect(id != 0)
        #expect(AdoptionTrace(recorder).events.dropFirst().map(\.kind) == [
            .interactorCreated(id: id, type: "RecordedInteractor"),
            .routerCreated(id: router.traceID, type: "RecordedHostRouter", interactor: id, interactorType: "RecordedInteractor"),
        ])
    }

    @Test("adoptions racing activations, deactivations and bound tasks: each is recorded once, in order")
    func adoptionRacesTransitions() async throws {
        let recorder = TraceRecorder(app: "adopt-race")
        let root = await recorder.record { () -> TraceTestRootRouter in
            let root = TraceTestRootRouter()
            await root.launch()
            return root
        }
        let count = 32, toggles = 12
        let routers = (0..<count).map { _ in LoginFlowRacingRouter(interactor: LoginFlowRacingInteractor()) }
        // Each interactor toggles on its own while the main actor attaches its router.
        await withTaskGroup(of: Void.self) { group in
            for router in routers {
                let interactor = router.interactor
                group.addTask {
                    for _ in 0..<toggles {
                        await interactor.activate()
                        await Task.yield()
                        await interactor.deactivate()
                    }
                }
            }
            for router in routers {
                await Task.yield()
                await root.attachChild(router)
            }
        }
        for router in routers { await root.detachChild(router) }
        let settled = await waitUntil {
            let trace = AdoptionTrace(recorder)
            return trace.count("task_start") == trace.count("task_end")
        }
        try #require(settled, "bound tasks did not all end")

        var active: Set<NodeID> = [], created: Set<NodeID> = [], started: Set<NodeID> = [], ended: Set<NodeID> = []
        // Interactors whose hook (started by activate or deactivate) has not recorded its end yet.
        var inHook: Set<NodeID> = []
        var violations: [String] = []
        for event in recorder.eventsAsRecorded {
            switch event.kind {
            case .interactorCreated(let id, _):
                if !created.insert(id).inserted { violations.append("#\(event.seq) created twice") }
            case .activate(let id):
                if !created.contains(id) { violations.append("#\(event.seq) activate before creation") }
                if !active.insert(id).inserted { violations.append("#\(event.seq) activate of active \(id)") }
                if !inHook.insert(id).inserted { violations.append("#\(event.seq) activate of \(id) while a hook runs") }
            case .deactivate(let id):
                if active.remove(id) == nil { violations.append("#\(event.seq) deactivate of inactive \(id)") }
                if !inHook.insert(id).inserted { violations.append("#\(event.seq) deactivate of \(id) while a hook runs") }
            case .hookEnd(let id):
                if inHook.remove(id) == nil { violations.append("#\(event.seq) hook_end of \(id) without a hook running") }
            case .taskStart(let task, let owner, _):
                if task == 0 || !created.contains(owner) { violations.append("#\(event.seq) bad start \(event.kind)") }
                if !started.insert(task).inserted { violations.append("#\(event.seq) task \(task) started twice") }
            case .taskCancel(let task):
                if !started.contains(task) { violations.append("#\(event.seq) cancel of unstarted \(task)") }
            case .taskEnd(let task, _):
                if !started.contains(task) { violations.append("#\(event.seq) end of unstarted \(task)") }
                if !ended.insert(task).inserted { violations.append("#\(event.seq) task \(task) ended twice") }
            default:
                break
            }
        }
        #expect(violations.isEmpty, "\(violations.prefix(20))")
        #expect(inHook.isEmpty, "hooks without an end: \(inHook.sorted())")
        #expect(active == [root.interactor.lifecycle.traceID])
        #expect(started == ended && !started.isEmpty)
        #expect(routers.allSatisfy { $0.traceID != 0 && $0.interactor.lifecycle.traceID != 0 })
        #expect(AdoptionTrace(recorder).count("attach") == count)
    }

    // MARK: - Several traces

    @Test("two recorders in concurrent tasks, with logIn/logOut outside record {}: each sees its own tree only")
    func parallelRecorders() async throws {
        let rounds = 3
        // Flow 0 leaks every LoggedIn, flow 1 leaks none.
        var results = await withTaskGroup(of: FlowResult.self) { group in
            for flow in 0..<2 {
                group.addTask { await Self.loginFlow(flow, rounds: rounds, leaking: flow == 0) }
            }
            var results: [FlowResult] = []
            for await result in group { results.append(result) }
            return results.sorted { $0.flow < $1.flow }
        }
        for (flow, recorder) in results.map({ ($0.flow, $0.recorder) }) {
            let trace = AdoptionTrace(recorder)
            #expect(trace.routerIDs("LoginFlowRootRouter").count == 1, "flow \(flow)")
            #expect(trace.routerIDs("LoginFlowLoggedInRouter").count == rounds, "flow \(flow)")
            #expect(trace.routerIDs("LoginFlowMenuRouter").count == rounds, "flow \(flow)")
            #expect(trace.count("router") == 1 + 2 * rounds, "flow \(flow)")
            #expect(trace.count("attach") == 2 * rounds && trace.count("detach") == rounds, "flow \(flow)")
        }
        let leaking = results[0].recorder, clean = results[1].recorder
        #expect(await eventually { await leaking.analyzeOnOwnThread(grace: Self.grace).findings(.notDeallocated).count == rounds },
                "\(leaking.analyze(grace: Self.grace))")
        let leaks = await leaking.analyzeOnOwnThread(grace: Self.grace)
        #expect(Set(leaks.findings(.notDeallocated).map(\.id)) == Set(AdoptionTrace(leaking).routerIDs("LoginFlowLoggedInRouter")),
                "\(leaks)")
        // (A loaded machine may add active-after-detach for a slow deactivation: still LoggedIn's own.)
        #expect(leaks.findings.allSatisfy { $0.type.hasPrefix("LoginFlowLoggedIn") }, "\(leaks)")
        #expect(await waitUntil { AdoptionTrace(clean).liveCount == 0 })
        #expect(clean.analyze(grace: Self.cleanGrace).isClean, "\(clean.analyze(grace: Self.cleanGrace))")
        for interactor in results[0].leaked { await interactor.release() }
        results.removeAll()
        // The flows' roots went when the flows returned: now everything goes.
        #expect(await waitUntil { AdoptionTrace(leaking).liveCount == 0 }, "\(AdoptionTrace(leaking).alive.sorted())")
    }

    /// Waits until `router` is deallocated, then until a finding of `rule`
    /// appears with a grace covering the gap between the detach of `top` (the
    /// router's own or an ancestor's) and the router's release (long on a
    /// loaded machine), then two more grace periods so that every other check
    /// has had its chance; returns that report.
    private func findings(_ recorder: TraceRecorder, until rule: Finding.Rule,
                          detached top: NodeID, released router: NodeID) async throws -> AnalysisReport {
        try #require(await waitUntil { AdoptionTrace(recorder).contains(.deallocated(id: router)) })
        let events = recorder.eventsAsRecorded
        let detached = events.first { if case .detach(_, top) = $0.kind { true } else { false } }?.time ?? 0
        let released = events.first { $0.kind == .deallocated(id: router) }?.time ?? 0
        let grace = max(Self.grace, .nanoseconds(Int64(released &- detached) * 2) + .milliseconds(500))
        let found = await eventually { await !recorder.analyzeOnOwnThread(grace: grace).findings(rule).isEmpty }
        try #require(found, "no \(rule.rawValue) finding: \(recorder.analyze(grace: grace))")
        try await Task.sleep(for: grace * 2)
        return await recorder.analyzeOnOwnThread(grace: grace)
    }

    /// What one login flow of ``parallelRecorders()`` leaves.
    struct FlowResult: Sendable {
        let flow: Int
        let recorder: TraceRecorder
        /// The interactors of the LoggedIn routers it leaked (empty for a clean flow).
        let leaked: [LoginFlowLoggedInInteractor]
    }

    /// Records a launched root, then logs in and out `rounds` times outside the recording.
    private static func loginFlow(_ flow: Int, rounds: Int, leaking: Bool) async -> FlowResult {
        let recorder = TraceRecorder(app: "flow\(flow)")
        let root = await recorder.record { await makeLaunchedRoot(leaking: leaking) }
        var leaked: [LoginFlowLoggedInInteractor] = []
        for _ in 0..<rounds {
            await root.logIn()
            if leaking, let loggedIn = root.loggedIn { leaked.append(loggedIn.interactor) }
            await Task.yield()
            await root.logOut()
        }
        return FlowResult(flow: flow, recorder: recorder, leaked: leaked)
    }

    @Test("a router recorded by another recorder keeps it: neither trace names the other's ids")
    func otherRecorderKeepsItsOwn() async throws {
        let a = TraceRecorder(app: "a"), b = TraceRecorder(app: "b")
        let root = await a.record { await makeLaunchedRoot() }
        var foreign: RecordedCachedRouter? = b.record { RecordedCachedRouter() }
        let foreignID = foreign!.traceID
        // Directly under a's root, and inside an untraced subtree that a adopts.
        var host: RecordedHostRouter? = RecordedHostRouter()
        var second: RecordedCachedRouter? = b.record { RecordedCachedRouter() }
        await host!.attachChild(second!)
        await root.attachChild(foreign!)
        await root.attachChild(host!)
        #expect(foreign!.traceID == foreignID && host!.traceID != 0)
        await root.detachChild(foreign!)
        await root.detachChild(host!)
        foreign = nil
        host = nil
        second = nil

        let traceA = AdoptionTrace(a), traceB = AdoptionTrace(b)
        #expect(traceA.routerIDs("RecordedCachedRouter").isEmpty)
        #expect(traceA.routerIDs("RecordedHostRouter").count == 1)
        // a's links name a's routers only: root–host (attach, detach), nothing else.
        #expect(traceA.count("attach") == 1 && traceA.count("detach") == 1, "\(traceA.events.map { "\($0.kind)" })")
        // b saw its routers live and go (activated by the attaches, never linked).
        #expect(traceB.routerIDs("RecordedCachedRouter").count == 2)
        #expect(traceB.count("attach") == 0 && traceB.count("activate") == 2 && traceB.count("deactivate") == 2)
        #expect(await waitUntil { AdoptionTrace(b).liveCount == 0 && AdoptionTrace(a).liveCount == 2 })
        #expect(a.analyze(grace: Self.cleanGrace).isClean && b.analyze(grace: Self.cleanGrace).isClean)
    }

    @Test("an untraced parent attaching a recorded child changes nothing: the parent stays untraced")
    func untracedParentTracedChild() async throws {
        let recorder = TraceRecorder(app: "reverse")
        let parent = TraceTestRootRouter()
        var child: TraceTestRouter? = recorder.record { TraceTestRouter() }
        await parent.launch()
        await parent.attachChild(child!)
        await parent.detachChild(child!)
        #expect(parent.tracer == nil && parent.traceID == 0 && parent.interactor.lifecycle.tracer == nil)
        let id = child!.traceID
        child = nil
        #expect(await waitUntil { AdoptionTrace(recorder).liveCount == 0 })
        let trace = AdoptionTrace(recorder)
        #expect(trace.count("router") == 1 && trace.count("attach") == 0 && trace.count("detach") == 0)
        #expect(trace.contains(.deallocated(id: id)))
    }
}

// MARK: - The README's app

/// Builds and launches the root of the README's example; `leaking` makes every
/// LoggedIn interactor keep its router (a retain cycle).
@MainActor
func makeLaunchedRoot(leaking: Bool = false) async -> LoginFlowRootRouter {
    let root = LoginFlowRootRouter(interactor: RecordedInteractor(), viewController: RecordedView())
    root.leaksLoggedIn = leaking
    await root.launch()
    return root
}

@MainActor final class LoginFlowRootRouter: LaunchRouter<RecordedInteractor, RecordedView> {
    var leaksLoggedIn = false
    private(set) var loggedIn: LoginFlowLoggedInRouter?

    /// Builds LoggedIn and attaches it (its `didLoad` attaches a menu).
    func logIn() async {
        guard loggedIn == nil else { return }
        let router = LoginFlowLoggedInRouter(interactor: LoginFlowLoggedInInteractor())
        if leaksLoggedIn { await router.interactor.hold(router) }
        loggedIn = router
        await attachChild(router)
    }

    /// Detaches LoggedIn and lets it go.
    func logOut() async {
        guard let router = loggedIn else { return }
        loggedIn = nil
        await detachChild(router)
    }
}

/// An interactor that can keep its router strongly (the bug: `var router` instead of `weak var`).
final actor LoginFlowLoggedInInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    private var router: LoginFlowLoggedInRouter?
    func hold(_ router: LoginFlowLoggedInRouter) { self.router = router }
    func release() { router = nil }
}

@MainActor final class LoginFlowLoggedInRouter: Router<LoginFlowLoggedInInteractor> {
    override func didLoad() async {
        await attachChild(LoginFlowMenuRouter(interactor: RecordedInteractor()))
    }
}

@MainActor final class LoginFlowMenuRouter: Router<RecordedInteractor> {}

/// An interactor whose builder starts work before the napkin is attached; the
/// work ignores cancellation until `gate` opens.
final actor LoginFlowPrefetchInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    func prefetch(until gate: Gate) {
        task(named: "prefetch") { await gate.wait() }
    }
}

@MainActor final class LoginFlowPrefetchRouter: Router<LoginFlowPrefetchInteractor> {
    convenience init() { self.init(interactor: LoginFlowPrefetchInteractor()) }
}

/// An interactor that binds a task on every activation (it ends when
/// cancelled) and one that completes at once.
final actor LoginFlowRacingInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    func didBecomeActive() async {
        task(named: "watch") { try? await Task.sleep(for: .seconds(3600)) }
        // Yields let an adoption land while the interactor is activating or resigning.
        for _ in 0..<3 { await Task.yield() }
        task { await Task.yield() }
    }

    func willResignActive() async {
        for _ in 0..<3 { await Task.yield() }
    }
}

@MainActor final class LoginFlowRacingRouter: Router<LoginFlowRacingInteractor> {}

/// Questions about a recording (a snapshot of its events).
struct AdoptionTrace {
    let events: [TraceEvent]
    init(_ recorder: TraceRecorder) { events = recorder.eventsAsRecorded }

    func routerIDs(_ type: String) -> [NodeID] {
        events.compactMap { if case .routerCreated(let id, type, _, _) = $0.kind { id } else { nil } }
    }

    /// The interactor named by router `id`'s creation record (0 if none).
    func interactorOf(_ router: NodeID) -> NodeID {
        for event in events { if case .routerCreated(router, _, let interactor, _) = event.kind { return interactor } }
        return 0
    }

    func contains(_ kind: TraceEvent.Kind) -> Bool { events.contains { $0.kind == kind } }
    func seq(of kind: TraceEvent.Kind) -> UInt64 { events.first { $0.kind == kind }?.seq ?? 0 }
    /// The trace time of the first event of `kind` (`UInt64.max` if none).
    func time(of kind: TraceEvent.Kind) -> UInt64 { events.first { $0.kind == kind }?.time ?? .max }
    func count(_ ev: String) -> Int { events.filter { $0.kind.wireName == ev }.count }
    /// Routers and interactors created and not deallocated.
    var alive: Set<NodeID> {
        var alive = Set<NodeID>()
        for event in events {
            switch event.kind {
            case .interactorCreated(let id, _): alive.insert(id)
            case .routerCreated(let id, _, _, _): alive.insert(id)
            case .deallocated(let id): alive.remove(id)
            default: break
            }
        }
        return alive
    }
    var liveCount: Int { alive.count }
}
