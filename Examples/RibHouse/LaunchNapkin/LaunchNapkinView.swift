import Napkin

/// The window's root view: shows the view of whichever child is attached.
/// It prints nothing itself; the children's views do.
@MainActor
final class LaunchNapkinView: LaunchNapkinViewControllable, Screen {
    private var embedded: [any ViewControllable] = []

    func embed(_ child: any ViewControllable) {
        embedded.append(child)
    }

    func detach(_ child: any ViewControllable) {
        embedded.removeAll { $0 === child }
    }

    var subscreens: [any Screen] {
        embedded.compactMap { $0 as? any Screen }
    }
}
