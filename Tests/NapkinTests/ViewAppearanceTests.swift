import Napkin
import NapkinTrace
import Testing
import TestSupport

/// Views reporting where they are (``ViewControllable/reportAppearance(_:)``),
/// recorded from real napkin trees with ``TraceRecorder``, and the two view
/// rules run on the recordings: the back-navigation leak
/// (`view-gone-still-attached`) and its opposite (`view-shown-after-detach`)
/// are found; covered screens (pushed over, modal over, another tab, hidden
/// and shown again) never are.
///
/// The view layer here is a small headless navigation stack that reports
/// what UIKit's appearance callbacks would. Bug shapes poll until their
/// finding appears (short grace periods); clean flows are analysed as if
/// the app then stayed idle past long grace periods (no waiting, so a busy
/// machine cannot make a slow step look like a leak). Only the view rules'
/// verdicts are asserted (the other rules have their own suites).
@Suite("View appearance, recorded")
@MainActor
struct ViewAppearanceTests {
    static let grace: Duration = .milliseconds(300)

    // MARK: - The trace

    @Test("a traced router's view reports are recorded as view events, a repeated appearance once")
    func viewEventsRecorded() async throws {
        let recorder = TraceRecorder(app: "views")
        var screen: ScreenRouter?
        let root = await recorder.record { () async -> NavigationRootRouter in
            let root = NavigationRootRouter()
            await root.launch()
            screen = ScreenRouter()
            await root.attachChild(screen!)
            root.navigation.push(screen!.viewControllable)
            screen!.viewControllable.reportAppearance(.shown) // UIKit may call viewDidAppear twice
            root.navigation.pop(screen!.viewControllable)
            await root.detachChild(screen!)
            return root
        }
        let id = try #require(RecordedTrace(recorder).routerIDs("ScreenRouter").first)
        let views = recorder.eventsAsRecorded.compactMap { event -> ViewAppearance? in
            if case .view(let router, let appearance) = event.kind, router == id { return appearance }
            return nil
        }
        #expect(views == [.shown, .removed])
        withExtendedLifetime(root) {}
    }

    @Test("reports of an untraced view change nothing and record nothing")
    func untracedViewIsSilent() async {
        let screen = ScreenRouter() // created outside any recording: untraced
        screen.viewControllable.reportAppearance(.shown)
        screen.viewControllable.reportAppearance(.removed)
        let recorder = TraceRecorder(app: "untraced")
        recorder.record {
            ScreenView().reportAppearance(.shown) // a view without a router
        }
        #expect(!recorder.eventsAsRecorded.contains { $0.kind.name == .view })
    }

    @Test("an untraced child adopted by a traced parent reports its view from then on")
    func adoptedViewReports() async throws {
        let screen = ScreenRouter() // untraced
        let recorder = TraceRecorder(app: "adopt")
        let root = await recorder.record { () async -> NavigationRootRouter in
            let root = NavigationRootRouter()
            await root.launch()
            return root
        }
        await root.attachChild(screen) // adopts it into the recording
        root.navigation.push(screen.viewControllable)
        let id = try #require(RecordedTrace(recorder).routerIDs("ScreenRouter").first)
        #expect(RecordedTrace(recorder).contains(.view(router: id, appearance: .shown)))
        await root.detachChild(screen)
    }

    // MARK: - The back-navigation leak

