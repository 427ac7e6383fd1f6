// The idle benchmark: how often an idle traced app with detection on is woken
// by napkin. Counts the tracer writer thread's wake-ups (Tracer.writerWakeUps)
// and the appearance poller's polls (its own schedule, stepped), the seams
// the tests read, over seconds of nothing happening.

import Foundation
import Napkin
import NapkinTrace

enum IdleBenchmark {
    /// A sink with idle work (a socket sink reconnecting is one): its writer
    /// wakes every flush interval, as every writer did before it could sleep.
    final class TickingSink: TracerAwareSink {
        func write(_ events: [TraceEvent]) throws {}
        func close() {}
        func processWillExit() {}
        var needsIdleCalls: Bool { true }
    }

    /// A view that never moves (headless: the poller only needs the object and its reading closure).
    @MainActor final class StillView: HeadlessViewControllable {}

    @MainActor
    static func run(seconds: Int) async {
        print("napkin-bench idle: \(seconds) s of an idle app, detection on (NAPKIN_DETECT=log, no trace destination)")
        print("| what | wake-ups | per second | target |")
        print("| --- | --- | --- | --- |")
        // The writer, with the detector: a root launched, a child attached and
        // detached and kept (a not-deallocated check, decided after the 1 s grace).
        let detecting = Tracer(sink: DiscardingSink(), app: "idle", detector: Detector(settings: DetectorSettings(mode: .quiet)))
        feed(detecting)
        let start = ContinuousClock.now
        while !detecting.writerIsAsleep, ContinuousClock.now - start < .seconds(30) { try? await Task.sleep(for: .milliseconds(10)) }
        let settled = ContinuousClock.now - start
        let writer = await count(seconds) { detecting.writerWakeUps }
        row("writer thread, detection on, after its checks were decided (\(settled.formatted(.units(allowed: [.milliseconds]))) after the last event)",
            writer, seconds, target: "0 per second: " + (writer == 0 ? "met" : "not met"))
        let found = detecting.detector?.statistics.findings ?? 0
        detecting.shutdown(reason: "bench")
        // The same writer with a sink that has idle work: it still ticks.
        let ticking = Tracer(sink: TickingSink(), app: "idle")
        try? await Task.sleep(for: .milliseconds(200))
        let ticks = await count(seconds) { ticking.writerWakeUps }
        row("writer thread with a sink that has idle work (a socket sink reconnecting; every writer before)", ticks, seconds, target: "")
        ticking.shutdown(reason: "bench")
        // The poller, watching one view that never moves: its own schedule,
        // stepped (each poll, then the wait it set before the next), since on
        // Linux nothing runs the main run loop's timers; the timer adds only
        // its tolerance (half the wait) to this.
        let poller = AppearancePoller()
        let view = StillView()
        poller.register(view) { .onScreenAlone }
        let first = steppedPolls(poller, over: 1)
        let polls = steppedPolls(poller, over: Double(seconds))
        row("appearance poller, one still view: the first second (backing off from 100 ms; before: 10)", first, 1, target: "")
        row("appearance poller, one still view, afterwards (1.6 s apart; before: 10 per second)", polls, seconds,
            target: "<= 1 per second: " + (Double(polls) / Double(seconds) <= 1 ? "met" : "not met"))
        print("(the poller makes no poll in the background; the detector found \(found) findings, about the kept child, as expected)")
        withExtendedLifetime(view) {}
    }

    /// Emits a launched root, and a child attached, detached and kept.
    static func feed(_ tracer: Tracer) {
        tracer.emit(.routerCreated(id: 1, type: "RootRouter", interactor: 2, interactorType: "RootInteractor"))
        tracer.emit(.launch(router: 1))
        tracer.emit(.activate(interactor: 2))
        tracer.emit(.routerCreated(id: 3, type: "ChildRouter", interactor: 4, interactorType: "ChildInteractor"))
        tracer.emit(.attach(parent: 1, child: 3))
        tracer.emit(.activate(interactor: 4))
        tracer.emit(.deactivate(interactor: 4))
        tracer.emit(.detach(parent: 1, child: 3))
    }

    /// How much `counter` grew over `seconds`.
    @MainActor
    static func count(_ seconds: Int, _ counter: () -> UInt64) async -> Int {
        let before = counter()
        try? await Task.sleep(for: .seconds(seconds))
        return Int(counter() - before)
    }

    /// The polls `poller` makes in `seconds` of its own schedule, from where it is.
    @MainActor
    static func steppedPolls(_ poller: AppearancePoller, over seconds: Double) -> Int {
        var elapsed = poller.currentInterval
        var polls = 0
        while elapsed <= seconds {
            poller.poll()
            polls += 1
            elapsed += poller.currentInterval
        }
        return polls
    }

    static func row(_ what: String, _ wakeUps: Int, _ seconds: Int, target: String) {
        print("| \(what) | \(wakeUps) in \(seconds) s | \(String(format: "%.2f", Double(wakeUps) / Double(seconds))) | \(target) |")
    }
}
