import Napkin

/// Announcements has nowhere to route; the protocol is its router's seam.
@MainActor
protocol AnnouncementsRouting: ViewableRouting, Sendable {}

/// What Announcements tells its parent (nothing yet: it only displays).
protocol AnnouncementsListener: AnyObject, Sendable {}

/// What the interactor shows in the announcements strip.
protocol AnnouncementsPresentable: Presentable, Sendable {
    var listener: (any AnnouncementsPresentableListener)? { get set }
    func show(_ announcement: String)
}

/// Shows the kitchen's announcements while the guest is signed in: a task
/// bound to the active scope consumes the service's `AsyncStream`; when the
/// napkin resigns the task is cancelled, the stream ends and unsubscribes.
final actor AnnouncementsInteractor: AnnouncementsInteractable, PresentableInteractable, AnnouncementsPresentableListener {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: any AnnouncementsPresentable
    weak var router: (any AnnouncementsRouting)?
    weak var listener: (any AnnouncementsListener)?
    private let announcements: AnnouncementService

    init(presenter: any AnnouncementsPresentable, listener: any AnnouncementsListener,
         announcements: AnnouncementService) {
        self.presenter = presenter
        self.listener = listener
        self.announcements = announcements
    }

    func set(router: any AnnouncementsRouting) {
        self.router = router
    }

    func didBecomeActive() async {
        // Subscribe now, not inside the task, so nothing posted after
        // activation can be missed.
        let feed = announcements.subscribe()
        let presenter = presenter
        task(named: "announcements") {
            for await announcement in feed {
                await presenter.show(announcement)
            }
        }
    }
}
