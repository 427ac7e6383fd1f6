import Napkin

/// What LoggedOut needs from its parent.
protocol LoggedOutDependency: Dependency {
    var authService: AuthService { get }
    var console: Console { get }
}

final class LoggedOutComponent: Component<any LoggedOutDependency>, @unchecked Sendable {
    var authService: AuthService { dependency.authService }
    var console: Console { dependency.console }
}

protocol LoggedOutBuildable: Buildable {
    @MainActor func build(withListener listener: any LoggedOutListener) async -> any LoggedOutRouting
}

final class LoggedOutBuilder: Builder<any LoggedOutDependency>, LoggedOutBuildable, @unchecked Sendable {
    @MainActor
    func build(withListener listener: any LoggedOutListener) async -> any LoggedOutRouting {
        let component = LoggedOutComponent(dependency: dependency)
        let view = LoggedOutView(console: component.console)
        let interactor = LoggedOutInteractor(presenter: view, listener: listener, auth: component.authService)
        view.listener = interactor
        let router = LoggedOutRouter(interactor: interactor, viewController: view)
        await interactor.set(router: router)
        return router
    }
}
