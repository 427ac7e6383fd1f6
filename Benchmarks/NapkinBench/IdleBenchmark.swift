// The idle benchmark: how often an idle traced app is woken by napkin, with
// detection on and with NAPKIN_TRACE=tcp: (an inspector connected, and
// none). Counts the tracer writer thread's wake-ups (Tracer.writerWakeUps)
// and the appearance poller's polls (its own schedule, stepped), the seams
// the tests read, over seconds of nothing happening.

import Foundation
import Napkin
import NapkinTrace

enum IdleBenchmark {
    /// A sink with idle work due every flush interval: how every writer woke
    /// before it could sleep (the baseline the other rows are read against).
    final class TickingSink: TracerAwareSink {
        func write(_ events: [TraceEvent]) throws {}
        func close() {}
        func processWillExit() {}
        var idleCallDue: UInt64? { MonotonicClock.now() &+ 50_000_000 }
    }

    /// A view that never moves (headless: the poller only needs the object and its reading closure).
    @MainActor final class StillView: HeadlessViewControllable {}

    @MainActor
    static func run(seconds: Int) async {
        print("napkin-bench idle: \(seconds) s of an idle app, detection on (NAPKIN_DETECT=log, no trace destination), then NAPKIN_TRACE=tcp: with and without an inspector")
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
        // NAPKIN_TRACE=tcp:, an inspector connected (a listener on loopback;
        // the kernel accepts the connection, nothing reads): no wake-up.
        if let listener = try? Self.loopbackListener() {
            let sink = SocketTraceSink(address: .tcp(host: "127.0.0.1", port: listener.port))
            let connected = Tracer(sink: sink, app: "idle")
            feed(connected)
            let since = ContinuousClock.now
            while !(sink.status.isConnected && sink.idleCallDue == nil && connected.writerIsAsleep), ContinuousClock.now - since < .seconds(30) {
                try? await Task.sleep(for: .milliseconds(10))
            }
            let socket = await count(seconds) { connected.writerWakeUps }
            row("writer thread, NAPKIN_TRACE=tcp:, inspector connected (before: 20 per second)", socket, seconds,
                target: "0 per second: " + (socket == 0 && sink.status.isConnected ? "met" : "not met"))
            connected.shutdown(reason: "bench")
            Platform.closeDescriptor(listener.fd)
        } else {
            print("| writer thread, NAPKIN_TRACE=tcp:, inspector connected | not measured: no loopback listener | | |")
        }
        // NAPKIN_TRACE=tcp:, no inspector: the sink retries, at its backoff's pace.
        if let port = try? Self.closedLoopbackPort() {
            let sink = SocketTraceSink(address: .tcp(host: "127.0.0.1", port: port))
            let retrying = Tracer(sink: sink, app: "idle")
            feed(retrying)
            // Past the backoff's growth (100 ms doubling to 5 s: 6.3 s), to its steady pace.
            let since = ContinuousClock.now
            while sink.status.attempts < 7, ContinuousClock.now - since < .seconds(30) { try? await Task.sleep(for: .milliseconds(50)) }
            let retries = await count(seconds) { retrying.writerWakeUps }
            row("writer thread, NAPKIN_TRACE=tcp:, no inspector: one wake-up per connection attempt, 5 s apart once the backoff has grown (before: 20 per second)",
                retries, seconds, target: "<= 0.2 per second (the retries, kept on purpose): "
                    + (retries <= seconds / 5 + 1 ? "met" : "not met"))
            retrying.shutdown(reason: "bench")
        }
        // A sink with idle work due every interval: how every writer woke before.
        let ticking = Tracer(sink: TickingSink(), app: "idle")
        try? await Task.sleep(for: .milliseconds(200))
        let ticks = await count(seconds) { ticking.writerWakeUps }
        row("writer thread with a sink whose idle work is due every 50 ms (every writer before it could sleep)", ticks, seconds, target: "")
        ticking.shutdown(reason: "bench")
        // The poller, watching one view that never moves: its own schedule,
        // stepped (each poll, then the wait it set before the next), since on
        // Linux nothing runs the main run loop's timers; the timer adds only
        // its tolerance (half the wait) to this. Once dormant it sets no timer.
        let poller = AppearancePoller()
        let view = StillView()
        poller.register(view) { .onScreenAlone }
        let schedule = steppedPolls(poller, over: 60)
        let dormantAfter = poller.isDormant
        let polls = steppedPolls(poller, over: Double(seconds))
        print("| appearance poller, one still view: its schedule after the view came (before: 10 per second for as long as it was watched) "
              + "| \(schedule.polls) in the first \(String(format: "%.1f", schedule.elapsed)) s | | then dormant: \(dormantAfter ? "yes" : "no") |")
        row("appearance poller, one still view, once dormant (no timer; it looks again only after the main run loop woke for something else)", polls.polls, seconds,
            target: "0 per second: " + (polls.polls == 0 ? "met" : "not met"))
        print("(the poller makes no poll in the background; the detector found \(found) findings, about the kept child, as expected)")
        withExtendedLifetime(view) {}
    }

    /// A TCP listener on a free loopback port, which nothing accepts on (the
    /// kernel completes connections into its backlog): an inspector that
    /// stays connected and reads nothing, which costs the app nothing.
    static func loopbackListener() throws -> (fd: Int32, port: UInt16) {
        guard let address = try TraceSocketAddress.tcp(host: "127.0.0.1", port: 0).resolved(passive: true).first else {
            throw CocoaError(.fileNoSuchFile)
        }
        let fd = try Platform.listen(on: address)
        guard let port = Platform.boundPort(of: fd) else {
            Platform.closeDescriptor(fd)
            throw CocoaError(.fileNoSuchFile)
        }
        return (fd, port)
    }

    /// A loopback port nothing listens on (one a listener had, closed again).
    static func closedLoopbackPort() throws -> UInt16 {
        let listener = try loopbackListener()
        Platform.closeDescriptor(listener.fd)
        return listener.port
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

    /// The polls `poller` makes in `seconds` of its own schedule, from where
    /// it is, and the time of the last: each poll, then the wait it set,
    /// until the poller is dormant (it sets no timer then).
    @MainActor
    static func steppedPolls(_ poller: AppearancePoller, over seconds: Double) -> (polls: Int, elapsed: Double) {
        var elapsed = 0.0
        var polls = 0
        while !poller.isDormant, elapsed + poller.currentInterval <= seconds {
            elapsed += poller.currentInterval
            poller.poll()
            polls += 1
        }
        return (polls, elapsed)
    }

    static func row(_ what: String, _ wakeUps: Int, _ seconds: Int, target: String) {
        print("| \(what) | \(wakeUps) in \(seconds) s | \(String(format: "%.2f", Double(wakeUps) / Double(seconds))) | \(target) |")
    }
}
