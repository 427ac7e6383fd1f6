import NapkinTrace

/// Where a napkin's view controller was at one look, and what that says
/// about its view's appearance: the decision the UIKit and AppKit appearance
/// observer makes at each poll, kept free of any platform type so that it
/// compiles, and is tested, everywhere.
///
/// The observer fills one in from what it may read without changing the
/// app (`viewIfLoaded?.window`, `parent`, `presentingViewController`,
/// `presentedViewController(s)`), then asks ``next(after:)`` what to report.
package struct AppearanceSnapshot: Equatable, Sendable {
    /// Its view is loaded (never loaded by the observer).
    var isLoaded: Bool
    /// Its view is in a window.
    var inWindow: Bool
    /// It is in a container that is still in place: an ancestor in its
    /// parent chain has its view in a window, or is presented (a pushed-over
    /// screen, an unselected tab). A parent that left with it (a dismissed
    /// navigation controller, a replaced root) does not count.
    var hasParent: Bool
    /// It, or an ancestor, is presented.
    var isPresented: Bool
    /// It, or an ancestor, presents another view controller (a sheet, a
    /// full-screen modal, a popover).
    var presentsAnother: Bool

    /// Whether the view is on screen: in a window, not under a presented one.
    var isShown: Bool { isLoaded && inWindow && !presentsAnother }

    /// A view controller on screen, alone in its window (for the idle benchmark).
    package static let onScreenAlone = AppearanceSnapshot(isLoaded: true, inWindow: true, hasParent: false,
                                                          isPresented: false, presentsAnother: false)

    /// What to report now, after `previous` (the last appearance reported,
    /// `nil` before the first); `nil` when nothing changed.
    ///
    /// - Shown when in a window and not under a presented view controller.
    /// - Nothing before the first time it is shown.
    /// - `covered` when it stops being shown but stays in place: under a
    ///   sheet that keeps it in its window, out of the window while still in
    ///   a container (pushed over, another tab), presented, or presenting
    ///   another (a full-screen modal over it).
    /// - `removed` when it left its window and every container, and is
    ///   neither presented nor presenting: popped, removed from its parent,
    ///   dismissed, its window's root replaced. A removed view is reported
    ///   again only when it is shown again.
    func next(after previous: ViewAppearance?) -> ViewAppearance? {
        let now: ViewAppearance?
        if isShown {
            now = .shown
        } else if previous == nil || previous == .removed {
            now = previous
        } else if (isLoaded && inWindow) || hasParent || isPresented || presentsAnother {
            now = .covered
        } else {
            now = .removed
        }
        return now == previous ? nil : now
    }
}

// MARK: - Reading a view controller

/// What the appearance observer reads of one view controller, the same way
/// on UIKit and AppKit: its parent, and the facts it answers without
/// loading its view or changing the app.
struct ControllerPlace<Controller> {
    /// Its parent view controller, if any.
    var parent: Controller?
    /// `viewIfLoaded != nil`.
    var isLoaded: Bool
    /// `viewIfLoaded?.window != nil`.
    var inWindow: Bool
    /// `presentingViewController != nil`.
    var isPresented: Bool
    /// It presents another view controller.
    var presentsAnother: Bool
}

extension AppearanceSnapshot {
    /// The snapshot of `controller`: its own facts, with its parent chain
    /// (read with the same `read`) for ``hasParent`` (an ancestor in a
    /// window, or presented) and for ``presentsAnother`` (an ancestor that
    /// presents another). UIKit already answers presenting for the
    /// ancestors; AppKit does not; asking the chain is right for both.
    init<Controller>(of controller: Controller, read: (Controller) -> ControllerPlace<Controller>) {
        let own = read(controller)
        var inPlace = false
        var presentsAnother = own.presentsAnother
        var container = own.parent
        while let current = container {
            let place = read(current)
            inPlace = inPlace || place.inWindow || place.isPresented
            presentsAnother = presentsAnother || place.presentsAnother
            container = place.parent
        }
        self.init(isLoaded: own.isLoaded, inWindow: own.inWindow, hasParent: inPlace,
                  isPresented: own.isPresented, presentsAnother: presentsAnother)
    }
}
