import Napkin

/// The Announcements interactor as its router sees it.
protocol AnnouncementsInteractable: Interactable {}

/// The Announcements view as its router sees it.
@MainActor
protocol AnnouncementsViewControllable: ViewControllable {}

/// Announcements is a leaf: its router only owns the interactor and the view.
@MainActor
final class AnnouncementsRouter: ViewableRouter<any AnnouncementsInteractable, any AnnouncementsViewControllable>, AnnouncementsRouting {}