    @Test("pop without detach (a swipe back nobody handles) → view-gone-still-attached, with the attach and the removal")
    func popWithoutDetach() async throws {
        let flow = await Flow.start("pop")
        let screen = ScreenRouter()
        await flow.root.attachChild(screen)
        flow.root.navigation.push(screen.viewControllable)
        flow.root.navigation.pop(screen.viewControllable) // nobody detaches it
        let trace = RecordedTrace(flow.recorder)
        let id = try #require(trace.routerIDs("ScreenRouter").first)
        let rootID = try #require(trace.routerIDs("NavigationRootRouter").first)
        let report = try await flow.findings(until: .viewGoneStillAttached)
        let finding = try #require(report.findings(.viewGoneStillAttached).first)
        #expect(report.findings(.viewGoneStillAttached).count == 1)
        #expect(finding.id == id && finding.type == "ScreenRouter" && finding.subject == .router)
        #expect(finding.seqs == [trace.seq(of: .attach(parent: rootID, child: id)),
                                 trace.seq(of: .view(router: id, appearance: .removed))])
        #expect(finding.message.contains("NavigationRootRouter#\(rootID)"), "\(finding)")
        await flow.root.detachChild(screen)
    }

    @Test("pop, then detach in the parent → clean")
    func popWithDetach() async throws {
        let flow = await Flow.start("pop-detach")
        var screen: ScreenRouter? = ScreenRouter()
        await flow.root.attachChild(screen!)
        flow.root.navigation.push(screen!.viewControllable)
        flow.root.navigation.pop(screen!.viewControllable)
        await flow.root.detachChild(screen!)
        screen = nil
        try await flow.expectNoViewFindings()
    }

    @Test("a screen pushed over another: the lower one is covered, not gone → clean while both stay attached")
    func pushOver() async throws {
        let flow = await Flow.start("push-over")
        let lower = ScreenRouter(), upper = ScreenRouter()
        await flow.root.attachChild(lower)
        flow.root.navigation.push(lower.viewControllable)
        await flow.root.attachChild(upper)
        flow.root.navigation.push(upper.viewControllable)
        try await flow.expectNoViewFindings()
        let id = try #require(RecordedTrace(flow.recorder).routerIDs("ScreenRouter").first)
        #expect(RecordedTrace(flow.recorder).contains(.view(router: id, appearance: .covered)))
        await flow.root.detachChild(upper)
        await flow.root.detachChild(lower)
    }

    @Test("a modal over a screen covers it → clean")
    func modalOver() async throws {
        let flow = await Flow.start("modal")
        let screen = ScreenRouter(), sheet = ScreenRouter()
        await flow.root.attachChild(screen)
        flow.root.navigation.push(screen.viewControllable)
        await flow.root.attachChild(sheet)
        flow.root.navigation.present(sheet.viewControllable)
        try await flow.expectNoViewFindings()
        flow.root.navigation.dismiss(sheet.viewControllable)
        await flow.root.detachChild(sheet)
        try await flow.expectNoViewFindings()
        await flow.root.detachChild(screen)
    }

    @Test("a tab switch covers the other tab, and switching back shows it → clean")
    func tabSwitch() async throws {
        let flow = await Flow.start("tabs")
        let first = ScreenRouter(), second = ScreenRouter()
        await flow.root.attachChild(first)
        await flow.root.attachChild(second)
        flow.root.navigation.showTabs([first.viewControllable, second.viewControllable])
        flow.root.navigation.selectTab(1)
        try await flow.expectNoViewFindings()
        flow.root.navigation.selectTab(0)
        try await flow.expectNoViewFindings()
        await flow.root.detachChild(first)
        await flow.root.detachChild(second)
    }

    @Test("a view hidden and shown again → clean")
    func hiddenAndShown() async throws {
        let flow = await Flow.start("hidden")
        let screen = ScreenRouter()
        await flow.root.attachChild(screen)
        flow.root.navigation.push(screen.viewControllable)
        screen.viewControllable.reportAppearance(.covered)
        try await flow.expectNoViewFindings()
        screen.viewControllable.reportAppearance(.shown)
        try await flow.expectNoViewFindings()
        await flow.root.detachChild(screen)
    }

    // MARK: - The view left on screen

    @Test("detach with the view left on screen (the router kept) → view-shown-after-detach")
    func detachLeavingViewKept() async throws {
        let flow = await Flow.start("left-on-screen")
        let screen = ScreenRouter()
        await flow.root.attachChild(screen)
        flow.root.navigation.push(screen.viewControllable)
        await flow.root.detachChild(screen) // the routing method forgot to pop the view
        let trace = RecordedTrace(flow.recorder)
        let id = try #require(trace.routerIDs("ScreenRouter").first)
        let rootID = try #require(trace.routerIDs("NavigationRootRouter").first)
        let report = try await flow.findings(until: .viewShownAfterDetach)
        let finding = try #require(report.findings(.viewShownAfterDetach).first)
        #expect(finding.id == id && finding.seqs == [trace.seq(of: .detach(parent: rootID, child: id))])
        #expect(finding.message.contains("still shown"), "\(finding)")
        withExtendedLifetime(screen) {}
    }

    @Test("detach and drop the router with its view left on screen → view-shown-after-detach about the gone router")
    func detachLeavingViewReleased() async throws {
        let flow = await Flow.start("left-released")
        var screen: ScreenRouter? = ScreenRouter()
        await flow.root.attachChild(screen!)
        let view = screen!.viewControllable
        flow.root.navigation.push(view)
        await flow.root.detachChild(screen!)
        screen = nil // the router goes; its view stays on the stack
        let id = try #require(RecordedTrace(flow.recorder).routerIDs("ScreenRouter").first)
        #expect(RecordedTrace(flow.recorder).contains(.deallocated(id: id)))
        let report = try await flow.findings(until: .viewShownAfterDetach)
        #expect(report.findings(.viewShownAfterDetach).map(\.id) == [id])
        // The view still reports after its router's deinit: a pop now is recorded.
        flow.root.navigation.pop(view)
        #expect(RecordedTrace(flow.recorder).contains(.view(router: id, appearance: .removed)))
    }

    @Test("detach, drop the router, and the view goes after the router's deinit (an animated pop) → clean")
    func viewGoesAfterRouterDeinit() async throws {
        let flow = await Flow.start("animated-pop")
        var screen: ScreenRouter? = ScreenRouter()
        await flow.root.attachChild(screen!)
        let view = screen!.viewControllable
        flow.root.navigation.push(view)
        await flow.root.detachChild(screen!)
        screen = nil
        flow.root.navigation.pop(view) // the pop animation ends after the router's deinit
        try await flow.expectNoViewFindings()
    }
}

