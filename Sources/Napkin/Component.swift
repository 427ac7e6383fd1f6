import Foundation

/// Provides a napkin's dependencies, and those of its children.
///
/// A component receives its parent's dependency and exposes the services the
/// napkin and its children use. Wrap a service in ``shared(forCallerKey:_:)``
/// to create it once per component; without `shared`, every access creates a
/// new instance.
///
/// ```swift
/// final class HomeComponent: Component<HomeDependency>, @unchecked Sendable {
///     var authService: AuthService { dependency.authService }
///     var profileService: ProfileService { shared { ProfileService(auth: authService) } }
/// }
/// ```
///
/// - Note: `@unchecked Sendable`: `dependency` is immutable and the shared
///   instances are guarded by a recursive lock (`lock`).
open class Component<DependencyType>: Dependency, @unchecked Sendable {
    /// The dependency this component was built with (usually the parent's component).
    public let dependency: DependencyType

    /// Guards `sharedInstances`. Recursive, because a factory commonly reads
    /// another shared property of the same component.
    private let lock = NSRecursiveLock()
    private var sharedInstances: [String: Any] = [:]

    /// Creates a component for a napkin whose parent provides `dependency`.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }

    /// Returns the one instance of `T` this component holds for `forCallerKey`,
    /// creating it with `factory` on first use.
    ///
    /// Thread-safe: concurrent first callers get the same instance and
    /// `factory` runs once. A `nil` returned by the factory of an optional type
    /// is cached like any other value.
    ///
    /// - Parameters:
    ///   - forCallerKey: the cache key; defaults to the name of the calling property.
    ///   - factory: creates the instance on first use.
    public final func shared<T>(forCallerKey: String = #function, _ factory: () -> T) -> T {
        lock.lock()
        defer { lock.unlock() }
        if let cached = sharedInstances[forCallerKey] {
            if let instance = cached as? T { return instance }
            preconditionFailure("shared(forCallerKey: \"\(forCallerKey)\") was used for two different types")
        }
        let instance = factory()
        sharedInstances[forCallerKey] = instance as Any
        return instance
    }
}

/// The component of a napkin that needs nothing from a parent.
///
/// - Note: `@unchecked Sendable`: it has no stored state.
open class EmptyComponent: EmptyDependency, @unchecked Sendable {
    /// Creates an empty component.
    public init() {}
}
