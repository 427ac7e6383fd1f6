import Napkin

/// The PitBoard interactor as its router sees it.
protocol PitBoardInteractable: Interactable {
    func refreshNow() async
}

/// The PitBoard view as its router sees it.
@MainActor
protocol PitBoardViewControllable: ViewControllable {}

/// A leaf that also handles the pit-alert deep link (the builder registers
/// it with the app-wide DeepLinkRegistry, which must not keep it alive).
@MainActor
final class PitBoardRouter: ViewableRouter<any PitBoardInteractable, any PitBoardViewControllable>, PitBoardRouting, DeepLinkHandler {
    func handle(_ link: DeepLink) async {
        await interactor.refreshNow()
    }
}
