/// A router whose napkin has a view.
@MainActor
public protocol ViewableRouting: Routing {
    /// The napkin's view.
    var viewControllable: ViewControllable { get }
}

import NapkinTrace

/// The base class of a router that owns a view controller.
///
/// Traced, it reports where its view is (``ViewAppearance``): on UIKit and
/// AppKit by itself, by looking at where its view controller is a few times
/// a second (it adds nothing to the app and loads no view); for a
/// ``HeadlessViewControllable`` view, and elsewhere, when the view layer
/// calls ``ViewControllable/reportAppearance(_:)``. See `docs/lifecycle.md`.
@MainActor
open class ViewableRouter<InteractorType, ViewControllerType>: Router<InteractorType>, ViewableRouting {
    /// The view controller, with its own type.
    public let viewController: ViewControllerType

    /// The view controller as a ``ViewControllable``.
    public let viewControllable: ViewControllable

    /// Creates a router for `interactor` and `viewController`, which must
    /// conform to ``ViewControllable``.
    ///
    /// Created traced, it records the builder's line as ``Router`` does, or
    /// `file` and `line` when given.
    public init(interactor: InteractorType, viewController: ViewControllerType,
                file: StaticString? = nil, line: UInt? = nil) {
        self.viewController = viewController
        self.viewControllable = Self.viewControllable(viewController)
        super.init(interactor: interactor, file: file, line: line)
    }

    /// Creates a router for `interactor` and `viewController`: napkin 2.x's
    /// initializer, kept so that subclasses overriding it compile. It
    /// records the builder's line as the one above does.
    @_disfavoredOverload
    public init(interactor: InteractorType, viewController: ViewControllerType) {
        self.viewController = viewController
        self.viewControllable = Self.viewControllable(viewController)
        super.init(interactor: interactor, file: nil, line: nil) // where: from the call stack
    }

    /// `viewController` as a ``ViewControllable``; stops the process if it is not one.
    private static func viewControllable(_ viewController: ViewControllerType) -> ViewControllable {
        guard let viewControllable = viewController as? ViewControllable else {
            fatalError("\(ViewControllerType.self) must conform to ViewControllable to be a router's view")
        }
        return viewControllable
    }

    /// Lists the view for appearance reports (tracing on only).
    override func didEnterTrace(_ tracer: Tracer) {
        reportedView = ObjectIdentifier(viewControllable)
        ViewReports.register(viewControllable, router: traceID, in: tracer)
        AppearanceObserver.install(on: viewControllable)
    }
}
