/// A router whose napkin has a view.
@MainActor
public protocol ViewableRouting: Routing {
    /// The napkin's view.
    var viewControllable: ViewControllable { get }
}

/// The base class of a router that owns a view controller.
@MainActor
open class ViewableRouter<InteractorType, ViewControllerType>: Router<InteractorType>, ViewableRouting {
    /// The view controller, with its own type.
    public let viewController: ViewControllerType

    /// The view controller as a ``ViewControllable``.
    public let viewControllable: ViewControllable

    /// Creates a router for `interactor` and `viewController`, which must
    /// conform to ``ViewControllable``.
    public init(interactor: InteractorType, viewController: ViewControllerType) {
        self.viewController = viewController
        guard let viewControllable = viewController as? ViewControllable else {
            fatalError("\(ViewControllerType.self) must conform to ViewControllable to be a router's view")
        }
        self.viewControllable = viewControllable
        super.init(interactor: interactor)
    }
}
