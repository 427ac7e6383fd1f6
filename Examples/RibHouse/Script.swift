import NapkinTrace

/// Why the script stopped early.
enum ScriptError: Error {
    /// A step could not be played, e.g. the screen it wanted to tap is not shown.
    case failed(String)
    /// A signal asked the app to stop.
    case interrupted(signal: Int32)
}

/// A guest's visit, played like a user would: find the screen on display,
/// tap, wait, read. Every tap goes view → interactor (the view's listener),
/// never straight to a router. Each step is marked in the trace.
///
/// Apart from the window, the script holds no view between steps, so it
/// keeps no napkin alive.
@MainActor
struct Script {
    /// The window's root view, where the script looks for screens.
    let window: any Screen
    /// The kitchen, which posts announcements.
    let kitchen: AnnouncementService
    /// Where the operating system delivers notification taps.
    let deepLinks: DeepLinkRegistry
    let pace: Pace

    /// Plays one session: about 3.6 s at speed 1.
    func play(session: Int) async throws(ScriptError) {
        try checkInterruption()
        // Where a round of `--loop` starts: `napkin-inspect check --rounds round`.
        NapkinTrace.mark("round \(session)")
        NapkinTrace.mark("session \(session): begin")
        await pace.pause(.milliseconds(100))

        try await step("log in as Smokey Joe") { () throws(ScriptError) in
            try await screen(LoggedOutView.self).tapLogin(name: "Smokey Joe").value
        }
        await pace.pause(.milliseconds(150))

        try await step("kitchen announces: brisket is out of the smoker") {
            kitchen.post("brisket is out of the smoker")
        }
        await pace.pause(.milliseconds(100))

        try await step("browse the menu") { () throws(ScriptError) in
            let menu = try screen(MenuView.self)
            for position in [0, 1, 3] {
                await menu.scroll(to: position).value
                await pace.pause(.milliseconds(100))
            }
        }

        try await step("open order: brisket") { () throws(ScriptError) in
            try await screen(MenuView.self).tap("brisket").value
        }
        await pace.pause(.milliseconds(150))
        try await step("order one more brisket and put it on the tab") { () throws(ScriptError) in
            let order = try screen(OrderView.self)
            await order.tapMore().value
            await pace.pause(.milliseconds(100))
            await order.tapAddToTab().value
        }
        await pace.pause(.milliseconds(100))
        try await step("back from order") { () throws(ScriptError) in
            try await screen(OrderView.self).tapBack().value
        }
        await pace.pause(.milliseconds(150))

        try await step("open order: hot links") { () throws(ScriptError) in
            try await screen(MenuView.self).tap("hot links").value
        }
        await pace.pause(.milliseconds(150))
        try await step("swipe back from order") { () throws(ScriptError) in
            try await screen(LoggedInView.self).swipeBack().value
        }
        await pace.pause(.milliseconds(100))

        try await step("read the menu") { () throws(ScriptError) in
            let menu = try screen(MenuView.self)
            for position in [2, 0] {
                await menu.scroll(to: position).value
                await pace.pause(.milliseconds(600))
            }
        }

        try await step("tap the pit-alert notification") {
            await deepLinks.open(.pitBoard)
        }
        try await waitForPitReadings(3)

        try await step("log out") { () throws(ScriptError) in
            try await screen(LoggedInView.self).tapLogout().value
        }
        await pace.pause(.milliseconds(150))

        try await step("log in as Pitmaster Pat") { () throws(ScriptError) in
            try await screen(LoggedOutView.self).tapLogin(name: "Pitmaster Pat").value
        }
        try await waitForPitReadings(2)

        try await step("log out") { () throws(ScriptError) in
            try await screen(LoggedInView.self).tapLogout().value
        }
        await pace.pause(.milliseconds(150))
        NapkinTrace.mark("session \(session): end")
    }

    /// The guest leaves the app open on the welcome screen for 1.2 s (at
    /// speed 1) before it closes. Nothing happens meanwhile, so whatever the
    /// last logout left behind is still there, in the trace, more than a
    /// second later: long enough for a trace analysis with a 1 s grace
    /// period (scale it like the speed: `--grace 100ms` at `--speed 10`) to
    /// tell a leak from a slow deallocation.
    func idleBeforeClosing() async throws(ScriptError) {
        try await step("idle on the welcome screen before closing") { () throws(ScriptError) in
            let clock = ContinuousClock()
            let end = clock.now + pace.scaled(.milliseconds(1200))
            while clock.now < end {
                try checkInterruption()
                try? await clock.sleep(until: min(end, clock.now + .milliseconds(50)))
            }
        }
    }

    /// Waits until the pit board has shown `count` more readings.
    private func waitForPitReadings(_ count: Int) async throws(ScriptError) {
        try await step("wait for \(count) pit readings") { () throws(ScriptError) in
            let board = try screen(PitBoardView.self)
            let target = board.readingsShown + count
            let clock = ContinuousClock()
            // Generous, and never shorter than 2 s, so a loaded machine at a high speed does not fail the step.
            let deadline = clock.now + max(pace.scaled(.seconds(5)), .seconds(2))
            while board.readingsShown < target {
                guard clock.now < deadline else {
                    throw .failed("rib-house: the pit board stopped showing readings; is the pit poller running?")
                }
                try checkInterruption()
                await pace.pause(.milliseconds(10))
            }
        }
    }

    /// Marks `text` in the trace, then plays `action`, unless a signal asked us to stop.
    private func step(_ text: String, _ action: () async throws(ScriptError) -> Void) async throws(ScriptError) {
        try checkInterruption()
        NapkinTrace.mark(text)
        try await action()
    }

    private func checkInterruption() throws(ScriptError) {
        if let signal = Interruption.signalNumber { throw .interrupted(signal: signal) }
    }

    /// The screen of type `T` on display now.
    private func screen<T>(_ type: T.Type) throws(ScriptError) -> T {
        guard let screen = window.find(type) else {
            throw .failed("rib-house: the script expected a \(T.self) on screen, and there is none")
        }
        return screen
    }
}
