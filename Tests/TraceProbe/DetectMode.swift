// TraceProbe detect: the in-app detector (NapkinDetector), switched on in
// code (or by NAPKIN_DETECT), in an app that leaks routers on purpose: each
// leaked router is attached to the root, detached, and kept in a global
// array, so every one is a `not-deallocated` finding one grace period (1 s)
// after its detach. A router's fingerprint hashes its rule, type and code
// locations (created, attached, detached): the same type made at the same
// call site is one fingerprint however often it leaks; a distinct creation
// line (`Router.init(interactor:file:line:)`) is a distinct fingerprint.
//
//   detect SCENARIO [N]
//     log         bootstrap(.log), the `records` handler: LeakARouter leaked
//                 3 times from one call site, LeakBRouter and LeakCRouter once
//                 each (5 findings, 3 fingerprints)
//     assert      bootstrap(.assert): one LeakARouter; the reporting thread
//                 traps (a debug build) after its line; if it does not, the
//                 statistics and exit status 0
//     blocks      bootstrap(.log), a handler that waits forever on a semaphore
//                 nobody signals: 50 distinct leaks (the rate limit's burst:
//                 all queued, the first being reported); once the rules found
//                 them, 1 s later (tokens for 10 more), 50 more distinct leaks;
//                 once found, the app attaches and detaches one more (clean)
//                 router, prints "app still runs" and returns from main
//     throws      bootstrap(.quiet), a handler that throws for every finding:
//                 LeakA, LeakB, LeakC
//     many [N]    bootstrap(.quiet), the `records` handler: N (500) distinct
//                 leaks, detached one after the other (more than the rate
//                 limit lets through unless the detaches take over 45 s)
//     env [N]     no bootstrap (NAPKIN_DETECT decides): one LeakARouter; with
//                 detection on, waits for N (1) findings
//
// Standard output: "fingerprint HEX" per first call of the `records` handler
// (from the reporting thread; "retainers HEX" for the call with the path), then "enabled B", "traced B" (whether the leaked
// routers report to a tracer) and "statistics findings=F reported=R
// repeats=P dropped=D handlerErrors=E". The app waits (at most 120 s) until
// the rules found what it leaked and, unless the handler blocks, until every
// finding is reported or counted; "TraceProbe: gave up waiting ..." on
// standard error otherwise.

import Dispatch
import Napkin
import NapkinLibc
import NapkinTrace
import Synchronization

final actor LeakInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

@MainActor final class LeakARouter: Router<LeakInteractor> {}
@MainActor final class LeakBRouter: Router<LeakInteractor> {}
@MainActor final class LeakCRouter: Router<LeakInteractor> {}
/// Made at many creation lines (`file:line:` given): one fingerprint per line.
@MainActor final class LeakManyRouter: Router<LeakInteractor> {}
/// Attached and detached, then released: no finding.
@MainActor final class CleanRouter: Router<LeakInteractor> {}

/// The routers leaked on purpose: retained for the rest of the process.
@MainActor var leakedRouters: [AnyObject] = []

/// Writes `text` to standard output at once, unbuffered (the reporting
/// thread and the main thread both write; a trap must not lose a line).
func writeStdout(_ text: String) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let n = write(1, raw.baseAddress! + offset, raw.count - offset)
            if n <= 0 { return }
            offset += n
        }
    }
}

/// The handler of the `records` variant: the fingerprint on standard output.
let recordsHandler: @Sendable (Finding) throws -> Void = { finding in
    // The second call of a fingerprint carries what holds its object.
    writeStdout(finding.retainers == nil ? "fingerprint \(finding.fingerprint)\n" : "retainers \(finding.fingerprint)\n")
}

/// The handler of the `throws` variant.
struct HandlerFailure: Error, CustomStringConvertible {
    var description: String { "HandlerFailure (on purpose)" }
}

/// Signalled by nobody: the `blocks` handler waits on it forever.
let neverSignalled = DispatchSemaphore(value: 0)
/// The `blocks` handler was entered.
let handlerEntered = Atomic<Bool>(false)

/// Attaches `router` to `root`, detaches it and keeps it: a leak.
@MainActor
func leak(_ router: some Routing & AnyObject, from root: RootRouter) async {
    await root.attachChild(router)
    await root.detachChild(router)
    leakedRouters.append(router)
}

