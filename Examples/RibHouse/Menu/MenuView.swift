import Napkin

/// The user's actions on the menu.
protocol MenuPresentableListener: AnyObject, Sendable {
    func didScroll(to position: Int) async
    func didSelect(_ name: String) async
}

/// The barbecue list.
@MainActor
final class MenuView: MenuViewControllable, HeadlessViewControllable, MenuPresentable, Screen {
    weak var listener: (any MenuPresentableListener)?
    private let console: Console
    /// The dishes on screen, for the guest (and the script) to read.
    private(set) var dishes: [String] = []

    init(console: Console) {
        self.console = console
    }

    func showMenu(_ items: [MenuItem]) {
        dishes = items.map(\.name)
        let list = items.enumerated().map { "\($0.offset + 1) \($0.element.name)" }.joined(separator: " · ")
        console.screen("Menu", list)
    }

    func highlight(_ item: MenuItem, position: Int) {
        console.screen("Menu", "▸ \(position + 1) \(item.name), \(item.note)")
    }

    // MARK: User input

    /// The guest scrolls the list to the dish at `position`.
    @discardableResult
    func scroll(to position: Int) -> Task<Void, Never> {
        dispatch { [listener] in await listener?.didScroll(to: position) }
    }

    /// The guest taps a dish.
    @discardableResult
    func tap(_ name: String) -> Task<Void, Never> {
        dispatch { [listener] in await listener?.didSelect(name) }
    }
}
