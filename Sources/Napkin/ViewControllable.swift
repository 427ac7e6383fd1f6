#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// A napkin's view, as its router sees it.
///
/// On UIKit and AppKit it exposes the platform view controller (view
/// controller subclasses get it for free). Elsewhere (Linux) it has no
/// requirement: any main-actor object can be a napkin's view. A view with
/// no platform view controller (a server's, a command-line tool's, a test
/// double) conforms to ``HeadlessViewControllable`` instead, on every
/// platform.
@MainActor
public protocol ViewControllable: AnyObject {
    #if canImport(UIKit)
    /// The platform view controller.
    var uiviewController: UIViewController { get }
    #elseif canImport(AppKit)
    /// The platform view controller.
    var nsviewController: NSViewController { get }
    #endif
}

#if canImport(UIKit)
extension ViewControllable where Self: UIViewController {
    /// The view controller itself.
    public var uiviewController: UIViewController { self }
}
#elseif canImport(AppKit)
extension ViewControllable where Self: NSViewController {
    /// The view controller itself.
    public var nsviewController: NSViewController { self }
}
#endif
