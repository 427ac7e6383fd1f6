import Napkin

/// The user's actions on the order sheet.
protocol OrderPresentableListener: AnyObject, Sendable {
    func didTapMore() async
    func didTapAddToTab() async
    func didTapBack() async
    /// The view was popped (by its Back button or a swipe): Order is closed.
    func didLeave() async
}

/// The order screen, pushed over the LoggedIn screen, with a Back button
/// (back navigation goes through the interactor to the parent's router).
/// When the navigation stack pops it (Back, or the user's swipe), it tells
/// its interactor, so the parent detaches Order however the guest left: the
/// `viewDidDisappear` + `isMovingFromParent` pattern of the napkin guides.
@MainActor
final class OrderView: OrderViewControllable, HeadlessViewControllable, OrderPresentable, PoppableView, Screen {
    weak var listener: (any OrderPresentableListener)?
    private let console: Console
    /// False with `--bug swipe-back`: a pop goes unreported.
    private let reportsPops: Bool

    init(console: Console, reportsPops: Bool) {
        self.console = console
        self.reportsPops = reportsPops
    }

    func show(_ item: MenuItem, quantity: Int) {
        console.screen("Order", "\(quantity) × \(item.name)  [+] [ADD TO TAB] [< BACK]")
    }

    func showAdded(_ item: MenuItem, quantity: Int, tab: String) {
        console.screen("Order", "added \(quantity) × \(item.name); tab: \(tab)")
    }

    // MARK: User input

    /// The guest taps [+].
    @discardableResult
    func tapMore() -> Task<Void, Never> {
        dispatch { [listener] in await listener?.didTapMore() }
    }

    /// The guest taps [ADD TO TAB].
    @discardableResult
    func tapAddToTab() -> Task<Void, Never> {
        dispatch { [listener] in await listener?.didTapAddToTab() }
    }

    /// The guest taps [< BACK].
    @discardableResult
    func tapBack() -> Task<Void, Never> {
        dispatch { [listener] in await listener?.didTapBack() }
    }

    // MARK: PoppableView

    func didMoveFromParent() -> Task<Void, Never>? {
        // --bug swipe-back: nobody hears about the pop. After a Back tap the
        // parent routes back anyway; after a swipe, Order stays attached.
        guard reportsPops else { return nil }
        return dispatch { [listener] in await listener?.didLeave() }
    }
}
