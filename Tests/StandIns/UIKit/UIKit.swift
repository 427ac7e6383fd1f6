// A stand-in for UIKit, for tests only and never shipped: it lets Linux
// compile this package's `#if canImport(UIKit)` branches
// (`Scripts/apple-typecheck.sh`). It declares only the API the package uses,
// with the types, optionality and main-actor isolation shown on Apple's
// documentation pages (developer.apple.com/documentation/uikit/…):
// uiviewcontroller, uiviewcontroller/viewifloaded, …/parent,
// …/presentingviewcontroller, …/presentedviewcontroller, uiview,
// uiview/window, uiwindow, uiwindow/rootviewcontroller,
// uiwindow/makekeyandvisible(), uiapplication,
// uiapplication/didenterbackgroundnotification,
// uiapplication/willterminatenotification,
// uiapplication/willenterforegroundnotification, (not uiapplication/shared: see below),
// uiapplication/beginbackgroundtask(expirationhandler:),
// uiapplication/endbackgroundtask(_:), uibackgroundtaskidentifier. Nothing here behaves: every body
// is a placeholder, because nothing built against it ever runs.
//
// Where Swift cannot spell Apple's declaration the closest spelling is used:
// `weak var parent { get }` is a read-only computed property, and the
// notification names (`class let` on the pages) are `static let`.

// The real UIKit re-exports Foundation.
@_exported import Foundation

/// Stand-in for UIKit's view controller (`@MainActor class UIViewController`).
@MainActor
open class UIViewController {
    /// The view, or `nil` when it is not loaded (never loads it).
    open var viewIfLoaded: UIView? { nil }

    /// The container view controller this one is a child of (weak in UIKit).
    open var parent: UIViewController? { nil }

    /// The view controller that presented this one, or one of its ancestors.
    open var presentingViewController: UIViewController? { nil }

    /// The view controller this one, or one of its ancestors, presents.
    open var presentedViewController: UIViewController? { nil }
}

/// Stand-in for UIKit's view (`@MainActor class UIView`).
@MainActor
open class UIView {
    /// The window the view is in, or `nil` when it is in none.
    open var window: UIWindow? { nil }
}

/// Stand-in for UIKit's window (`@MainActor class UIWindow`, a `UIView`).
@MainActor
open class UIWindow: UIView {
    /// The view controller whose view is the window's content.
    open var rootViewController: UIViewController?

    /// Shows the window and makes it the key window.
    open func makeKeyAndVisible() {}
}

/// Stand-in for UIKit's app object (`@MainActor class UIApplication`).
@MainActor
open class UIApplication {
    /// Posted when the app enters the background.
    nonisolated public static let didEnterBackgroundNotification =
        NSNotification.Name("UIApplicationDidEnterBackgroundNotification")

    /// Posted when the app is about to terminate.
    nonisolated public static let willTerminateNotification =
        NSNotification.Name("UIApplicationWillTerminateNotification")

    // `class var shared: UIApplication { get }` is left out on purpose: it is
    // unavailable to app extensions, so the package must not name it (this
    // stand-in makes any use of it fail to compile). The package reaches the
    // app object through key-value coding instead: NSObject's
    // `func value(forKey key: String) -> Any?`
    // (developer.apple.com/documentation/objectivec/nsobject-swift.class/value(forkey:)),
    // which a root class's class object answers too.

    /// NSObject's key-value coding, on the class object (`UIApplication.value(forKey: "sharedApplication")`).
    nonisolated public class func value(forKey key: String) -> Any? { nil }

    /// Starts a task that should continue if the app enters the background.
    nonisolated public func beginBackgroundTask(expirationHandler handler: (@MainActor @Sendable () -> Void)? = nil)
        -> UIBackgroundTaskIdentifier { UIBackgroundTaskIdentifier() }

    /// Ends a task started with `beginBackgroundTask(expirationHandler:)`.
    nonisolated public func endBackgroundTask(_ identifier: UIBackgroundTaskIdentifier) {}

    /// Posted shortly before the app leaves the background.
    nonisolated public static let willEnterForegroundNotification =
        NSNotification.Name("UIApplicationWillEnterForegroundNotification")
}

/// Stand-in for `UIBackgroundTaskIdentifier` (a structure; its members are not used).
public struct UIBackgroundTaskIdentifier {}

// Core Foundation's run loop observers come with the real kit (through
// Foundation); Linux's CoreFoundation module has them too, under the same
// names, except this one (developer.apple.com/documentation/corefoundation/
// cfrunloopmode/commonmodes: `static let commonModes: CFRunLoopMode!`), which
// Linux spells `kCFRunLoopCommonModes`.
import CoreFoundation

extension CFRunLoopMode {
    /// Stand-in for `CFRunLoopMode.commonModes` (the common pseudo-mode).
    public static var commonModes: CFRunLoopMode! { kCFRunLoopCommonModes }
}
