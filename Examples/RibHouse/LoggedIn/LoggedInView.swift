import Napkin

/// The user's actions on the LoggedIn screen.
protocol LoggedInPresentableListener: AnyObject, Sendable {
    func didTapLogout() async
}

/// The signed-in screen: a header with the guest's name and a LOGOUT button,
/// the permanent children's views below it, and a navigation stack that
/// pushes an order screen over them (the embedded views are then covered,
/// not gone). The guest goes back with the order's own Back button or by
/// swiping, which pops the order screen without asking anyone (like
/// UINavigationController's interactive pop gesture).
@MainActor
final class LoggedInView: LoggedInViewControllable, HeadlessViewControllable, LoggedInPresentable, ContainerView, Screen {
    weak var listener: (any LoggedInPresentableListener)?
    private let console: Console
    private var embedded: [any ViewControllable] = []
    /// Pushed views, the top one last.
    private var stack: [any ViewControllable] = []
    private var isShown = false

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
        if isShown && stack.isEmpty { child.changeAppearance(to: .shown) }
    }

    func push(_ child: any ViewControllable) {
        let below = visible
        stack.append(child)
        guard isShown else { return }
        for view in below { view.changeAppearance(to: .covered) }
        child.changeAppearance(to: .shown)
    }

    func pop(_ child: any ViewControllable) {
        _ = popTop(child)
    }

    /// Pops `child` if it is on top: it is removed, what it covered is
    /// shown again, and it is told it moved from its parent.
    private func popTop(_ child: any ViewControllable) -> Task<Void, Never>? {
        guard let top = stack.last, top === child else { return nil }
        stack.removeLast()
        child.changeAppearance(to: .removed)
        if isShown { for view in visible { view.changeAppearance(to: .shown) } }
        console.screen("LoggedIn", "back to the menu")
        return (child as? any PoppableView)?.didMoveFromParent()
    }

    /// What is on screen inside this view: the top of the stack, or the embedded views.
    private var visible: [any ViewControllable] {
        stack.last.map { [$0] } ?? embedded
    }

    func containerAppearanceDidChange(to appearance: ViewAppearance) {
        isShown = appearance == .shown
        // Removed, everything inside goes; covered or shown, what is visible follows.
        for view in appearance == .removed ? embedded + stack : visible {
            view.changeAppearance(to: appearance)
        }
    }

    var subscreens: [any Screen] {
        (embedded + stack).compactMap { $0 as? any Screen }
    }

    // MARK: User input

    /// The guest taps LOGOUT.
    @discardableResult
    func tapLogout() -> Task<Void, Never> {
        dispatch { [listener] in await listener?.didTapLogout() }
    }

    /// The guest swipes back from the pushed screen: the stack pops it by
    /// itself; whatever the popped view starts in response is returned.
    @discardableResult
    func swipeBack() -> Task<Void, Never> {
        let started = stack.last.flatMap { popTop($0) }
        return Task { await started?.value }
    }
}
