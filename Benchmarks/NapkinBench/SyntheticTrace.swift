import NapkinTrace

/// Writes a large trace shaped like RibHouse's (`rib-house --loop N`): the
/// same tree (a launch router, a logged-out screen, a logged-in screen with a
/// menu, a pit board and an announcements feed, orders pushed over them),
/// the same event mix (views shown, covered and removed, marks, `src` on
/// creations, attaches, detaches and task starts, two long-running tasks per
/// login, interactors deallocated after their routers) and the same pace (a
/// few microseconds between the steps of a transition, a fraction of a
/// second between the user's actions). Compare with
/// `NAPKIN_TRACE=/tmp/rh.ndjson rib-house --speed 100 --loop 3 --quiet`.
enum SyntheticTrace {
    /// Appends about `events` events (whole visits, at least one) and hands
    /// the bytes to `flush`, about a MiB at a time. The app tears its tree
    /// down at the end, unless `tearingDown` is false (the session then ends
    /// on the logged-out screen, as a live view of the feed should show it).
    static func generate(events: Int, flushEvery: Int = 1 << 20, tearingDown: Bool = true,
                         flush: @escaping ([UInt8]) -> Void) {
        var app = RibHouseShape(TraceGenerator(app: "rib-house", flushEvery: flushEvery, flush: flush))
        app.launch()
        var visit = 1
        repeat {
            app.visit(visit)
            visit += 1
        } while app.trace.count < events
        if tearingDown {
            app.tearDown()
        } else {
            app.trace.finish()
        }
    }
}

/// RibHouse's screens and script, as events.
private struct RibHouseShape {
    var trace: TraceGenerator
    private var launchRouter: NodeID = 0
    private var loggedOut: (router: NodeID, interactor: NodeID) = (0, 0)
    /// The logged-out interactor of the previous screen, released a little later.
    private var staleInteractor: NodeID = 0

    /// A step of the framework (microseconds), and a step of the user (a fraction of a second).
    private static let step: UInt64 = 12_000, pause: UInt64 = 300_000_000

    private static let launchFile = "RibHouse/LaunchNapkinRouter.swift"
    private static let loggedInFile = "RibHouse/LoggedInRouter.swift"

    init(_ trace: TraceGenerator) {
        self.trace = trace
    }

    /// The app starts: the launch router and the logged-out screen.
    mutating func launch() {
        trace.emit(.mark(text: "launch"), after: 200_000)
        let interactor = trace.id(), router = trace.id()
        launchRouter = router
        trace.emit(.interactorCreated(id: interactor, type: "LaunchNapkinInteractor"), after: 800_000)
        trace.emit(.routerCreated(id: router, type: "LaunchNapkinRouter", interactor: interactor, interactorType: "LaunchNapkinInteractor"))
        trace.emit(.launch(router: router), after: 400_000)
        trace.emit(.activate(interactor: interactor))
        showLoggedOut()
        trace.emit(.load(router: router))
        trace.emit(.view(router: router, appearance: .shown))
    }

    /// One pass of the script: two users log in and out, the first orders twice.
    mutating func visit(_ n: Int) {
        trace.emit(.mark(text: "session \(n): begin"), after: Self.step)
        logIn("Smokey Joe", orders: ["brisket", "hot links"])
        logOut()
        logIn("Pitmaster Pat", orders: [])
        logOut()
        trace.emit(.mark(text: "session \(n): end"), after: Self.pause)
    }

    /// The app closes: everything goes.
    mutating func tearDown() {
        trace.emit(.mark(text: "tear down"), after: Self.pause)
        removeLoggedOut(detachLine: 63)
        let interactor = launchRouter - 1
        trace.emit(.deallocated(id: loggedOut.interactor))
        trace.emit(.deallocated(id: launchRouter))
        trace.emit(.deactivate(interactor: interactor))
        trace.emit(.deallocated(id: interactor))
        trace.finish()
    }

    private mutating func showLoggedOut() {
        let interactor = trace.id(), router = trace.id()
        loggedOut = (router, interactor)
        trace.emit(.interactorCreated(id: interactor, type: "LoggedOutInteractor"), after: 350_000)
        trace.emit(.routerCreated(id: router, type: "LoggedOutRouter", interactor: interactor, interactorType: "LoggedOutInteractor"))
        trace.emit(.attach(parent: launchRouter, child: router), after: 130_000, src: TraceGenerator.src(Self.launchFile, 41))
        trace.emit(.activate(interactor: interactor))
        trace.emit(.load(router: router))
    }

    private mutating func removeLoggedOut(detachLine: UInt) {
        trace.emit(.view(router: loggedOut.router, appearance: .removed), after: 270_000)
        trace.emit(.detach(parent: launchRouter, child: loggedOut.router), after: 8_000, src: TraceGenerator.src(Self.launchFile, detachLine))
        trace.emit(.deactivate(interactor: loggedOut.interactor))
        trace.emit(.deallocated(id: loggedOut.router), after: 80_000)
        staleInteractor = loggedOut.interactor
    }

