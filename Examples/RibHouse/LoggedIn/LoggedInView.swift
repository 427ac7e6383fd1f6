import Napkin

/// The user's actions on the LoggedIn screen.
protocol LoggedInPresentableListener: AnyObject, Sendable {
    func didTapLogout() async
}

/// The signed-in screen: a header with the guest's name and a LOGOUT button,
/// the permanent children's views below, an order sheet over them.
@MainActor
final class LoggedInView: LoggedInViewControllable, LoggedInPresentable, Screen {
    weak var listener: (any LoggedInPresentableListener)?
    private let console: Console
    private var embedded: [any ViewControllable] = []
    private var presented: (any ViewControllable)?

    init(console: Console) {
        self.console = console
    }

    func showWelcome(_ user: User) {
        console.screen("LoggedIn", "welcome, \(user.name)  [LOGOUT]")
    }

    func showGoodbye(_ user: User, tab: String) {
        console.screen("LoggedIn", "goodbye, \(user.name); your tab: \(tab)")
    }

    // MARK: LoggedInViewControllable

    func embed(_ child: any ViewControllable) {
        embedded.append(child)
    }

    func present(_ child: any ViewControllable) {
        presented = child
    }

    func dismiss(_ child: any ViewControllable) {
        guard presented === child else { return }
        presented = nil
        console.screen("LoggedIn", "back to the menu")
    }

    var subscreens: [any Screen] {
        (embedded + [presented].compactMap { $0 }).compactMap { $0 as? any Screen }
    }

    // MARK: User input

    /// The guest taps LOGOUT.
    @discardableResult
    func tapLogout() -> Task<Void, Never> {
        dispatch { [listener] in await listener?.didTapLogout() }
    }
}
