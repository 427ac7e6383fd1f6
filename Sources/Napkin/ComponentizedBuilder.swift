import Foundation

/// A builder that creates a fresh component for every build, from a dynamic
/// component dependency, and builds the router from it and a dynamic build dependency.
///
/// Subclasses override ``build(with:_:)``. Each build must receive a new
/// component instance: a `componentBuilder` that returns the instance of the
/// previous build trips an assertion, because napkins sharing a component
/// share its `shared` services by accident.
///
/// - Note: `@unchecked Sendable`: `componentBuilder` is `@Sendable` and the
///   last built component is guarded by `lock`.
open class ComponentizedBuilder<Component, Router, DynamicBuildDependency, DynamicComponentDependency>: Buildable, @unchecked Sendable {
    private let componentBuilder: @Sendable (DynamicComponentDependency) -> Component
    private let lock = NSLock()
    private weak var lastComponent: AnyObject?

    /// Creates a builder that makes each build's component with `componentBuilder`.
    public init(componentBuilder: @escaping @Sendable (DynamicComponentDependency) -> Component) {
        self.componentBuilder = componentBuilder
    }

    /// Builds a new napkin and returns its router.
    public final func build(withDynamicBuildDependency dynamicBuildDependency: DynamicBuildDependency,
                            dynamicComponentDependency: DynamicComponentDependency) -> Router {
        let (_, router): (Component, Router) = build(withDynamicBuildDependency: dynamicBuildDependency,
                                                     dynamicComponentDependency: dynamicComponentDependency)
        return router
    }

    /// Builds a new napkin and returns its component and router.
    public final func build(withDynamicBuildDependency dynamicBuildDependency: DynamicBuildDependency,
                            dynamicComponentDependency: DynamicComponentDependency) -> (Component, Router) {
        let component = componentBuilder(dynamicComponentDependency)
        lock.withLock {
            if let object = lastComponent, let current = isClass(component) {
                assert(object !== current, "\(self): componentBuilder returned the component of the previous build; return a new instance each time")
            }
            lastComponent = isClass(component)
        }
        let router = build(with: component, dynamicBuildDependency)
        return (component, router)
    }

    /// Builds the router from this build's `component`. Subclasses must override it.
    open func build(with component: Component, _ dynamicBuildDependency: DynamicBuildDependency) -> Router {
        fatalError("\(type(of: self)) must override build(with:_:)")
    }
}

/// A ``ComponentizedBuilder`` with no dynamic dependencies.
open class SimpleComponentizedBuilder<Component, Router>: ComponentizedBuilder<Component, Router, (), ()>, @unchecked Sendable {
    /// Creates a builder that makes each build's component with `componentBuilder`.
    public init(componentBuilder: @escaping @Sendable () -> Component) {
        super.init(componentBuilder: { _ in componentBuilder() })
    }

    /// Builds a new napkin and returns its router.
    public final func build() -> Router {
        build(withDynamicBuildDependency: (), dynamicComponentDependency: ())
    }

    /// Forwards to ``build(with:)``.
    public final override func build(with component: Component, _ dynamicBuildDependency: ()) -> Router {
        build(with: component)
    }

    /// Builds the router from this build's `component`. Subclasses must override it.
    open func build(with component: Component) -> Router {
        fatalError("\(type(of: self)) must override build(with:)")
    }
}

/// The instance behind `value` when it is a class instance, for identity checks.
func isClass<T>(_ value: T) -> AnyObject? {
    type(of: value as Any) is AnyClass ? value as AnyObject : nil
}
