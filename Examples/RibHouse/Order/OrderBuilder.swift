import Napkin

/// What Order needs from its parent.
protocol OrderDependency: Dependency, OrderReadyDependency {
    var tab: CustomerTab { get }
    var console: Console { get }
    var bugs: BugSwitch { get }
    var orderPrefetch: OrderPrefetchCache { get }
}

final class OrderComponent: Component<any OrderDependency>, @unchecked Sendable {
    var tab: CustomerTab { dependency.tab }
    var console: Console { dependency.console }
    var bugs: BugSwitch { dependency.bugs }
    var orderPrefetch: OrderPrefetchCache { dependency.orderPrefetch }
}

protocol OrderBuildable: Buildable {
    @MainActor func build(withListener listener: any OrderListener, item: MenuItem) async -> any OrderRouting
    /// Builds Order for `item` ahead of time and keeps it in the app-wide
    /// ``OrderPrefetchCache``, never attached.
    @MainActor func prefetch(withListener listener: any OrderListener, item: MenuItem) async
}

final class OrderBuilder: Builder<any OrderDependency>, OrderBuildable, @unchecked Sendable {
    @MainActor
    func build(withListener listener: any OrderListener, item: MenuItem) async -> any OrderRouting {
        let component = OrderComponent(dependency: dependency)
        let view = OrderView(console: component.console, reportsPops: !component.bugs.isOn(.swipeBack))
        let interactor = OrderInteractor(presenter: view, listener: listener, item: item, tab: component.tab, bugs: component.bugs)
        view.listener = interactor
        let router = OrderRouter(interactor: interactor, viewController: view)
        await interactor.set(router: router)
        if component.bugs.isOn(.closureKeepsOrder) {
            // --bug closure-keeps-order: "tell me when it is ready" reopens this
            // order; the callback captures the router, and the app-wide
            // registry keeps it after the order closed.
            component.deepLinks.whenOrderReady { _ = router.viewControllable }
        }
        return router
    }

    @MainActor
    func prefetch(withListener listener: any OrderListener, item: MenuItem) async {
        let component = OrderComponent(dependency: dependency)
        guard component.bugs.isOn(.prefetchLeak) || component.orderPrefetch.isEnabled else { return }
        let router = await build(withListener: listener, item: item)
        // --bug prefetch-leak: the screen goes to a static cache without a
        // capacity, which keeps every one until the process exits.
        let cache = component.bugs.isOn(.prefetchLeak) ? OrderPrefetchCache.everyPrefetch : component.orderPrefetch
        cache.keep(router)
    }
}