/// Leaks a `LeakManyRouter` made at line 10,000 + i for each i of `lines`:
/// one fingerprint per router. Attaches them all, then detaches them all.
@MainActor
func leakMany(_ lines: Range<Int>, from root: RootRouter) async {
    let routers = lines.map { LeakManyRouter(interactor: LeakInteractor(), file: #fileID, line: UInt(10_000 + $0)) }
    for router in routers { await root.attachChild(router) }
    for router in routers { await root.detachChild(router) }
    leakedRouters += routers
}

/// Waits (without blocking the main actor) until `condition` holds, at most
/// 120 s; says on standard error what it gave up waiting for.
@MainActor
func waitFor(_ what: String, _ condition: () -> Bool) async {
    let deadline = ContinuousClock.now + .seconds(120)
    while !condition() {
        if ContinuousClock.now > deadline {
            writeStderr("TraceProbe: gave up waiting for \(what)\n")
            return
        }
        try? await Task.sleep(for: .milliseconds(20))
    }
}

/// Every finding so far was reported or counted (none queued or being reported).
func detectorSettled() -> Bool {
    let s = NapkinDetector.statistics
    return s.reported + s.repeats + s.dropped == s.findings
}

func statisticsLine() -> String {
    let s = NapkinDetector.statistics
    return "statistics findings=\(s.findings) reported=\(s.reported) repeats=\(s.repeats) dropped=\(s.dropped) handlerErrors=\(s.handlerErrors)\n"
}

/// Runs `detect SCENARIO [N]` (see above).
@MainActor
func detectMode(_ arguments: [String]) async {
    guard arguments.count > 2 else { fail("detect needs a scenario: log|assert|blocks|throws|many|env") }
    let scenario = arguments[2]
    /// The findings the rules must establish before the app ends.
    let expected: Int
    switch scenario {
    case "log":
        NapkinDetector.bootstrap(.log, handler: recordsHandler)
        expected = 5
    case "assert":
        NapkinDetector.bootstrap(.assert)
        expected = 1
    case "blocks":
        NapkinDetector.bootstrap(.log) { _ in
            handlerEntered.store(true, ordering: .sequentiallyConsistent)
            neverSignalled.wait()
        }
        expected = 100
    case "throws":
        NapkinDetector.bootstrap(.quiet) { _ in throw HandlerFailure() }
        expected = 3
    case "many":
        NapkinDetector.bootstrap(.quiet, handler: recordsHandler)
        expected = count(3, default: 500)
    case "env":
        expected = count(3, default: 1)
    default:
        fail("unknown detect scenario \(scenario)")
    }

    let root = RootRouter(interactor: RootInteractor(), viewController: RootView())
    await root.launch()
    kept.append(root)
    switch scenario {
    case "log":
        // One call site, three times: one fingerprint.
        for _ in 0..<3 { await leak(LeakARouter(interactor: LeakInteractor()), from: root) }
        await leak(LeakBRouter(interactor: LeakInteractor()), from: root)
        await leak(LeakCRouter(interactor: LeakInteractor()), from: root)
    case "throws":
        await leak(LeakARouter(interactor: LeakInteractor()), from: root)
        await leak(LeakBRouter(interactor: LeakInteractor()), from: root)
        await leak(LeakCRouter(interactor: LeakInteractor()), from: root)
    case "blocks":
        await leakMany(0..<50, from: root)
        await waitFor("50 findings") { NapkinDetector.statistics.findings >= 50 }
        try? await Task.sleep(for: .seconds(1))
        await leakMany(50..<100, from: root)
    case "many":
        await leakMany(0..<expected, from: root)
    default:
        await leak(LeakARouter(interactor: LeakInteractor()), from: root)
    }
    let enabled = NapkinDetector.isEnabled
    let traced = (leakedRouters.first as? LeakARouter)?.tracer != nil || (leakedRouters.first as? LeakManyRouter)?.tracer != nil

    if enabled {
        await waitFor("\(expected) finding(s)") { NapkinDetector.statistics.findings >= expected }
        switch scenario {
        case "assert":
            // The trap comes on the reporting thread; a report that returns did not trap.
            await waitFor("the finding's report") { NapkinDetector.statistics.reported >= 1 }
        case "blocks":
            await waitFor("the handler") { handlerEntered.load(ordering: .sequentiallyConsistent) }
            // The app goes on while its handler blocks.
            let clean = CleanRouter(interactor: LeakInteractor())
            await root.attachChild(clean)
            await root.detachChild(clean)
            NapkinTrace.mark("after the blocked handler")
            writeStdout("app still runs\n")
        default:
            await waitFor("the reports") { detectorSettled() }
        }
    }
    writeStdout("enabled \(enabled)\ntraced \(traced)\n" + statisticsLine())
}