    /// A child of the logged-in router: created, attached, active, maybe a task, loaded.
    private mutating func child(_ name: String, of parent: NodeID, line: UInt, task: (label: String, src: CodeLocation)?) -> NodeID {
        let interactor = trace.id(), router = trace.id()
        trace.emit(.interactorCreated(id: interactor, type: name + "Interactor"), after: 300_000)
        trace.emit(.routerCreated(id: router, type: name + "Router", interactor: interactor, interactorType: name + "Interactor"), after: 1_200)
        trace.emit(.attach(parent: parent, child: router), after: 90_000, src: TraceGenerator.src(Self.loggedInFile, line))
        trace.emit(.activate(interactor: interactor))
        if let task {
            trace.emit(.taskStart(task: trace.id(), owner: interactor, label: task.label), after: 3_000, src: task.src)
        }
        trace.emit(.load(router: router), after: 40_000)
        return router
    }

    private mutating func logIn(_ user: String, orders: [String]) {
        trace.emit(.mark(text: "log in as \(user)"), after: Self.pause)
        removeLoggedOut(detachLine: 63)
        let interactor = trace.id(), loggedIn = trace.id()
        trace.emit(.interactorCreated(id: interactor, type: "LoggedInInteractor"), after: 370_000)
        trace.emit(.routerCreated(id: loggedIn, type: "LoggedInRouter", interactor: interactor, interactorType: "LoggedInInteractor"),
                   after: 1_000, src: TraceGenerator.src(Self.loggedInFile, 42))
        trace.emit(.attach(parent: launchRouter, child: loggedIn), after: 86_000, src: TraceGenerator.src(Self.launchFile, 50))
        trace.emit(.activate(interactor: interactor))
        let menu = child("Menu", of: loggedIn, line: 77, task: nil)
        let pit = child("PitBoard", of: loggedIn, line: 77,
                        task: ("pit-poller", TraceGenerator.src("RibHouse/PitBoardInteractor.swift", 59)))
        let news = child("Announcements", of: loggedIn, line: 77,
                         task: ("announcements", TraceGenerator.src("RibHouse/AnnouncementsInteractor.swift", 42)))
        trace.emit(.load(router: loggedIn), after: 3_500)
        for router in [loggedIn, menu, pit, news] { trace.emit(.view(router: router, appearance: .shown), after: Self.step) }
        trace.emit(.deallocated(id: staleInteractor), after: 80_000)
        trace.emit(.mark(text: "kitchen announces: brisket is out of the smoker"), after: Self.pause)
        trace.emit(.mark(text: "browse the menu"), after: Self.pause)
        for item in orders {
            trace.emit(.mark(text: "open order: \(item)"), after: Self.pause)
            let order = child("Order", of: loggedIn, line: 58, task: nil)
            for router in [menu, pit, news] { trace.emit(.view(router: router, appearance: .covered), after: 2_000) }
            trace.emit(.view(router: order, appearance: .shown), after: 1_000)
            trace.emit(.mark(text: "order one more \(item) and put it on the tab"), after: Self.pause)
            trace.emit(.mark(text: "back from order"), after: Self.pause)
            trace.emit(.view(router: order, appearance: .removed), after: 100_000)
            for router in [menu, pit, news] { trace.emit(.view(router: router, appearance: .shown), after: 2_000) }
            trace.emit(.detach(parent: loggedIn, child: order), after: 130_000, src: TraceGenerator.src(Self.loggedInFile, 73))
            trace.emit(.deactivate(interactor: order - 1))
            trace.emit(.deallocated(id: order))
            trace.emit(.deallocated(id: order - 1))
        }
        trace.emit(.mark(text: "read the menu"), after: Self.pause)
        trace.emit(.mark(text: "tap the pit-alert notification"), after: Self.pause)
        trace.emit(.mark(text: "wait for 3 pit readings"), after: Self.pause)
        loggedInChildren = [menu, pit, news]
        loggedInRouter = loggedIn
    }

    private var loggedInRouter: NodeID = 0
    private var loggedInChildren: [NodeID] = []

    private mutating func logOut() {
        trace.emit(.mark(text: "log out"), after: Self.pause)
        let loggedIn = loggedInRouter
        for router in [loggedIn] + loggedInChildren { trace.emit(.view(router: router, appearance: .removed), after: 5_000) }
        trace.emit(.detach(parent: launchRouter, child: loggedIn), after: 7_000, src: TraceGenerator.src(Self.launchFile, 70))
        trace.emit(.deactivate(interactor: loggedIn - 1), after: 35_000)
        for router in loggedInChildren {
            // Each child's interactor id is its router's minus one, and its task (if any) follows the router.
            trace.emit(.deactivate(interactor: router - 1), after: Self.step)
            if router != loggedInChildren[0] {
                trace.emit(.taskCancel(task: router + 1), after: 6_000)
                trace.emit(.taskEnd(task: router + 1, outcome: .cancelled), after: Self.step)
            }
        }
        trace.emit(.deallocated(id: loggedIn), after: Self.step)
        for router in loggedInChildren {
            trace.emit(.deallocated(id: router), after: 5_000)
            trace.emit(.deallocated(id: router - 1), after: 3_000)
        }
        showLoggedOut()
        trace.emit(.view(router: loggedOut.router, appearance: .shown), after: 2_500)
        trace.emit(.deallocated(id: loggedIn - 1), after: 17_000)
        staleInteractor = 0
    }
}
