import Napkin

/// What LoggedIn needs from its parent: the app-wide services it and its
/// children use, and the app's settings.
protocol LoggedInDependency: Dependency {
    var authService: AuthService { get }
    var pitService: PitService { get }
    var announcementService: AnnouncementService { get }
    var deepLinks: DeepLinkRegistry { get }
    var orderPrefetch: OrderPrefetchCache { get }
    var console: Console { get }
    var pace: Pace { get }
    var bugs: BugSwitch { get }
}

/// The scope of one login session: built with the signed-in user, it passes
/// the app-wide services through to the children and owns the session's tab.
final class LoggedInComponent: Component<any LoggedInDependency>, @unchecked Sendable {
    let user: User

    init(dependency: any LoggedInDependency, user: User) {
        self.user = user
        super.init(dependency: dependency)
    }

    var authService: AuthService { dependency.authService }
    var pitService: PitService { dependency.pitService }
    var announcementService: AnnouncementService { dependency.announcementService }
    var deepLinks: DeepLinkRegistry { dependency.deepLinks }
    var orderPrefetch: OrderPrefetchCache { dependency.orderPrefetch }
    var console: Console { dependency.console }
    var pace: Pace { dependency.pace }
    var bugs: BugSwitch { dependency.bugs }

    /// The menu shown during this session.
    var menu: [MenuItem] { MenuItem.house }

    /// The guest's tab: one per session, shared by LoggedIn and every Order.
    var tab: CustomerTab {
        shared { CustomerTab() }
    }
}

extension LoggedInComponent: MenuDependency {}
extension LoggedInComponent: PitBoardDependency {}
extension LoggedInComponent: AnnouncementsDependency {}
extension LoggedInComponent: OrderDependency {}
