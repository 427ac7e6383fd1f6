import Napkin

/// The user's actions on the announcements strip (none: it only displays).
protocol AnnouncementsPresentableListener: AnyObject, Sendable {}

/// A strip showing the kitchen's latest announcement.
@MainActor
final class AnnouncementsView: AnnouncementsViewControllable, HeadlessViewControllable, AnnouncementsPresentable, Screen {
    weak var listener: (any AnnouncementsPresentableListener)?
    private let console: Console
    /// How many announcements this strip has shown.
    private(set) var shown = 0

    init(console: Console) {
        self.console = console
    }

    func show(_ announcement: String) {
        shown += 1
        console.screen("Announcements", announcement)
    }
}
