import Foundation
import Napkin
import NapkinTrace
import Synchronization
import Testing

/// A clean flow stays clean on a loaded machine: with both cores saturated
/// and the main actor blocked for seconds right after a detach (a long
/// synchronous call, a busy CI runner), while other threads keep writing
/// events (a heartbeat napkin's tasks), the default grace period (1 s) must not turn the late deinit, the
/// late deactivation or the late end of a cancelled task into findings. The
/// verdict depends on what the app did, not on how late the main actor ran.
@Suite("A clean flow on a loaded machine")
@MainActor
struct LoadedMachineTests {
    /// How long the main actor is blocked right after the detach.
    static let blocked: Duration = .seconds(3)

    @Test("both cores busy, the main actor blocked 3 s after a detach, other threads writing meanwhile: no finding with the default grace",
          .timeLimit(.minutes(2)), .disabled("moving to a child process: blocking the test runner's main thread starves other suites"))
    func blockedMainActorAfterDetach() async throws {
        let load = CPULoad(threads: 2)
        defer { load.stop() }
        let recorder = TraceRecorder(app: "loaded")
        var root: LoadedRootRouter?
        var screen: LoadedScreenRouter?
        await recorder.record {
            root = LoadedRootRouter()
            await root!.launch()
            // Another napkin keeps other threads writing to the trace all along: a
            // heartbeat that starts a short bound task every 20 ms.
            await root!.attachChild(LoadedHeartbeatRouter())
            screen = LoadedScreenRouter()
            await root!.attachChild(screen!)
        }
        // Let the screen's task start and settle.
        try await Task.sleep(for: .milliseconds(100))

        await root!.detachChild(screen!)
        // The main actor is blocked right after the detach, before the router is released:
        // its deinit, and the end of its cancelled task (which needs the main actor), wait.
        let until = ContinuousClock.now + Self.blocked
        while ContinuousClock.now < until {}
        screen = nil

        // Everything of the screen goes away once the main actor is free again.
        let gone = await eventually { Self.screenIsGone(recorder.events) }
        try #require(gone, "the screen napkin was not torn down: \(recorder.analyze(grace: .seconds(1)))")

        // The trace really has what a clock-only analysis would have taken for leaks:
        // events from other threads more than a grace period after the detach, before the deinit.
        let events = recorder.events
        let detach = try #require(events.first { if case .detach = $0.kind { true } else { false } })
        let deinitTime = try #require(Self.screenDeinitTime(events))
        let eventsDuringBlock = events.filter { $0.time > detach.time + 1_000_000_000 && $0.time < deinitTime }
        #expect(deinitTime > detach.time + 2_000_000_000, "the deinit came \(deinitTime - detach.time) ns after the detach")
        #expect(eventsDuringBlock.count >= 10, "only \(eventsDuringBlock.count) events during the block")

        let report = recorder.analyze(grace: .seconds(1))
        #expect(report.isClean, "\(report)")
        root = nil
    }

    /// Whether the screen's router and interactor were deallocated and its task ended.
    static func screenIsGone(_ events: [TraceEvent]) -> Bool {
        var ids: Set<NodeID> = []
        var task: NodeID?
        var gone: Set<NodeID> = []
        var taskEnded = false
        for event in events {
            switch event.kind {
            case .routerCreated(let id, let type, let interactor, _) where type == "LoadedScreenRouter":
                ids = [id, interactor]
            case .taskStart(let id, _, "screen-poll"): task = id
            case .taskEnd(let id, _) where id == task: taskEnded = true
            case .deallocated(let id) where ids.contains(id): gone.insert(id)
            default: break
            }
        }
        return !ids.isEmpty && gone == ids && taskEnded
    }

    /// When the screen's router was deallocated.
    static func screenDeinitTime(_ events: [TraceEvent]) -> UInt64? {
        var router: NodeID?
        for event in events {
            if case .routerCreated(let id, "LoadedScreenRouter", _, _) = event.kind { router = id }
            if case .deallocated(let id) = event.kind, id == router { return event.time }
        }
        return nil
    }

    /// Polls `condition` for up to 20 s.
    private func eventually(_ condition: () -> Bool) async -> Bool {
        for _ in 0..<400 {
            if condition() { return true }
            try? await Task.sleep(for: .milliseconds(50))
        }
        return condition()
    }
}

// MARK: - Load

/// Threads that keep a core busy each until stopped.
final class CPULoad: Sendable {
    private let running = Atomic<Bool>(true)

    init(threads: Int) {
        for _ in 0..<threads {
            let thread = Thread { [self] in
                var x: UInt64 = 1
                while running.load(ordering: .relaxed) { x = x &* 6_364_136_223_846_793_005 &+ 1 }
                if x == 0 { print("") }   // keep the loop from being optimised away
            }
            thread.start()
        }
    }

    func stop() { running.store(false, ordering: .relaxed) }
}

// MARK: - Napkins

final actor LoadedInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

@MainActor final class LoadedView: ViewControllable {}

@MainActor final class LoadedRootRouter: LaunchRouter<LoadedInteractor, LoadedView> {
    convenience init() { self.init(interactor: LoadedInteractor(), viewController: LoadedView()) }
}

/// Starts a short bound task every 20 ms while active: events from other threads.
final actor LoadedHeartbeatInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func didBecomeActive() async {
        task(named: "heartbeat") { [weak self] in
            while !Task.isCancelled {
                await self?.beat()
                try? await Task.sleep(for: .milliseconds(20))
            }
        }
    }

    private func beat() {
        task(named: "beat") {}
    }
}

@MainActor final class LoadedHeartbeatRouter: Router<LoadedHeartbeatInteractor> {
    convenience init() { self.init(interactor: LoadedHeartbeatInteractor()) }
}

/// A screen whose bound task polls until cancelled, then tells the main actor it stopped
/// (as a presenter update would): its end needs the main actor.
final actor LoadedScreenInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func didBecomeActive() async {
        task(named: "screen-poll") {
            while !Task.isCancelled { try? await Task.sleep(for: .milliseconds(5)) }
            await MainActor.run { LoadedScreenState.stopped += 1 }
        }
    }
}

@MainActor enum LoadedScreenState {
    static var stopped = 0
}

@MainActor final class LoadedScreenRouter: Router<LoadedScreenInteractor> {
    convenience init() { self.init(interactor: LoadedScreenInteractor()) }
}
