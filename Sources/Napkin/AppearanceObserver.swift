#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// Reports a napkin's view appearance on UIKit and AppKit without app code,
/// and without changing the app: it adds no view controller or view to any
/// hierarchy, never loads a view, and keeps nothing alive.
///
/// Installed only for traced routers, never for a
/// ``HeadlessViewControllable`` (which reports by itself). It registers the
/// napkin's view with ``AppearancePoller/shared``, which looks about ten
/// times a second at where the view controller is (``AppearanceSnapshot``)
/// and reports each change with ``ViewControllable/reportAppearance(_:)``,
/// like a headless view layer does. Headless (Linux): nothing to install.
@MainActor
enum AppearanceObserver {
    #if canImport(UIKit) || canImport(AppKit)
    static func install(on view: any ViewControllable) {
        guard !(view is any HeadlessViewControllable) else { return }
        #if canImport(UIKit)
        let controller = view.uiviewController
        #else
        let controller = view.nsviewController
        #endif
        AppearancePoller.shared.register(view) { [weak controller] in
            controller.map(snapshot(of:))
        }
    }
    #else
    /// Headless: the view layer reports with ``ViewControllable/reportAppearance(_:)``.
    @inline(__always)
    static func install(on view: any ViewControllable) {}
    #endif

    #if canImport(UIKit)
    /// Where `controller` is, read without loading its view. UIKit's
    /// `presentingViewController` and `presentedViewController` already
    /// answer for the controller's ancestors too.
    static func snapshot(of controller: UIViewController) -> AppearanceSnapshot {
        var inPlace = false
        var container = controller.parent
        while let current = container, !inPlace {
            inPlace = current.viewIfLoaded?.window != nil || current.presentingViewController != nil
            container = current.parent
        }
        return AppearanceSnapshot(
            isLoaded: controller.viewIfLoaded != nil,
            inWindow: controller.viewIfLoaded?.window != nil,
            hasParent: inPlace,
            isPresented: controller.presentingViewController != nil,
            presentsAnother: controller.presentedViewController != nil)
    }
    #elseif canImport(AppKit)
    /// Where `controller` is, read without loading its view. AppKit's
    /// `presentingViewController` answers for the ancestors too;
    /// `presentedViewControllers` does not, so the parent chain is asked.
    static func snapshot(of controller: NSViewController) -> AppearanceSnapshot {
        var inPlace = false
        var presentsAnother = !(controller.presentedViewControllers ?? []).isEmpty
        var container = controller.parent
        while let current = container {
            if current.viewIfLoaded?.window != nil || current.presentingViewController != nil { inPlace = true }
            if !(current.presentedViewControllers ?? []).isEmpty { presentsAnother = true }
            container = current.parent
        }
        return AppearanceSnapshot(
            isLoaded: controller.viewIfLoaded != nil,
            inWindow: controller.viewIfLoaded?.window != nil,
            hasParent: inPlace,
            isPresented: controller.presentingViewController != nil,
            presentsAnother: presentsAnother)
    }
    #endif
}
