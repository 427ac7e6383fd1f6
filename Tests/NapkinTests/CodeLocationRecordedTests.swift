import Napkin
import NapkinTrace
import Testing
import TestSupport

/// Findings name the line of the app's code to look at: the framework
/// records the line that built a router (from the call stack, see
/// `CreationSiteRecordedTests`) and `#fileID` and `#line` of `attachChild`,
/// `detachChild` and `task {}`, and each bug shape's finding points at the
/// call that caused it. The lines are taken with `#line` next to each call.
@Suite("Code locations, recorded")
@MainActor
struct CodeLocationRecordedTests {
    static let grace: Duration = .seconds(2)

    /// This file as `#fileID` names it.
    static let file = "NapkinTests/CodeLocationRecordedTests.swift"

    static func here(_ line: UInt) -> CodeLocation { CodeLocation(fileID: file, line: line) }

    @Test("attach, detach, task start and router creation carry the caller's #fileID and #line")
    func eventsCarryTheCaller() async throws {
        let recorder = TraceRecorder(app: "src")
        var lines: [String: UInt] = [:]
        var child: LocatedRouter?
        let root = await recorder.record { () async -> RecordedRootRouter in
            let root = RecordedRootRouter()
            await root.launch()
            lines["created"] = #line; child = LocatedRouter()
            lines["attach"] = #line; await root.attachChild(child!)
            lines["task"] = #line; await child!.interactor.task(named: "work") {}
            lines["detach"] = #line; await root.detachChild(child!)
            return root
        }
        let trace = RecordedTrace(recorder)
        let id = try #require(trace.routerIDs("LocatedRouter").first)
        let events = await recorder.eventsWithLines()   // the lines worked out off the main actor
        func location(where match: (TraceEvent.Kind) -> Bool) -> CodeLocation? {
            events.first { match($0.kind) }?.location
        }
        #expect(location { if case .routerCreated(id, _, _, _) = $0 { true } else { false } } == Self.here(lines["created"]!))
        #expect(location { if case .attach(_, id) = $0 { true } else { false } } == Self.here(lines["attach"]!))
        #expect(location { if case .detach(_, id) = $0 { true } else { false } } == Self.here(lines["detach"]!))
        #expect(location { if case .taskStart(_, _, "work") = $0 { true } else { false } } == Self.here(lines["task"]!))
        // Events the framework does not locate have no location.
        #expect(events.filter { [.activate, .deactivate, .load, .launch].contains($0.kind.name) }.allSatisfy { $0.location == nil })
        withExtendedLifetime(root) {}
    }

    @Test("a router kept alive after its detach → not-deallocated points at the detach, then the attach, then the line that built it")
    func notDeallocatedPointsAtTheDetach() async throws {
        let recorder = TraceRecorder(app: "cycle")
        var checkout: RecordedCheckoutRouter?
        var lines: [String: UInt] = [:]
        let root = await recorder.record { () async -> RecordedRootRouter in
            let root = RecordedRootRouter()
            await root.launch()
            lines["created"] = #line; checkout = RecordedCheckoutRouter()
            await checkout!.interactor.hold(checkout!) // a strong reference back: a retain cycle
            lines["attach"] = #line; await root.attachChild(checkout!)
            return root
        }
        lines["detach"] = #line; await root.detachChild(checkout!)
        let interactor = checkout!.interactor
        checkout = nil
        let finding = try await firstFinding(recorder, .notDeallocated)
        #expect(finding.locations == [Finding.CodeReference(.detached, Self.here(lines["detach"]!)),
                                      Finding.CodeReference(.attached, Self.here(lines["attach"]!)),
                                      Finding.CodeReference(.created, Self.here(lines["created"]!))])
        await interactor.release()
    }

    @Test("a child kept by a service after its parent went → undetached-child points at the attach")
    func undetachedChildPointsAtTheAttach() async throws {
        let recorder = TraceRecorder(app: "service")
        let cache = RecordedRouterCache()
        var host: RecordedHostRouter?
        var attachLine: UInt = 0
        let root = await recorder.record { () async -> RecordedRootRouter in
            let root = RecordedRootRouter()
            await root.launch()
            host = RecordedHostRouter()
            await root.attachChild(host!)
            let child = RecordedCachedRouter()
            cache.keep(child)
            attachLine = #line; await host!.attachChild(child)
            return root
        }
        await root.detachChild(host!)
        host = nil // the host goes; its child, still attached to it, is kept by the cache
        let finding = try await firstFinding(recorder, .undetachedChild)
        #expect(finding.locations.first == Finding.CodeReference(.attached, Self.here(attachLine)))
        cache.clear()
    }

    @Test("a screen popped without a detach → view-gone-still-attached points at the attach (the routing method to fix)")
    func viewGonePointsAtTheAttach() async throws {
        let recorder = TraceRecorder(app: "pop")
        var screen: ScreenRouter?
        var attachLine: UInt = 0
        let root = await recorder.record { () async -> NavigationRootRouter in
            let root = NavigationRootRouter()
            await root.launch()
            screen = ScreenRouter()
            attachLine = #line; await root.attachChild(screen!)
            root.navigation.push(screen!.viewControllable)
            root.navigation.pop(screen!.viewControllable)
            return root
        }
        let finding = try await firstFinding(recorder, .viewGoneStillAttached)
        #expect(finding.locations.first == Finding.CodeReference(.attached, Self.here(attachLine)))
        await root.detachChild(screen!)
    }

    @Test("a task started while inactive points at its start; a double attach at the second attach call",
          .routerMisuseWarns)
    func taskAndMisusePointAtTheCall() async throws {
        let recorder = TraceRecorder(app: "calls")
        var lines: [String: UInt] = [:]
        var menu: RecordedMenuRouter?
        let root = await recorder.record { () async -> RecordedRootRouter in
            let root = RecordedRootRouter()
            await root.launch()
            menu = RecordedMenuRouter()
            lines["task"] = #line; await menu!.interactor.task(named: "early") { try? await Task.sleep(for: .milliseconds(1)) }
            await root.attachChild(menu!)
            lines["again"] = #line; await root.attachChild(menu!)
            return root
        }
        let report = await recorder.analyzeOnOwnThread(grace: Self.grace)
        let early = try #require(report.findings(.taskStartedInactive).first, "\(report)")
        #expect(early.locations == [Finding.CodeReference(.started, Self.here(lines["task"]!))])
        let double = try #require(report.findings(.doubleAttach).first, "\(report)")
        #expect(double.locations.first == Finding.CodeReference(.call, Self.here(lines["again"]!)))
        await root.detachChild(menu!)
    }

    /// The first finding of `rule` once it appears (polling for up to `hangBound`).
    private func firstFinding(_ recorder: TraceRecorder, _ rule: Finding.Rule) async throws -> Finding {
        let deadline = ContinuousClock.now + hangBound
        while true {
            if let finding = await recorder.analyzeOnOwnThread(grace: Self.grace, viewGrace: Self.grace).findings(rule).first { return finding }
            try #require(ContinuousClock.now < deadline, "no \(rule) finding: \(recorder.analyze(grace: Self.grace))")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}

/// A router whose class declares its initializer: its creation is located
/// at the line that calls it, not at its `super.init` call.
@MainActor final class LocatedRouter: Router<RecordedInteractor> {
    init() {
        super.init(interactor: RecordedInteractor())
    }
}
