/// The tree-facing side of a napkin: its interactor and its children.
///
/// Routers are `@MainActor`. The methods are declared here, rather than only
/// on ``Router``, so that a test can attach a mock router.
@MainActor
public protocol Routing: AnyObject, Sendable {
    /// The router's interactor, whose lifecycle the router drives.
    var interactable: Interactable { get }

    /// The routers attached to this one, in the order they were attached.
    var children: [Routing] { get }

    /// Loads the router: runs `didLoad()` once. Called by the parent's
    /// ``attachChild(_:)`` and by `launch()`; app code does not call it.
    func load() async

    /// Returns once the router has finished loading (at once if it has).
    /// ``Router``'s returns at once when called from inside its own load (its
    /// `didLoad`, or a child's `didLoad` that load awaits), which could
    /// otherwise never finish.
    func loaded() async

    /// Appends `child`, activates its interactor (and, on re-attach, its whole
    /// subtree), then loads it.
    func attachChild(_ child: Routing) async

    /// Removes `child` and deactivates its interactor and its whole subtree.
    func detachChild(_ child: Routing) async
}
