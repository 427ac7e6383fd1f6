import Observation

/// Something an interactor sends view state to. Lives on the main actor.
@MainActor
public protocol Presentable: AnyObject {}

/// The base class of an optional presenter: turns business data into view
/// state held in observable properties a view reads.
@MainActor
@Observable
open class Presenter<ViewControllerType: ViewControllable>: Presentable {
    /// The view this presenter drives.
    public let viewController: ViewControllerType

    /// Creates a presenter for `viewController`.
    public init(viewController: ViewControllerType) {
        self.viewController = viewController
    }
}
