/// A type that builds a napkin: its component, interactor and router.
///
/// Declare a protocol refining `Buildable` with the napkin's `build` method.
/// Builders are not bound to any actor; mark `build` `@MainActor` when it
/// creates views.
public protocol Buildable: AnyObject, Sendable {}

/// The base class of a napkin's builder, holding the dependency it builds with.
///
/// ```swift
/// final class HomeBuilder: Builder<HomeDependency>, HomeBuildable, @unchecked Sendable {
///     @MainActor func build(withListener listener: HomeListener) async -> HomeRouting { ... }
/// }
/// ```
///
/// - Note: `@unchecked Sendable`: its only state, `dependency`, is immutable.
open class Builder<DependencyType>: Buildable, @unchecked Sendable {
    /// The dependency this builder's napkins are built with.
    public let dependency: DependencyType

    /// Creates a builder for napkins whose parent provides `dependency`.
    public init(dependency: DependencyType) {
        self.dependency = dependency
    }
}
