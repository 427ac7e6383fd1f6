import Napkin

/// The LoggedOut interactor as its router sees it.
protocol LoggedOutInteractable: Interactable {}

/// The LoggedOut view as its router sees it.
@MainActor
protocol LoggedOutViewControllable: ViewControllable {}

/// LoggedOut is a leaf: its router only owns the interactor and the view.
@MainActor
final class LoggedOutRouter: ViewableRouter<any LoggedOutInteractable, any LoggedOutViewControllable>, LoggedOutRouting {}
