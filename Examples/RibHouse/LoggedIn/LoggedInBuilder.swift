import Napkin

protocol LoggedInBuildable: Buildable {
    @MainActor func build(withListener listener: any LoggedInListener, user: User) async -> any LoggedInRouting
}

/// Builds one login session's napkin, with its children's builders.
final class LoggedInBuilder: Builder<any LoggedInDependency>, LoggedInBuildable, @unchecked Sendable {
    @MainActor
    func build(withListener listener: any LoggedInListener, user: User) async -> any LoggedInRouting {
        let component = LoggedInComponent(dependency: dependency, user: user)
        let view = LoggedInView(console: component.console)
        let interactor = LoggedInInteractor(
            presenter: view,
            listener: listener,
            user: user,
            auth: component.authService,
            tab: component.tab
        )
        view.listener = interactor
        let router = LoggedInRouter(
            interactor: interactor,
            viewController: view,
            menuBuilder: MenuBuilder(dependency: component),
            pitBoardBuilder: PitBoardBuilder(dependency: component),
            announcementsBuilder: AnnouncementsBuilder(dependency: component),
            orderBuilder: OrderBuilder(dependency: component),
            bugs: component.bugs
        )
        // --bug retain-cycle: the interactor also keeps the router strongly.
        await interactor.set(router: router, retainingIt: component.bugs.isOn(.retainCycle))
        return router
    }
}
