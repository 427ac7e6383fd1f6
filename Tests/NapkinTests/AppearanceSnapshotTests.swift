@testable import Napkin
import NapkinTrace
import Testing

/// The decision the UIKit and AppKit appearance observer makes at each poll
/// (``AppearanceSnapshot/next(after:)``), played through the navigation
/// shapes it must tell apart: what each look at the view controller
/// reports, from the first look on.
@Suite("Appearance snapshot")
struct AppearanceSnapshotTests {
    /// One look at a view controller, and what it should report (`nil`: nothing).
    struct Look: Sendable {
        let snapshot: AppearanceSnapshot
        let reports: ViewAppearance?
    }

    /// A named sequence of looks.
    struct Scenario: Sendable, CustomTestStringConvertible {
        let name: String
        let looks: [Look]
        var testDescription: String { name }
    }

    // The places a view controller can be in.
    static let notLoaded = AppearanceSnapshot(isLoaded: false, inWindow: false, hasParent: false, isPresented: false, presentsAnother: false)
    static let loadedAlone = AppearanceSnapshot(isLoaded: true, inWindow: false, hasParent: false, isPresented: false, presentsAnother: false)
    static let onScreen = AppearanceSnapshot(isLoaded: true, inWindow: true, hasParent: false, isPresented: false, presentsAnother: false)
    static let onScreenInContainer = AppearanceSnapshot(isLoaded: true, inWindow: true, hasParent: true, isPresented: false, presentsAnother: false)
    static let offScreenInContainer = AppearanceSnapshot(isLoaded: true, inWindow: false, hasParent: true, isPresented: false, presentsAnother: false)
    static let underSheet = AppearanceSnapshot(isLoaded: true, inWindow: true, hasParent: false, isPresented: false, presentsAnother: true)
    static let underFullScreenModal = AppearanceSnapshot(isLoaded: true, inWindow: false, hasParent: false, isPresented: false, presentsAnother: true)
    static let presentedOnScreen = AppearanceSnapshot(isLoaded: true, inWindow: true, hasParent: false, isPresented: true, presentsAnother: false)
    static let presentedOffScreen = AppearanceSnapshot(isLoaded: true, inWindow: false, hasParent: false, isPresented: true, presentsAnother: false)

    static let scenarios: [Scenario] = [
        Scenario(name: "nothing is reported before the view is first shown", looks: [
            Look(snapshot: notLoaded, reports: nil),
            Look(snapshot: loadedAlone, reports: nil),
            Look(snapshot: offScreenInContainer, reports: nil),
            Look(snapshot: underSheet, reports: nil),
            Look(snapshot: onScreen, reports: .shown),
            Look(snapshot: onScreen, reports: nil),
        ]),
        Scenario(name: "pushed over, then back: covered, shown", looks: [
            Look(snapshot: onScreenInContainer, reports: .shown),
            Look(snapshot: offScreenInContainer, reports: .covered),
            Look(snapshot: offScreenInContainer, reports: nil),
            Look(snapshot: onScreenInContainer, reports: .shown),
        ]),
        Scenario(name: "popped: out of the window and of its container → removed", looks: [
            Look(snapshot: onScreenInContainer, reports: .shown),
            Look(snapshot: loadedAlone, reports: .removed),
            Look(snapshot: loadedAlone, reports: nil),
        ]),
        Scenario(name: "pushed over, then popped with the screen above it → covered, removed", looks: [
            Look(snapshot: onScreenInContainer, reports: .shown),
            Look(snapshot: offScreenInContainer, reports: .covered),
            Look(snapshot: loadedAlone, reports: .removed),
        ]),
        Scenario(name: "another tab selected, then this one again: covered, shown", looks: [
            Look(snapshot: onScreenInContainer, reports: .shown),
            Look(snapshot: offScreenInContainer, reports: .covered),
            Look(snapshot: onScreenInContainer, reports: .shown),
        ]),
        Scenario(name: "a sheet that keeps it in the window: covered, then shown when it goes", looks: [
            Look(snapshot: onScreen, reports: .shown),
            Look(snapshot: underSheet, reports: .covered),
            Look(snapshot: onScreen, reports: .shown),
        ]),
        Scenario(name: "a full-screen modal over it: covered, then shown when dismissed", looks: [
            Look(snapshot: onScreen, reports: .shown),
            Look(snapshot: underFullScreenModal, reports: .covered),
            Look(snapshot: onScreen, reports: .shown),
        ]),
        Scenario(name: "presented, then dismissed → removed", looks: [
            Look(snapshot: presentedOnScreen, reports: .shown),
            Look(snapshot: loadedAlone, reports: .removed),
        ]),
        Scenario(name: "presented, with a full-screen modal over it: covered (still presented)", looks: [
            Look(snapshot: presentedOnScreen, reports: .shown),
            Look(snapshot: presentedOffScreen, reports: .covered),
            Look(snapshot: presentedOnScreen, reports: .shown),
        ]),
        Scenario(name: "its window's root replaced → removed", looks: [
            Look(snapshot: onScreen, reports: .shown),
            Look(snapshot: loadedAlone, reports: .removed),
        ]),
        Scenario(name: "a removed view reports nothing until it is shown again", looks: [
            Look(snapshot: onScreen, reports: .shown),
            Look(snapshot: loadedAlone, reports: .removed),
            Look(snapshot: offScreenInContainer, reports: nil),
            Look(snapshot: underSheet, reports: nil),
            Look(snapshot: onScreenInContainer, reports: .shown),
        ]),
    ]

    @Test("each look reports what UIKit's navigation means", arguments: scenarios)
    func scenario(_ scenario: Scenario) {
        var last: ViewAppearance?
        for (index, look) in scenario.looks.enumerated() {
            let reported = look.snapshot.next(after: last)
            #expect(reported == look.reports, "look \(index): \(look.snapshot)")
            if let reported { last = reported }
        }
    }

    @Test("shown means in a window, loaded, and under no presented view controller")
    func shown() {
        #expect(Self.onScreen.isShown)
        #expect(Self.presentedOnScreen.isShown)
        #expect(!Self.underSheet.isShown)
        #expect(!Self.offScreenInContainer.isShown)
        #expect(!Self.notLoaded.isShown)
    }
}
