#if canImport(UIKit)
import UIKit
#elseif canImport(AppKit)
import AppKit
#endif

/// Reports a napkin's view appearance on UIKit and AppKit without app code:
/// an invisible, empty child view controller of the napkin's view
/// controller, which the platform tells when its parent appears and
/// disappears. A disappearance is ``ViewAppearance/removed`` when the view
/// controller is leaving for good at that moment (see `isLeaving`),
/// ``ViewAppearance/covered`` otherwise.
///
/// Installed only for traced routers (it loads the view controller's view
/// to add its own, invisible one). It holds no strong reference to the
/// router or the view, and reports with
/// ``ViewControllable/reportAppearance(_:)`` like a headless view layer
/// does, so both paths share the same logic. Headless (Linux): nothing to
/// install.
@MainActor
enum AppearanceObserver {
    #if canImport(UIKit) || canImport(AppKit)
    #if canImport(UIKit)
    private typealias PlatformViewController = UIViewController
    private typealias PlatformView = UIView
    #else
    private typealias PlatformViewController = NSViewController
    private typealias PlatformView = NSView
    #endif

    static func install(on view: any ViewControllable) {
        #if canImport(UIKit)
        let parent = view.uiviewController
        #else
        let parent = view.nsviewController
        #endif
        let observer = Observer(observing: view)
        parent.addChild(observer)
        // Appearance callbacks reach a child whose view is in the parent's
        // view: a zero-sized, hidden one that takes no input.
        parent.view.addSubview(observer.view)
        #if canImport(UIKit)
        observer.didMove(toParent: parent)
        #endif
    }

    private final class Observer: PlatformViewController {
        /// The napkin's view (often the parent view controller itself).
        private weak var observed: (any ViewControllable)?

        init(observing view: any ViewControllable) {
            observed = view
            super.init(nibName: nil, bundle: nil)
        }

        required init?(coder: NSCoder) { return nil }

        override func loadView() {
            let view = PlatformView(frame: .zero)
            view.isHidden = true
            #if canImport(UIKit)
            view.isUserInteractionEnabled = false
            view.isAccessibilityElement = false
            #endif
            self.view = view
        }

        #if canImport(UIKit)
        override func viewDidAppear(_ animated: Bool) {
            super.viewDidAppear(animated)
            observed?.reportAppearance(.shown)
        }

        override func viewDidDisappear(_ animated: Bool) {
            super.viewDidDisappear(animated)
            observed?.reportAppearance(isLeaving ? .removed : .covered)
        }

        /// Whether the observed view controller, or a container it is in, is
        /// being popped, removed from its parent or dismissed right now.
        private var isLeaving: Bool {
            var controller = parent
            while let current = controller {
                if current.isMovingFromParent || current.isBeingDismissed { return true }
                controller = current.parent
            }
            return false
        }
        #else
        override func viewDidAppear() {
            super.viewDidAppear()
            observed?.reportAppearance(.shown)
        }

        override func viewDidDisappear() {
            super.viewDidDisappear()
            observed?.reportAppearance(isLeaving ? .removed : .covered)
        }

        /// Whether the observed view controller left for good: out of any
        /// container, not presented, and its view out of every window (a
        /// removed view, a closed sheet or window). A tab that is not
        /// selected stays in its container: covered.
        private var isLeaving: Bool {
            guard let observed = parent else { return true }
            return observed.parent == nil && observed.presentingViewController == nil && observed.view.window == nil
        }
        #endif
    }
    #else
    /// Headless: the view layer reports with ``ViewControllable/reportAppearance(_:)``.
    @inline(__always)
    static func install(on view: any ViewControllable) {}
    #endif
}
