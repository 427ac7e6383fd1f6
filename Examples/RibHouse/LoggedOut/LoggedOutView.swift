import Napkin

/// The user's actions on the LoggedOut screen.
protocol LoggedOutPresentableListener: AnyObject, Sendable {
    func didTapLogin(name: String) async
}

/// The welcome screen.
@MainActor
final class LoggedOutView: LoggedOutViewControllable, HeadlessViewControllable, LoggedOutPresentable, Screen {
    weak var listener: (any LoggedOutPresentableListener)?
    private let console: Console

    init(console: Console) {
        self.console = console
    }

    func showWelcome() {
        console.screen("LoggedOut", "step inside the smokehouse  [LOGIN]")
    }

    func showLoginFailed(_ reason: String) {
        console.screen("LoggedOut", "login failed: \(reason)")
    }

    // MARK: User input

    /// The guest types a name and taps LOGIN.
    @discardableResult
    func tapLogin(name: String) -> Task<Void, Never> {
        dispatch { [listener] in await listener?.didTapLogin(name: name) }
    }
}
