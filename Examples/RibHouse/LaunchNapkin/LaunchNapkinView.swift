import Napkin

/// The window's root view: shows the view of whichever child is attached.
/// It prints nothing itself; the children's views do.
@MainActor
final class LaunchNapkinView: LaunchNapkinViewControllable, HeadlessViewControllable, ContainerView, Screen {
    private var embedded: [any ViewControllable] = []
    private var isShown = false

    func embed(_ child: any ViewControllable) {
        embedded.append(child)
        if isShown { child.changeAppearance(to: .shown) }
    }

    func detach(_ child: any ViewControllable) {
        let count = embedded.count
        embedded.removeAll { $0 === child }
        if embedded.count < count { child.changeAppearance(to: .removed) }
    }

    func containerAppearanceDidChange(to appearance: ViewAppearance) {
        isShown = appearance == .shown
        for child in embedded { child.changeAppearance(to: appearance) }
    }

    var subscreens: [any Screen] {
        embedded.compactMap { $0 as? any Screen }
    }
}
