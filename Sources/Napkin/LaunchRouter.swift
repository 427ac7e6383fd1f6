#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// The root router of an app.
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

    /// Starts the tree without a window (a server, a command-line tool, a
    /// test): activates the root interactor, then loads the root.
    func launch() async
}

/// The base class of an app's root router.
@MainActor
open class LaunchRouter<InteractorType, ViewControllerType>: ViewableRouter<InteractorType, ViewControllerType>, LaunchRouting {
    #if canImport(UIKit)
    /// Installs the root view controller in `window`, makes it key and
    /// visible, activates the root interactor and loads the tree.
    public final func launch(from window: UIWindow) async {
        window.rootViewController = viewControllable.uiviewController
        window.makeKeyAndVisible()
        await launch()
    }
    #elseif canImport(AppKit)
    /// Installs the root view controller in `window`, shows it, activates the
    /// root interactor and loads the tree.
    public final func launch(from window: NSWindow) async {
        window.contentViewController = viewControllable.nsviewController
        window.makeKeyAndOrderFront(nil)
        await launch()
    }
    #endif

    /// Activates the root interactor, then loads the root (headless launch).
    public final func launch() async {
        await launchAsRoot()
    }
}
