// TraceProbe exit-leak: an app that leaks a router through a retain cycle
// (its interactor holds it strongly) and ends soon after, for the in-app
// detector's end of a run (issue 41).
//
//   exit-leak HOW AFTER_MS [MODE]
//     HOW       return (from main), exit (exit(0)), term (SIGTERM to itself;
//               the process ends by it)
//     AFTER_MS  how long after the detach the app ends (the grace period is
//               1 s: 1300 ends 0.3 s after it, 400 inside it)
//     MODE      log (default), assert or quiet: NapkinDetector.bootstrap's
//               mode, with a handler
//
// Standard output, from the handler: "handler FINGERPRINT retainers=none"
// for a finding's first call, "handler FINGERPRINT retainers=N paths" (or
// "retainers=note") for the call with what holds it; then "ending HOW".

import Dispatch
import Napkin
import NapkinLibc
import NapkinTrace

/// Holds its router strongly: the router and the interactor keep each other.
final actor CycleInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    var retainedRouter: CycleRouter?

    func hold(_ router: CycleRouter) { retainedRouter = router }
}

@MainActor final class CycleRouter: Router<CycleInteractor> {}

/// Runs `exit-leak HOW AFTER_MS [MODE]` (see above).
@MainActor
func exitLeakMode(_ arguments: [String]) async {
    guard arguments.count > 3, let after = Int(arguments[3]) else { fail("exit-leak needs HOW AFTER_MS [MODE]") }
    let how = arguments[2]
    let mode = arguments.count > 4 ? NapkinDetector.Mode(rawValue: arguments[4]) : .log
    guard let mode else { fail("exit-leak: MODE is log, assert or quiet") }
    NapkinDetector.bootstrap(mode) { finding in
        let what = finding.retainers.map { $0.paths.isEmpty ? "note" : "\($0.paths.count) paths" } ?? "none"
        writeStdout("handler \(finding.fingerprint) retainers=\(what)\n")
    }
    let root = RootRouter(interactor: RootInteractor(), viewController: RootView())
    await root.launch()
    kept.append(root)
    do {
        let interactor = CycleInteractor()
        let router = CycleRouter(interactor: interactor)
        await interactor.hold(router)
        await root.attachChild(router)
        await root.detachChild(router)
    }
    try? await Task.sleep(for: .milliseconds(after))
    writeStdout("ending \(how)\n")
    switch how {
    case "return":
        return
    case "exit":
        exit(0)
    case "term":
        _ = kill(getpid(), SIGTERM)
        try? await Task.sleep(for: .seconds(60))
        fail("SIGTERM did not end the process")
    default:
        fail("exit-leak: HOW is return, exit or term")
    }
}
