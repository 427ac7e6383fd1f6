// A stand-in for AppKit, for tests only and never shipped: it lets Linux
// compile this package's `#if canImport(AppKit)` branches
// (`Scripts/apple-typecheck.sh`). It declares only the API the package uses,
// with the types, optionality and main-actor isolation shown on Apple's
// documentation pages (developer.apple.com/documentation/appkit/…):
// nsresponder, nsviewcontroller, nsviewcontroller/viewifloaded (macOS 14),
// …/parent, …/presentingviewcontroller, …/presentedviewcontrollers, nsview,
// nsview/window, nswindow, nswindow/contentviewcontroller,
// nswindow/makekeyandorderfront(_:), nsapplication,
// nsapplication/willterminatenotification, nsapplication/didhidenotification,
// nsapplication/didunhidenotification. Nothing here behaves: every body
// is a placeholder, because nothing built against it ever runs.
//
// `NSViewController` and `NSApplication` are shown as plain classes; they
// are main-actor isolated through `NSResponder` (`@MainActor class`), which
// this stand-in reproduces by subclassing. Where Swift cannot spell Apple's
// declaration the closest spelling is used: `unowned(unsafe) var … { get }`
// is a read-only computed property, and the notification name (`class let`
// on the page, without `nonisolated`) is a main-actor `static let`.

// The real AppKit re-exports Foundation.
@_exported import Foundation

/// Stand-in for AppKit's responder (`@MainActor class NSResponder`).
@MainActor
open class NSResponder {}

/// Stand-in for AppKit's view controller (main actor, through `NSResponder`).
open class NSViewController: NSResponder {
    /// The view, or `nil` when it is not loaded (never loads it).
    open var viewIfLoaded: NSView? { nil }

    /// The view controller this one is a child of.
    open var parent: NSViewController? { nil }

    /// The view controller that presented this one or its farthest ancestor.
    open var presentingViewController: NSViewController? { nil }

    /// The view controllers this one presents, if any.
    open var presentedViewControllers: [NSViewController]? { nil }
}

/// Stand-in for AppKit's view (`@MainActor class NSView`).
@MainActor
open class NSView: NSResponder {
    /// The window the view is installed in, or `nil`.
    open var window: NSWindow? { nil }
}

/// Stand-in for AppKit's window (`@MainActor class NSWindow`).
@MainActor
open class NSWindow: NSResponder {
    /// The view controller whose view is the window's content view.
    open var contentViewController: NSViewController?

    /// Moves the window to the front and makes it key: shows it.
    open func makeKeyAndOrderFront(_ sender: Any?) {}
}

/// Stand-in for AppKit's app object (main actor, through `NSResponder`).
open class NSApplication: NSResponder {
    /// Posted, on the main actor, when the app is about to terminate.
    public static let willTerminateNotification =
        NSNotification.Name("NSApplicationWillTerminateNotification")

    /// Posted, on the main actor, when the app is now hidden.
    public static let didHideNotification = NSNotification.Name("NSApplicationDidHideNotification")

    /// Posted, on the main actor, when the app is now visible again.
    public static let didUnhideNotification = NSNotification.Name("NSApplicationDidUnhideNotification")
}

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
