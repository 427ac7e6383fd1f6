import Napkin

/// The Order interactor as its router sees it.
protocol OrderInteractable: Interactable {}

/// The Order view as its router sees it.
@MainActor
protocol OrderViewControllable: ViewControllable {}

/// Order is a leaf: its router only owns the interactor and the view.
@MainActor
final class OrderRouter: ViewableRouter<any OrderInteractable, any OrderViewControllable>, OrderRouting {}
