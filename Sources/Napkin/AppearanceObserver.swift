#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif
import NapkinTrace

/// Reports a napkin's view appearance on UIKit and AppKit without app code,
/// and without changing the app: it adds no view controller or view to any
/// hierarchy, never loads a view, and keeps nothing alive.
///
/// Installed only for traced routers, never for a
/// ``HeadlessViewControllable`` (which reports by itself). It registers the
/// napkin's view with ``AppearancePoller/shared``, which looks at where the
/// view controller is (``AppearanceSnapshot``), every 100 ms after a change
/// and less often while nothing changes (up to 1.6 s apart), then only after
/// the main run loop did something (``MainRunLoopObserver``): a still screen
/// costs no wake-up. It reports each change with
/// ``ViewControllable/reportAppearance(_:)``, like a headless view layer
/// does. The poller pauses while the app is in the background (UIKit: from
/// `didEnterBackgroundNotification` to `willEnterForegroundNotification`;
/// AppKit: while the app is hidden; an inactive or occluded AppKit app
/// needs no pause: with nothing moving, the poller is dormant).
/// Headless (Linux): nothing to install.
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
        if !followsLifecycle {
            followsLifecycle = true
            // A dormant poller looks again after whatever the app does next.
            MainRunLoopObserver.install()
            #if canImport(UIKit)
            AppearancePoller.shared.follow(pauseOn: [UIApplication.didEnterBackgroundNotification],
                                           resumeOn: [UIApplication.willEnterForegroundNotification])
            #else
            AppearancePoller.shared.follow(pauseOn: [NSApplication.didHideNotification],
                                           resumeOn: [NSApplication.didUnhideNotification])
            // NapkinTrace names no AppKit (command-line tools link it): the
            // process trace's flush on termination is added here.
            ExitFlush.alsoFlush(on: [NSApplication.willTerminateNotification])
            #endif
        }
        AppearancePoller.shared.register(view) { [weak controller] in
            controller.map(snapshot(of:))
        }
    }

    /// The shared poller follows the app's background and foreground (once).
    private static var followsLifecycle = false
    #else
    /// Headless: the view layer reports with ``ViewControllable/reportAppearance(_:)``.
    @inline(__always)
    static func install(on view: any ViewControllable) {}
    #endif

    #if canImport(UIKit)
    /// Where `controller` is, read without loading its view.
    static func snapshot(of controller: UIViewController) -> AppearanceSnapshot {
        AppearanceSnapshot(of: controller) {
            ControllerPlace(parent: $0.parent, isLoaded: $0.viewIfLoaded != nil,
                            inWindow: $0.viewIfLoaded?.window != nil,
                            isPresented: $0.presentingViewController != nil,
                            presentsAnother: $0.presentedViewController != nil)
        }
    }
    #elseif canImport(AppKit)
    /// Where `controller` is, read without loading its view.
    static func snapshot(of controller: NSViewController) -> AppearanceSnapshot {
        AppearanceSnapshot(of: controller) {
            ControllerPlace(parent: $0.parent, isLoaded: $0.viewIfLoaded != nil,
                            inWindow: $0.viewIfLoaded?.window != nil,
                            isPresented: $0.presentingViewController != nil,
                            presentsAnother: !($0.presentedViewControllers ?? []).isEmpty)
        }
    }
    #endif
}
