/// What a napkin needs from its parent's component.
///
/// Declare a protocol refining `Dependency` for each napkin, listing the
/// services it needs; the parent's component conforms to it.
///
/// ```swift
/// protocol HomeDependency: Dependency {
///     var authService: AuthService { get }
/// }
/// ```
public protocol Dependency: AnyObject, Sendable {}

/// The dependency of a napkin that needs nothing from a parent (usually the root).
public protocol EmptyDependency: Dependency {}
