import Napkin

/// What Announcements needs from its parent.
protocol AnnouncementsDependency: Dependency {
    var announcementService: AnnouncementService { get }
    var console: Console { get }
}

final class AnnouncementsComponent: Component<any AnnouncementsDependency>, @unchecked Sendable {
    var announcementService: AnnouncementService { dependency.announcementService }
    var console: Console { dependency.console }
}

protocol AnnouncementsBuildable: Buildable {
    @MainActor func build(withListener listener: any AnnouncementsListener) async -> any AnnouncementsRouting
}

final class AnnouncementsBuilder: Builder<any AnnouncementsDependency>, AnnouncementsBuildable, @unchecked Sendable {
    @MainActor
    func build(withListener listener: any AnnouncementsListener) async -> any AnnouncementsRouting {
        let component = AnnouncementsComponent(dependency: dependency)
        let view = AnnouncementsView(console: component.console)
        let interactor = AnnouncementsInteractor(presenter: view, listener: listener,
                                                 announcements: component.announcementService)
        view.listener = interactor
        let router = AnnouncementsRouter(interactor: interactor, viewController: view)
        await interactor.set(router: router)
        return router
    }
}