// MARK: - A recorded flow

/// A recording with a launched root whose view is on screen.
@MainActor
private struct Flow {
    let recorder: TraceRecorder
    let root: NavigationRootRouter

    /// Starts recording `app`: a root launched and its view shown.
    static func start(_ app: String) async -> Flow {
        let recorder = TraceRecorder(app: app)
        let root = await recorder.record { () async -> NavigationRootRouter in
            let root = NavigationRootRouter()
            await root.launch()
            root.navigation.reportAppearance(.shown)
            return root
        }
        return Flow(recorder: recorder, root: root)
    }

    /// The report once a finding of `rule` appears (polling for up to `hangBound`).
    func findings(until rule: Finding.Rule) async throws -> AnalysisReport {
        let grace = ViewAppearanceTests.grace
        let deadline = ContinuousClock.now + hangBound
        while await recorder.analyzeOnOwnThread(grace: grace, viewGrace: grace).findings(rule).isEmpty {
            try #require(ContinuousClock.now < deadline, "no \(rule) finding: \(recorder.analyze(grace: grace, viewGrace: grace))")
            try await Task.sleep(for: .milliseconds(20))
        }
        return await recorder.analyzeOnOwnThread(grace: grace, viewGrace: grace)
    }

    /// Expects neither view rule (nor `duplicate-child`) to find anything
    /// in what was recorded so far, even if the app stayed as it is now for
    /// longer than both grace periods: the analysis is run to 31 s of trace
    /// time past the last event, with grace periods of 30 s, so every check
    /// is decided and a busy machine (a slow step of the flow) cannot turn a
    /// clean flow into a finding.
    func expectNoViewFindings(sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let events = recorder.eventsAsRecorded
        var analyzer = TraceAnalyzer(options: .init(grace: 30_000_000_000, viewGrace: 30_000_000_000))
        for event in events { analyzer.consume(event) }
        analyzer.advance(to: (events.last?.time ?? 0) + 31_000_000_000)
        analyzer.finish()
        let found = analyzer.findings.filter { [.viewGoneStillAttached, .viewShownAfterDetach, .duplicateChild].contains($0.rule) }
        #expect(found.isEmpty, "\(found)\n\(recorder.ndjson)", sourceLocation: sourceLocation)
    }
}

// MARK: - Napkins and a headless view layer for these tests

/// A headless container that reports what UIKit's appearance callbacks
/// would: a navigation stack (push covers, pop removes and shows again), a
/// modal over the stack, and tabs (the selected one shown, the others covered).
@MainActor
final class NavigationView: HeadlessViewControllable {
    private var stack: [any ViewControllable] = []
    private var modal: (any ViewControllable)?
    private var tabs: [any ViewControllable] = []

    func push(_ view: any ViewControllable) {
        stack.last?.reportAppearance(.covered)
        stack.append(view)
        view.reportAppearance(.shown)
    }

    func pop(_ view: any ViewControllable) {
        guard let index = stack.lastIndex(where: { $0 === view }) else { return }
        stack.remove(at: index)
        view.reportAppearance(.removed)
        if index == stack.count { stack.last?.reportAppearance(.shown) }
    }

    func present(_ view: any ViewControllable) {
        stack.last?.reportAppearance(.covered)
        modal = view
        view.reportAppearance(.shown)
    }

    func dismiss(_ view: any ViewControllable) {
        guard modal === view else { return }
        modal = nil
        view.reportAppearance(.removed)
        stack.last?.reportAppearance(.shown)
    }

    func showTabs(_ views: [any ViewControllable]) {
        tabs = views
        selectTab(0)
    }

    func selectTab(_ selected: Int) {
        for (index, view) in tabs.enumerated() where index != selected { view.reportAppearance(.covered) }
        tabs[selected].reportAppearance(.shown)
    }
}

@MainActor final class ScreenView: HeadlessViewControllable {}

@MainActor final class NavigationRootRouter: LaunchRouter<RecordedInteractor, NavigationView> {
    var navigation: NavigationView { viewController }
    convenience init() { self.init(interactor: RecordedInteractor(), viewController: NavigationView()) }
}

@MainActor final class ScreenRouter: ViewableRouter<RecordedInteractor, ScreenView> {
    convenience init() { self.init(interactor: RecordedInteractor(), viewController: ScreenView()) }
}
