import Napkin

/// The root component: the app's settings and its app-wide services.
///
/// The app creates it once and hands it to ``LaunchNapkinBuilder``; every
/// napkin below gets what it needs from it through its own dependency protocol.
final class LaunchNapkinComponent: Component<any EmptyDependency>, @unchecked Sendable {
    let console: Console
    let pace: Pace
    let bugs: BugSwitch
    /// Whether the session is played in rounds (`--loop N`, N other than 1):
    /// the app then prefetches Order screens for the repeat visits.
    let playsRounds: Bool

    init(console: Console, pace: Pace, bugs: BugSwitch, playsRounds: Bool = false) {
        self.console = console
        self.pace = pace
        self.bugs = bugs
        self.playsRounds = playsRounds
        super.init(dependency: EmptyComponent())
    }

    var authService: AuthService {
        shared { AuthService() }
    }

    var pitService: PitService {
        shared { PitService() }
    }

    var announcementService: AnnouncementService {
        shared { AnnouncementService() }
    }

    var deepLinks: DeepLinkRegistry {
        shared { DeepLinkRegistry(keepsHandlersAlive: bugs.isOn(.serviceKeepsChild)) }
    }

    /// The Order screens built for later: the 2 newest (in rounds only).
    var orderPrefetch: OrderPrefetchCache {
        shared { OrderPrefetchCache(capacity: 2, isEnabled: playsRounds) }
    }
}

extension LaunchNapkinComponent: LoggedOutDependency {}
extension LaunchNapkinComponent: LoggedInDependency {}
