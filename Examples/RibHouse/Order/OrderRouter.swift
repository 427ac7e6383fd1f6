import Napkin

/// The Order interactor as its router sees it.
protocol OrderInteractable: Interactable {}

/// The Order view as its router sees it.
@MainActor
protocol OrderViewControllable: ViewControllable {}

/// Order is a leaf: its router only owns the interactor and the view. It
/// inherits napkin's initializer; the trace still names where an Order
/// router is built (the line in `OrderBuilder`, from the call stack).
@MainActor
final class OrderRouter: ViewableRouter<any OrderInteractable, any OrderViewControllable>, OrderRouting {}
