import Napkin

protocol LaunchNapkinBuildable: Buildable {
    @MainActor func build() async -> any LaunchNapkinRouting
}

/// Builds the root napkin from the app's root component.
final class LaunchNapkinBuilder: Builder<LaunchNapkinComponent>, LaunchNapkinBuildable, @unchecked Sendable {
    @MainActor
    func build() async -> any LaunchNapkinRouting {
        let component = dependency
        let view = LaunchNapkinView()
        let interactor = LaunchNapkinInteractor()
        let router = LaunchNapkinRouter(
            interactor: interactor,
            viewController: view,
            loggedOutBuilder: LoggedOutBuilder(dependency: component),
            loggedInBuilder: LoggedInBuilder(dependency: component)
        )
        await interactor.set(router: router)
        return router
    }
}
