import Foundation

/// A builder whose build happens in stages that share one component.
///
/// Earlier stages read ``componentForCurrentBuildPass`` (the same instance
/// throughout a pass); ``finalStageBuild(withDynamicDependency:)`` builds the
/// router and ends the pass, so the next pass gets a new component.
///
/// - Note: `@unchecked Sendable`: the current component is guarded by `lock`.
open class MultiStageComponentizedBuilder<Component, Router, DynamicBuildDependency>: Buildable, @unchecked Sendable {
    private let componentBuilder: @Sendable () -> Component
    private let lock = NSLock()
    private var currentComponent: Component?
    private weak var lastComponent: AnyObject?

    /// Creates a builder that makes each pass's component with `componentBuilder`.
    public init(componentBuilder: @escaping @Sendable () -> Component) {
        self.componentBuilder = componentBuilder
    }

    /// The component of the current build pass: created on first access, the
    /// same instance until ``finalStageBuild(withDynamicDependency:)`` ends the pass.
    public var componentForCurrentBuildPass: Component {
        lock.withLock {
            if let currentComponent { return currentComponent }
            let component = componentBuilder()
            if let object = lastComponent, let current = isClass(component) {
                assert(object !== current, "\(self): componentBuilder returned the component of the previous pass; return a new instance each time")
            }
            lastComponent = isClass(component)
            currentComponent = component
            return component
        }
    }

    /// Builds the router with the current pass's component and ends the pass.
    public final func finalStageBuild(withDynamicDependency dynamicDependency: DynamicBuildDependency) -> Router {
        let router = finalStageBuild(with: componentForCurrentBuildPass, dynamicDependency)
        lock.withLock { currentComponent = nil }
        return router
    }

    /// Builds the router from the pass's `component`. Subclasses must override it.
    open func finalStageBuild(with component: Component, _ dynamicDependency: DynamicBuildDependency) -> Router {
        fatalError("\(type(of: self)) must override finalStageBuild(with:_:)")
    }
}

/// A ``MultiStageComponentizedBuilder`` with no dynamic dependency.
open class SimpleMultiStageComponentizedBuilder<Component, Router>: MultiStageComponentizedBuilder<Component, Router, ()>, @unchecked Sendable {
    /// Builds the router with the current pass's component and ends the pass.
    public final func finalStageBuild() -> Router {
        finalStageBuild(withDynamicDependency: ())
    }

    /// Forwards to ``finalStageBuild(with:)``.
    public final override func finalStageBuild(with component: Component, _ dynamicDependency: ()) -> Router {
        finalStageBuild(with: component)
    }

    /// Builds the router from the pass's `component`. Subclasses must override it.
    open func finalStageBuild(with component: Component) -> Router {
        fatalError("\(type(of: self)) must override finalStageBuild(with:)")
    }
}
