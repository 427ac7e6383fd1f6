import Napkin

/// What Order needs from its parent.
protocol OrderDependency: Dependency {
    var tab: CustomerTab { get }
    var console: Console { get }
    var bugs: BugSwitch { get }
}

final class OrderComponent: Component<any OrderDependency>, @unchecked Sendable {
    var tab: CustomerTab { dependency.tab }
    var console: Console { dependency.console }
    var bugs: BugSwitch { dependency.bugs }
}

protocol OrderBuildable: Buildable {
    @MainActor func build(withListener listener: any OrderListener, item: MenuItem) async -> any OrderRouting
}

final class OrderBuilder: Builder<any OrderDependency>, OrderBuildable, @unchecked Sendable {
    @MainActor
    func build(withListener listener: any OrderListener, item: MenuItem) async -> any OrderRouting {
        let component = OrderComponent(dependency: dependency)
        let view = OrderView(console: component.console, reportsPops: !component.bugs.isOn(.swipeBack))
        let interactor = OrderInteractor(presenter: view, listener: listener, item: item, tab: component.tab)
        view.listener = interactor
        let router = OrderRouter(interactor: interactor, viewController: view)
        await interactor.set(router: router)
        return router
    }
}
