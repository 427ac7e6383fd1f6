// The one place the framework watches the main run loop (UIKit and AppKit
// only): a Core Foundation run loop observer that tells the appearance
// poller each time the main run loop is about to sleep, so that a poller
// with no timer of its own (dormant: nothing changed for its whole
// schedule) still looks at the views after anything the app did. It adds no
// wake-up: the observer runs only in a pass the run loop makes anyway.
#if canImport(UIKit) || canImport(AppKit)
import CoreFoundation
import Foundation

/// Calls ``AppearancePoller/mainRunLoopWillSleep()`` on the shared poller
/// before each sleep of the main run loop, in every common mode (also
/// while a scroll view tracks a touch), from ``install()`` on for the life of
/// the process.
///
/// Signatures from developer.apple.com/documentation/corefoundation:
/// `CFRunLoopObserverCreateWithHandler(_:_:_:_:_:)`,
/// `CFRunLoopAddObserver(_:_:_:)`, `CFRunLoopGetMain()`,
/// `CFRunLoopActivity.beforeWaiting`, `CFRunLoopMode.commonModes`.
@MainActor
enum MainRunLoopObserver {
    /// The observer, once installed (kept: the run loop holds it too).
    private static var observer: CFRunLoopObserver?

    /// Adds the observer to the main run loop, once.
    static func install() {
        guard observer == nil else { return }
        let made = CFRunLoopObserverCreateWithHandler(
            kCFAllocatorDefault, CFRunLoopActivity.beforeWaiting.rawValue, true, 0
        ) { _, _ in
            // Added to the main run loop: called on the main thread.
            MainActor.assumeIsolated { AppearancePoller.shared.mainRunLoopWillSleep() }
        }
        CFRunLoopAddObserver(CFRunLoopGetMain(), made, CFRunLoopMode.commonModes)
        observer = made
    }
}
#endif
