import Napkin

/// The Menu interactor as its router sees it.
protocol MenuInteractable: Interactable {}

/// The Menu view as its router sees it.
@MainActor
protocol MenuViewControllable: ViewControllable {}

/// Menu is a leaf: its router only owns the interactor and the view.
@MainActor
final class MenuRouter: ViewableRouter<any MenuInteractable, any MenuViewControllable>, MenuRouting {}
