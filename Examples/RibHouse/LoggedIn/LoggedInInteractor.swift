import Napkin

/// Where LoggedIn's interactor can send the guest.
/// `Sendable` so the interactor, an actor, can call it across isolation
/// (`Routing` itself is not `Sendable`).
@MainActor
protocol LoggedInRouting: ViewableRouting, Sendable {
    func routeToOrder(_ item: MenuItem) async
    func routeBackFromOrder() async
    /// Builds the Order screen of `item` for later and keeps it, detached,
    /// in the app-wide ``OrderPrefetchCache``: no child of this napkin.
    func prefetchOrder(_ item: MenuItem) async
}

/// What LoggedIn tells its parent.
protocol LoggedInListener: AnyObject, Sendable {
    func loggedInDidLogOut() async
}

/// What the interactor shows on the LoggedIn screen.
protocol LoggedInPresentable: Presentable, Sendable {
    var listener: (any LoggedInPresentableListener)? { get set }
    func showWelcome(_ user: User)
    func showGoodbye(_ user: User, tab: String)
}

/// One login session: greets the guest, opens and closes orders, logs out.
final actor LoggedInInteractor: LoggedInInteractable, PresentableInteractable, LoggedInPresentableListener {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any LoggedInPresentable
    weak var router: (any LoggedInRouting)?
    weak var listener: (any LoggedInListener)?
    /// Set only with `--bug retain-cycle`: the strong reference a `var router`
    /// without `weak` would be. Router → interactor → router: neither is ever freed.
    private var retainedRouter: (any LoggedInRouting)?
    private let user: User
    private let auth: AuthService
    private let tab: CustomerTab

    init(presenter: any LoggedInPresentable, listener: any LoggedInListener,
         user: User, auth: AuthService, tab: CustomerTab) {
        self.presenter = presenter
        self.listener = listener
        self.user = user
        self.auth = auth
        self.tab = tab
    }

    func set(router: any LoggedInRouting, retainingIt: Bool = false) {
        self.router = router
        if retainingIt { retainedRouter = router }
    }

    func didBecomeActive() async {
        await presenter.showWelcome(user)
    }

    // MARK: LoggedInPresentableListener

    func didTapLogout() async {
        let summary = await tab.summary
        await auth.logOut()
        await presenter.showGoodbye(user, tab: summary)
        await listener?.loggedInDidLogOut()
    }

    // MARK: MenuListener

    func menuDidSelect(_ item: MenuItem) async {
        await router?.routeToOrder(item)
    }

    func menuDidStartBrowsing(at item: MenuItem) async {
        await router?.prefetchOrder(item)
    }

    // MARK: OrderListener

    func orderDidClose() async {
        await router?.routeBackFromOrder()
    }
}
