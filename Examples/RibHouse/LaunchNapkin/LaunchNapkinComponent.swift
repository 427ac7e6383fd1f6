import Napkin

/// The root component: the app's settings and its app-wide services.
///
/// The app creates it once and hands it to ``LaunchNapkinBuilder``; every
/// napkin below gets what it needs from it through its own dependency protocol.
final class LaunchNapkinComponent: Component<any EmptyDependency>, @unchecked Sendable {
    let console: Console
    let pace: Pace
    let bugs: BugSwitch

    init(console: Console, pace: Pace, bugs: BugSwitch) {
        self.console = console
        self.pace = pace
        self.bugs = bugs
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

    /// The Order screens built for later: the 2 newest.
    var orderPrefetch: OrderPrefetchCache {
        shared { OrderPrefetchCache(capacity: 2) }
    }
}

extension LaunchNapkinComponent: LoggedOutDependency {}
extension LaunchNapkinComponent: LoggedInDependency {}
