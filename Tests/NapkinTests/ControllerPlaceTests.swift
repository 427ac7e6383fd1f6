@testable import Napkin
import Testing

/// How the appearance observer reads a view controller and its parent
/// chain (``AppearanceSnapshot/init(of:read:)``), with a stand-in
/// controller: the walk UIKit and AppKit share, tested headless.
@Suite("Controller place")
struct ControllerPlaceTests {
    /// A view controller as the observer sees it.
    final class Controller {
        var parent: Controller?
        var isLoaded = true
        var inWindow = false
        var isPresented = false
        var presentsAnother = false
        init(parent: Controller? = nil) { self.parent = parent }
    }

    static func snapshot(_ controller: Controller) -> AppearanceSnapshot {
        AppearanceSnapshot(of: controller) {
            ControllerPlace(parent: $0.parent, isLoaded: $0.isLoaded, inWindow: $0.inWindow,
                            isPresented: $0.isPresented, presentsAnother: $0.presentsAnother)
        }
    }

    @Test("a controller alone: its own facts, no container")
    func alone() {
        let controller = Controller()
        controller.inWindow = true
        #expect(Self.snapshot(controller) == AppearanceSnapshot(
            isLoaded: true, inWindow: true, hasParent: false, isPresented: false, presentsAnother: false))
    }

    @Test("a pushed-over screen: out of the window, its navigation container still in one")
    func pushedOver() {
        let window = Controller()
        window.inWindow = true
        let navigation = Controller(parent: window)
        navigation.inWindow = true
        let screen = Controller(parent: navigation)
        let snapshot = Self.snapshot(screen)
        #expect(snapshot.hasParent)
        #expect(!snapshot.inWindow)
        #expect(snapshot.next(after: .shown) == .covered)
    }

    @Test("an ancestor far up the chain that is presented keeps it in place")
    func presentedAncestor() {
        let root = Controller()
        root.isPresented = true
        let middle = Controller(parent: root)
        let screen = Controller(parent: Controller(parent: middle))
        #expect(Self.snapshot(screen).hasParent)
    }

    @Test("a parent that left with it (no window, not presented) does not count")
    func parentGoneToo() {
        let screen = Controller(parent: Controller(parent: Controller()))
        let snapshot = Self.snapshot(screen)
        #expect(!snapshot.hasParent)
        #expect(snapshot.next(after: .shown) == .removed)
    }

    @Test("an ancestor that presents another covers it (AppKit answers only for itself)")
    func ancestorPresents() {
        let root = Controller()
        root.inWindow = true
        root.presentsAnother = true
        let screen = Controller(parent: root)
        screen.inWindow = true
        let snapshot = Self.snapshot(screen)
        #expect(snapshot.presentsAnother)
        #expect(!snapshot.isShown)
        #expect(snapshot.next(after: .shown) == .covered)
    }

    @Test("an unloaded controller is not loaded, whatever its parents are")
    func unloaded() {
        let root = Controller()
        root.inWindow = true
        let screen = Controller(parent: root)
        screen.isLoaded = false
        let snapshot = Self.snapshot(screen)
        #expect(!snapshot.isLoaded)
        #expect(snapshot.hasParent)
        #expect(snapshot.next(after: nil) == nil)
    }
}
