/// Where a napkin's view is, as its view layer last reported it (the
/// `state` of a `view` record).
///
/// Only ``removed`` means the view will not come back: a screen pushed or
/// presented over it, a tab switched away or a view hidden for a while is
/// ``covered``, and the analysis never treats covered as gone.
public enum ViewAppearance: String, Sendable, Hashable, CaseIterable {
    /// On screen (UIKit's `viewDidAppear`).
    case shown
    /// Off screen but still in its place in the hierarchy: covered by a
    /// pushed or presented screen, in a tab that is not selected, or hidden.
    /// It can be shown again.
    case covered
    /// Taken out of its parent: popped from a navigation stack (the Back
    /// button or a swipe), dismissed, or removed from its container.
    case removed
}
