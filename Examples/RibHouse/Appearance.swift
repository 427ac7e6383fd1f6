import Napkin

/// A headless view that shows other napkins' views inside it, and passes its
/// own appearance on to them the way UIKit forwards appearance callbacks to
/// child view controllers (a removed container removes what it holds; a
/// covered one covers what it shows).
@MainActor
protocol ContainerView: ViewControllable {
    /// This view's appearance changed to `appearance`: pass it on.
    func containerAppearanceDidChange(to appearance: ViewAppearance)
}

extension ViewControllable {
    /// Reports `appearance` for this view, then for the views it shows, if
    /// it is a container: the headless stand-in for UIKit's appearance
    /// callbacks, which the trace records through `reportAppearance(_:)`.
    func changeAppearance(to appearance: ViewAppearance) {
        reportAppearance(appearance)
        (self as? any ContainerView)?.containerAppearanceDidChange(to: appearance)
    }
}

/// A view that wants to know when a navigation container popped it (UIKit's
/// `viewDidDisappear` with `isMovingFromParent`): by its Back button, or by
/// the user's swipe, which no app code sees otherwise.
@MainActor
protocol PoppableView: ViewControllable {
    /// The container took this view off its stack; returns the work it started.
    func didMoveFromParent() -> Task<Void, Never>?
}
