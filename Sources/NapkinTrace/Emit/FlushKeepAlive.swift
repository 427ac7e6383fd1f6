// What keeps an app running while a flush its lifecycle asked for finishes,
// so that the thread that posted the notification (the main thread) need not
// wait for it. UIKit's is a background task (Platform.swift); tests record
// the calls.

/// Keeps the app running between ``begin()`` and ``end(_:)``: UIKit's
/// background task (`beginBackgroundTask(expirationHandler:)`), which lets a
/// flush asked for on `didEnterBackground` finish after the main thread has
/// returned, instead of the main thread waiting for it.
package protocol FlushKeepAlive: Sendable {
    /// Starts keeping the app running (on the posting thread); returns what ``end(_:)`` takes.
    func begin() -> Int
    /// Stops keeping the app running for `token` (on the flush's queue, once the flush is done).
    func end(_ token: Int)
}

/// For a notification after which the process exits normally: AppKit's
/// `willTerminateNotification`, after which `terminate(_:)` ends the
/// process with `exit`, whose `atexit` handler (``ExitFlush``) drains the
/// trace and writes its `end` record. Nothing needs keeping running, so the
/// poster (the main thread) does not wait for the flush the notification
/// starts early: no main-thread wait on lower-priority work at termination.
package struct NormalExitFollows: FlushKeepAlive {
    /// Nothing to keep running.
    package init() {}
    /// Nothing begun: the exit that follows drains the trace.
    package func begin() -> Int { 0 }
    /// Nothing to end.
    package func end(_ token: Int) {}
}
