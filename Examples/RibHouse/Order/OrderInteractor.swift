import Napkin

/// Order has nowhere to route; the protocol is its router's seam.
@MainActor
protocol OrderRouting: ViewableRouting, Sendable {}

/// What Order tells its parent.
protocol OrderListener: AnyObject, Sendable {
    /// The guest navigated back: the parent must route back (and detach
    /// Order). Called again when the popped view reports it; the parent
    /// routes back once.
    func orderDidClose() async
}

/// What the interactor shows on the order sheet.
protocol OrderPresentable: Presentable, Sendable {
    var listener: (any OrderPresentableListener)? { get set }
    func show(_ item: MenuItem, quantity: Int)
    func showAdded(_ item: MenuItem, quantity: Int, tab: String)
}

/// The order sheet for one dish: choose a quantity, put it on the tab, go back.
final actor OrderInteractor: OrderInteractable, PresentableInteractable, OrderPresentableListener {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any OrderPresentable
    weak var router: (any OrderRouting)?
    weak var listener: (any OrderListener)?
    private let item: MenuItem
    private let tab: CustomerTab
    private var quantity = 1
    private let bugs: BugSwitch

    init(presenter: any OrderPresentable, listener: any OrderListener, item: MenuItem, tab: CustomerTab, bugs: BugSwitch) {
        self.presenter = presenter
        self.listener = listener
        self.item = item
        self.tab = tab
        self.bugs = bugs
    }

    func set(router: any OrderRouting) {
        self.router = router
    }

    func didBecomeActive() async {
        await presenter.show(item, quantity: quantity)
    }

    // MARK: OrderPresentableListener

    func didTapMore() async {
        quantity += 1
        await presenter.show(item, quantity: quantity)
    }

    func didTapAddToTab() async {
        await tab.add(item, quantity: quantity)
        // --bug tab-keeps-order: the tab remembers this screen, strongly.
        if bugs.isOn(.tabKeepsOrder), let router { await tab.remember(router) }
        await presenter.showAdded(item, quantity: quantity, tab: await tab.summary)
    }

    func didTapBack() async {
        await listener?.orderDidClose()
    }

    func didLeave() async {
        await listener?.orderDidClose()
    }
}
