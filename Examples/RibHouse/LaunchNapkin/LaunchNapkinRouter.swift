import Napkin

/// The root interactor as its router sees it: the listener of both children.
protocol LaunchNapkinInteractable: Interactable, LoggedOutListener, LoggedInListener {}

/// The root view: a headless container for the one attached child's view.
@MainActor
protocol LaunchNapkinViewControllable: ViewControllable {
    func embed(_ child: any ViewControllable)
    func detach(_ child: any ViewControllable)
}

/// Swaps LoggedOut and LoggedIn: only one is attached at a time, and each
/// route detaches the other first and drops every reference to it.
@MainActor
final class LaunchNapkinRouter: LaunchRouter<any LaunchNapkinInteractable, any LaunchNapkinViewControllable>, LaunchNapkinRouting {
    private let loggedOutBuilder: any LoggedOutBuildable
    private let loggedInBuilder: any LoggedInBuildable
    private var loggedOut: (any LoggedOutRouting)?
    private var loggedIn: (any LoggedInRouting)?

    init(interactor: any LaunchNapkinInteractable,
         viewController: any LaunchNapkinViewControllable,
         loggedOutBuilder: any LoggedOutBuildable,
         loggedInBuilder: any LoggedInBuildable) {
        self.loggedOutBuilder = loggedOutBuilder
        self.loggedInBuilder = loggedInBuilder
        super.init(interactor: interactor, viewController: viewController)
    }

    override func didLoad() async {
        await super.didLoad()
        await routeToLoggedOut()
    }

    func routeToLoggedOut() async {
        await detachLoggedIn()
        guard loggedOut == nil else { return }
        let router = await loggedOutBuilder.build(withListener: interactor)
        loggedOut = router
        await attachChild(router)
        viewController.embed(router.viewControllable)
    }

    func routeToLoggedIn(as user: User) async {
        await detachLoggedOut()
        guard loggedIn == nil else { return }
        let router = await loggedInBuilder.build(withListener: interactor, user: user)
        loggedIn = router
        await attachChild(router)
        viewController.embed(router.viewControllable)
    }

    func tearDown() async {
        await detachLoggedIn()
        await detachLoggedOut()
    }

    private func detachLoggedOut() async {
        guard let router = loggedOut else { return }
        loggedOut = nil
        viewController.detach(router.viewControllable)
        await detachChild(router)
    }

    private func detachLoggedIn() async {
        guard let router = loggedIn else { return }
        loggedIn = nil
        viewController.detach(router.viewControllable)
        await detachChild(router)
    }
}
