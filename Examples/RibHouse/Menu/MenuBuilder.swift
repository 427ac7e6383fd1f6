import Napkin

/// What Menu needs from its parent.
protocol MenuDependency: Dependency {
    var menu: [MenuItem] { get }
    var console: Console { get }
}

final class MenuComponent: Component<any MenuDependency>, @unchecked Sendable {
    var menu: [MenuItem] { dependency.menu }
    var console: Console { dependency.console }
}

protocol MenuBuildable: Buildable {
    @MainActor func build(withListener listener: any MenuListener) async -> any MenuRouting
}

final class MenuBuilder: Builder<any MenuDependency>, MenuBuildable, @unchecked Sendable {
    @MainActor
    func build(withListener listener: any MenuListener) async -> any MenuRouting {
        let component = MenuComponent(dependency: dependency)
        let view = MenuView(console: component.console)
        let interactor = MenuInteractor(presenter: view, listener: listener, items: component.menu)
        view.listener = interactor
        let router = MenuRouter(interactor: interactor, viewController: view)
        await interactor.set(router: router)
        return router
    }
}
