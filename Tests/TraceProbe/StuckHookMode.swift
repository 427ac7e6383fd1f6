// TraceProbe stuck-hook: the app behind the `stuck-hook` fixtures of
// Tests/Fixtures/traces (recorded with NAPKIN_TRACE, then given the fixtures'
// app name, pid and wall clock) and of the test that runs it.
//
//   stuck-hook [clean]
//     launches a root, attaches a live-scores napkin whose interactor starts
//     a bound "clock" task and reads a score stream that never ends: with the
//     bug, with `for await` right in didBecomeActive (the hook never
//     returns, so the attach never returns either); with "clean", in a bound
//     "scores" task. 300 ms later the scores napkin is detached and dropped;
//     1.3 s of idle time later (a mark "idle") the root is released and the
//     process exits.

import Napkin
import NapkinTrace

/// Shows live scores while active.
final actor ScoresInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    private let scores: AsyncStream<Int>
    private let readsInHook: Bool

    init(scores: AsyncStream<Int>, readsInHook: Bool) {
        self.scores = scores
        self.readsInHook = readsInHook
    }

    func didBecomeActive() async {
        task(named: "clock") { try? await Task.sleep(for: .seconds(3600)) }
        if readsInHook {
            // The bug: the hook itself loops, for as long as the stream is open.
            for await _ in scores {}
        } else {
            task(named: "scores") { [scores] in
                for await _ in scores {}
            }
        }
    }
}

@MainActor final class ScoresRouter: Router<ScoresInteractor> {}

/// Runs `stuck-hook` (see above).
@MainActor
func stuckHookMode(clean: Bool) async {
    let (scores, feed) = AsyncStream.makeStream(of: Int.self)
    var root: RootRouter? = RootRouter(interactor: RootInteractor(), viewController: RootView())
    await root!.launch()
    var napkin: ScoresRouter? = ScoresRouter(interactor: ScoresInteractor(scores: scores, readsInHook: !clean))
    var attaching: Task<Void, Never>?
    do {
        let (parent, child) = (root!, napkin!)
        // With the bug this attach never returns (it waits for didBecomeActive),
        // and keeps both routers alive.
        attaching = Task { await parent.attachChild(child) }
    }
    if clean {
        await attaching!.value
        attaching = nil
    }
    try? await Task.sleep(for: .milliseconds(300))
    await root!.detachChild(napkin!)
    napkin = nil
    try? await Task.sleep(for: .milliseconds(1300))
    NapkinTrace.mark("idle")
    root = nil
    try? await Task.sleep(for: .milliseconds(100))
    withExtendedLifetime((feed, attaching)) {}
}
