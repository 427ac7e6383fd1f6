#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// A napkin's view with no platform view controller: a server's, a
/// command-line tool's, a test double. It reports its own appearance with
/// ``ViewControllable/reportAppearance(_:)``.
///
/// ```swift
/// @MainActor final class SessionView: HeadlessViewControllable {}
/// ```
///
/// It is a ``ViewControllable``, so it is a router's view on every platform
/// and code that takes `any ViewControllable` takes it. ``ViewControllable``
/// itself stays as napkin 2.x has it (on UIKit and AppKit it requires the
/// platform view controller), so napkin 2.x code that reads
/// `viewControllable.uiviewController` compiles and works unchanged; a
/// headless view gets that accessor from this protocol, as a programming
/// error when read: it has no view controller to give. The framework never
/// reads it (a traced router's appearance observer and
/// `LaunchRouter.launch(from:)` skip headless views). On Linux this protocol
/// adds nothing: a headless view behaves exactly as any other view.
@MainActor
public protocol HeadlessViewControllable: ViewControllable {}

#if canImport(UIKit)
extension HeadlessViewControllable {
    /// Not available: a headless view has no view controller. Reading it
    /// stops the process; test for ``HeadlessViewControllable`` first, or
    /// give the napkin a `UIViewController` view.
    public var uiviewController: UIViewController {
        preconditionFailure(Self.noViewControllerMessage)
    }
}
#elseif canImport(AppKit)
extension HeadlessViewControllable {
    /// Not available: a headless view has no view controller. Reading it
    /// stops the process; test for ``HeadlessViewControllable`` first, or
    /// give the napkin an `NSViewController` view.
    public var nsviewController: NSViewController {
        preconditionFailure(Self.noViewControllerMessage)
    }
}
#endif

extension HeadlessViewControllable {
    /// Why reading a headless view's view controller stopped the process.
    static var noViewControllerMessage: String {
        "\(Self.self) is a HeadlessViewControllable: it has no view controller to read. "
            + "Check `view is HeadlessViewControllable` before reading the view controller, "
            + "or make the napkin's view a view controller (conform it to ViewControllable)."
    }
}
