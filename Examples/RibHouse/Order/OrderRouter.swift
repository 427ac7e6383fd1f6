import Napkin

/// The Order interactor as its router sees it.
protocol OrderInteractable: Interactable {}

/// The Order view as its router sees it.
@MainActor
protocol OrderViewControllable: ViewControllable {}

/// Order is a leaf: its router only owns the interactor and the view.
@MainActor
final class OrderRouter: ViewableRouter<any OrderInteractable, any OrderViewControllable>, OrderRouting {
    /// Napkin's initializer, declared here so that the trace names where an
    /// Order router is built (the `src` of its `router` record: the line in
    /// `OrderBuilder` that calls this). A router class that inherits the
    /// initializer records no line (docs/trace-format.md, "Code locations").
    override init(interactor: any OrderInteractable, viewController: any OrderViewControllable,
                  file: StaticString = #fileID, line: UInt = #line) {
        super.init(interactor: interactor, viewController: viewController, file: file, line: line)
    }
}
