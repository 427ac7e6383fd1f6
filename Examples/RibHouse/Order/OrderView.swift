import Napkin

/// The user's actions on the order sheet.
protocol OrderPresentableListener: AnyObject, Sendable {
    func didTapMore() async
    func didTapAddToTab() async
    func didTapBack() async
}

/// The order sheet, presented over the LoggedIn screen, with a custom back
/// button (back navigation goes through the interactor to the parent's router).
@MainActor
final class OrderView: OrderViewControllable, OrderPresentable, Screen {
    weak var listener: (any OrderPresentableListener)?
    private let console: Console

    init(console: Console) {
        self.console = console
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
}
