/// A view on the display, as the script sees it: the script finds the screen
/// it wants to tap by walking the view hierarchy from the window down, the
/// way a UI test does, and never holds on to a view between steps.
@MainActor
protocol Screen: AnyObject {
    /// The screens shown inside this one (embedded or presented).
    var subscreens: [any Screen] { get }
}

extension Screen {
    var subscreens: [any Screen] { [] }

    /// The first screen of type `T` in this screen's hierarchy, depth first.
    func find<T>(_ type: T.Type) -> T? {
        if let match = self as? T { return match }
        for screen in subscreens {
            if let match = screen.find(type) { return match }
        }
        return nil
    }
}
