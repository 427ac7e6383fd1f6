import Napkin

/// What PitBoard needs from its parent.
protocol PitBoardDependency: Dependency {
    var pitService: PitService { get }
    var deepLinks: DeepLinkRegistry { get }
    var console: Console { get }
    var pace: Pace { get }
    var bugs: BugSwitch { get }
}

final class PitBoardComponent: Component<any PitBoardDependency>, @unchecked Sendable {
    var pitService: PitService { dependency.pitService }
    var deepLinks: DeepLinkRegistry { dependency.deepLinks }
    var console: Console { dependency.console }
    var bugs: BugSwitch { dependency.bugs }

    /// How often the board reads the pit.
    var pollInterval: Duration { dependency.pace.scaled(.milliseconds(150)) }
}

protocol PitBoardBuildable: Buildable {
    @MainActor func build(withListener listener: any PitBoardListener) async -> any PitBoardRouting
}

final class PitBoardBuilder: Builder<any PitBoardDependency>, PitBoardBuildable, @unchecked Sendable {
    @MainActor
    func build(withListener listener: any PitBoardListener) async -> any PitBoardRouting {
        let component = PitBoardComponent(dependency: dependency)
        let view = PitBoardView(console: component.console)
        let interactor = PitBoardInteractor(
            presenter: view,
            listener: listener,
            pit: component.pitService,
            pollInterval: component.pollInterval,
            ignoresCancellation: component.bugs.isOn(.ignoreCancel)
        )
        view.listener = interactor
        let router = PitBoardRouter(interactor: interactor, viewController: view)
        await interactor.set(router: router)
        // Pit-alert notifications open the board. The registry outlives this
        // napkin, so it holds the router weakly (strongly with --bug service-keeps-child).
        component.deepLinks.register(router, for: .pitBoard)
        if component.bugs.isOn(.earlyTask) {
            // --bug early-task: "warm up" the board while building, so the
            // first reading is ready when it appears. The interactor is not
            // attached yet, so the poller starts outside any active scope.
            await interactor.startPolling()
        }
        return router
    }
}
