import Napkin

/// LoggedOut has nowhere to route; the protocol is its router's seam.
@MainActor
protocol LoggedOutRouting: ViewableRouting, Sendable {}

/// What LoggedOut tells its parent.
protocol LoggedOutListener: AnyObject, Sendable {
    func loggedOutDidLogIn(as user: User) async
}

/// What the interactor shows on the LoggedOut screen.
protocol LoggedOutPresentable: Presentable, Sendable {
    var listener: (any LoggedOutPresentableListener)? { get set }
    func showWelcome()
    func showLoginFailed(_ reason: String)
}

/// The welcome screen's logic: signs the guest in, then tells the parent.
final actor LoggedOutInteractor: LoggedOutInteractable, PresentableInteractable, LoggedOutPresentableListener {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any LoggedOutPresentable
    weak var router: (any LoggedOutRouting)?
    weak var listener: (any LoggedOutListener)?
    private let auth: AuthService

    init(presenter: any LoggedOutPresentable, listener: any LoggedOutListener, auth: AuthService) {
        self.presenter = presenter
        self.listener = listener
        self.auth = auth
    }

    func set(router: any LoggedOutRouting) {
        self.router = router
    }

    func didBecomeActive() async {
        await presenter.showWelcome()
    }

    // MARK: LoggedOutPresentableListener

    func didTapLogin(name: String) async {
        do {
            let user = try await auth.logIn(name: name)
            await listener?.loggedOutDidLogIn(as: user)
        } catch {
            await presenter.showLoginFailed(error.description)
        }
    }
}
