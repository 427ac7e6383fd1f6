import Napkin

/// The LoggedIn interactor as its router sees it: the listener of every child.
protocol LoggedInInteractable: Interactable, MenuListener, PitBoardListener, AnnouncementsListener, OrderListener {}

/// The LoggedIn view as its router sees it.
@MainActor
protocol LoggedInViewControllable: ViewControllable {
    /// Shows a permanent child's view inside this one.
    func embed(_ child: any ViewControllable)
    /// Pushes a child's view onto the navigation stack, over the embedded views.
    func push(_ child: any ViewControllable)
    /// Pops a pushed child's view off the stack (nothing if it is not on top).
    func pop(_ child: any ViewControllable)
}

/// Attaches the permanent children (Menu, PitBoard, Announcements) when it
/// loads, and pushes and pops Order. Order comes back by its own Back button
/// or by the user's swipe; either way its view tells its interactor, which
/// tells this napkin to route back (and detach it).
@MainActor
final class LoggedInRouter: ViewableRouter<any LoggedInInteractable, any LoggedInViewControllable>, LoggedInRouting {
    private let menuBuilder: any MenuBuildable
    private let pitBoardBuilder: any PitBoardBuildable
    private let announcementsBuilder: any AnnouncementsBuildable
    private let orderBuilder: any OrderBuildable
    private let bugs: BugSwitch
    private var order: (any OrderRouting)?

    init(interactor: any LoggedInInteractable,
         viewController: any LoggedInViewControllable,
         menuBuilder: any MenuBuildable,
         pitBoardBuilder: any PitBoardBuildable,
         announcementsBuilder: any AnnouncementsBuildable,
         orderBuilder: any OrderBuildable,
         bugs: BugSwitch) {
        self.menuBuilder = menuBuilder
        self.pitBoardBuilder = pitBoardBuilder
        self.announcementsBuilder = announcementsBuilder
        self.orderBuilder = orderBuilder
        self.bugs = bugs
        super.init(interactor: interactor, viewController: viewController)
    }

    override func didLoad() async {
        await super.didLoad()
        // Permanent children: they live exactly as long as this router, which
        // keeps them in `children` only.
        await attachPermanent(await menuBuilder.build(withListener: interactor))
        await attachPermanent(await pitBoardBuilder.build(withListener: interactor))
        await attachPermanent(await announcementsBuilder.build(withListener: interactor))
    }

    func routeToOrder(_ item: MenuItem) async {
        guard order == nil else { return }
        let router = await orderBuilder.build(withListener: interactor, item: item)
        order = router
        await attachChild(router)
        viewController.push(router.viewControllable)
    }

    /// Pops Order's view (already gone after a swipe) and detaches it.
    func routeBackFromOrder() async {
        guard let router = order else { return }
        order = nil
        viewController.pop(router.viewControllable)
        if bugs.isOn(.forgottenDetach) {
            // --bug forgotten-detach: the screen is gone and our reference is
            // dropped, so everything looks fine, but the Order router is still
            // one of `children`: attached, its interactor active.
            return
        }
        await detachChild(router)
    }

    private func attachPermanent(_ child: any ViewableRouting) async {
        await attachChild(child)
        viewController.embed(child.viewControllable)
    }

    // Below the rest, so that the lines the example traces name (42, 58, 73
    // and 77, the creation, attach and detach calls) stay where they are.

    func prefetchOrder(_ item: MenuItem) async {
        await orderBuilder.prefetch(withListener: interactor, item: item)
    }
}
