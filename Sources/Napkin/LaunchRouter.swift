#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// The root router of an app.
///
/// The requirements are napkin 2.x's: on UIKit and AppKit,
/// `launch(from:)`; elsewhere none beyond ``ViewableRouting``. A custom or
/// mock conformer written for napkin 2.x therefore compiles unchanged.
/// The headless ``launch()`` is not a requirement: it comes from an
/// extension, for every conformer.
@MainActor
public protocol LaunchRouting: ViewableRouting {
    #if canImport(UIKit)
    /// Installs the root view controller in `window`, activates the root
    /// interactor and loads the tree.
    func launch(from window: UIWindow) async
    #elseif canImport(AppKit)
    /// Installs the root view controller in `window`, activates the root
    /// interactor and loads the tree.
    func launch(from window: NSWindow) async
    #endif
}

extension LaunchRouting {
    /// Starts the tree without a window (a server, a command-line tool, a
    /// test): activates the root interactor, then loads the root.
    ///
    /// This is an extension method, not a requirement (napkin 2.x has no
    /// headless launch, and its conformers must compile unchanged), so it is
    /// dispatched statically. To behave the same whatever the static type
    /// of the value it is called on (`any LaunchRouting`, a generic `T:
    /// LaunchRouting`, the concrete router), it looks at the value:
    ///
    /// - A napkin router (a ``LaunchRouter``, or any ``Router`` subclass that
    ///   conforms to `LaunchRouting`) launches exactly as
    ///   ``LaunchRouter/launch()`` does: the trace's `launch` record, the root
    ///   interactor and the subtree it retains activated root first, then
    ///   ``Routing/load()``. Launching again changes nothing.
    /// - Any other conformer (a napkin 2.x-style mock) gets
    ///   `await interactable.activate()`, then `await load()`: what
    ///   `launch(from:)` does after installing the view. Whether a second
    ///   launch changes anything is up to its own `load()`; it is never
    ///   traced (it has no place in a trace).
    ///
    /// A conformer that declares its own `launch()` is called through that
    /// declaration only where its concrete type is known; through the
    /// protocol, this method runs.
    public func launch() async {
        if let root = self as? any RootLaunching {
            await root.launchAsRoot()
        } else {
            await interactable.activate()
            await load()
        }
    }
}

/// A router that can start a tree as its root: every ``Router``. Lets
/// ``LaunchRouting/launch()``, an extension method, reach the router's own
/// launch through an existential (a cast to the generic `Router` class
/// cannot be written without its type argument).
@MainActor
protocol RootLaunching: AnyObject {
    /// Writes the trace's `launch` record, activates the router's
    /// interactor (and the subtree it retains, root first), then loads the
    /// router.
    func launchAsRoot() async
}

extension Router: RootLaunching {}

/// The base class of an app's root router.
@MainActor
open class LaunchRouter<InteractorType, ViewControllerType>: ViewableRouter<InteractorType, ViewControllerType>, LaunchRouting {
    #if canImport(UIKit)
    /// Installs the root view controller in `window`, makes it key and
    /// visible, activates the root interactor and loads the tree.
    ///
    /// A ``HeadlessViewControllable`` root has no view controller to
    /// install: the window is left as it is, and the tree launches as with
    /// ``launch()``.
    public final func launch(from window: UIWindow) async {
        if !(viewControllable is any HeadlessViewControllable) {
            window.rootViewController = viewControllable.uiviewController
            window.makeKeyAndVisible()
        }
        await launch()
    }
    #elseif canImport(AppKit)
    /// Installs the root view controller in `window`, shows it, activates the
    /// root interactor and loads the tree.
    ///
    /// A ``HeadlessViewControllable`` root has no view controller to
    /// install: the window is left as it is, and the tree launches as with
    /// ``launch()``.
    public final func launch(from window: NSWindow) async {
        if !(viewControllable is any HeadlessViewControllable) {
            window.contentViewController = viewControllable.nsviewController
            window.makeKeyAndOrderFront(nil)
        }
        await launch()
    }
    #endif

    /// Activates the root interactor, then loads the root (headless launch).
    ///
    /// The same launch as ``LaunchRouting/launch()`` called through the
    /// protocol (which finds this router and does exactly this): the trace's
    /// `launch` record, the root interactor and the subtree it retains
    /// activated root first, then ``Router/load()``. Launching again changes
    /// nothing.
    public final func launch() async {
        await launchAsRoot()
    }
}
