import Napkin

/// Menu has nowhere to route; the protocol is its router's seam.
@MainActor
protocol MenuRouting: ViewableRouting, Sendable {}

/// What Menu tells its parent.
protocol MenuListener: AnyObject, Sendable {
    func menuDidSelect(_ item: MenuItem) async
    /// The guest scrolled this menu for the first time, to `item`.
    func menuDidStartBrowsing(at item: MenuItem) async
}

/// What the interactor shows on the menu.
protocol MenuPresentable: Presentable, Sendable {
    var listener: (any MenuPresentableListener)? { get set }
    func showMenu(_ items: [MenuItem])
    func highlight(_ item: MenuItem, position: Int)
}

/// The barbecue list: lets the guest browse it and pick a dish.
final actor MenuInteractor: MenuInteractable, PresentableInteractable, MenuPresentableListener {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any MenuPresentable
    weak var router: (any MenuRouting)?
    weak var listener: (any MenuListener)?
    private let items: [MenuItem]
    /// Whether the guest has scrolled this menu yet.
    private var browsing = false

    init(presenter: any MenuPresentable, listener: any MenuListener, items: [MenuItem]) {
        self.presenter = presenter
        self.listener = listener
        self.items = items
    }

    func set(router: any MenuRouting) {
        self.router = router
    }

    func didBecomeActive() async {
        await presenter.showMenu(items)
    }

    // MARK: MenuPresentableListener

    func didScroll(to position: Int) async {
        guard items.indices.contains(position) else { return }
        await presenter.highlight(items[position], position: position)
        guard !browsing else { return }
        browsing = true
        await listener?.menuDidStartBrowsing(at: items[position])
    }

    func didSelect(_ name: String) async {
        guard let item = items.first(where: { $0.name == name }) else { return }
        await listener?.menuDidSelect(item)
    }
}
