import Napkin

/// What the root interactor asks of its router.
/// `Sendable` so the interactor, an actor, can call it across isolation
/// (`Routing` itself is not `Sendable`).
@MainActor
protocol LaunchNapkinRouting: LaunchRouting, Sendable {
    func routeToLoggedOut() async
    func routeToLoggedIn(as user: User) async
    /// Detaches whichever child is attached (the app is closing).
    func tearDown() async
}

/// The root of the tree: headless, it only swaps LoggedOut and LoggedIn.
final actor LaunchNapkinInteractor: LaunchNapkinInteractable {
    nonisolated let lifecycle = InteractorLifecycle()
    weak var router: (any LaunchNapkinRouting)?

    func set(router: any LaunchNapkinRouting) {
        self.router = router
    }

    // MARK: LoggedOutListener

    func loggedOutDidLogIn(as user: User) async {
        await router?.routeToLoggedIn(as: user)
    }

    // MARK: LoggedInListener

    func loggedInDidLogOut() async {
        await router?.routeToLoggedOut()
    }
}
