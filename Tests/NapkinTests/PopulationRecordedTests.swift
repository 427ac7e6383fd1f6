import Napkin
import NapkinTrace
import Testing
import TestSupport

/// `growing-population` and `over-budget` on traces recorded from real napkin
/// objects with ``TraceRecorder``: the leaks no tree rule sees (nothing is
/// attached, or what is kept left the tree long ago). Each flow runs four
/// times, each run marked as a repeated test marks it (`test started: NAME`,
/// the default rounds), and the clean twin of each flow is clean.
@Suite("Populations of recorded napkins")
@MainActor
struct PopulationRecordedTests {
    static let rounds = 4

    /// Runs `round` ``rounds`` times inside a recording, each run marked as a test start.
    private func record(_ name: String, _ round: @MainActor () async -> Void) async -> TraceRecorder {
        let recorder = TraceRecorder(app: name)
        await recorder.record {
            for _ in 0..<Self.rounds {
                NapkinTrace.testStarted(name)
                await round()
                NapkinTrace.testEnded(name)
            }
        }
        return recorder
    }

    @Test("a builder that caches every router it builds (never attached) → growing-population, at the builder's line; with a capacity of 1: clean")
    func builderCache() async throws {
        for capacity in [Int.max, 1] {
            let builder = PrefetchingBuilder(capacity: capacity)
            let recorder = await record("prefetch()") { _ = builder.build() }
            let report = await recorder.analyzeOnOwnThread()
            if capacity == 1 {
                #expect(report.isClean, "\(report)")
                continue
            }
            #expect(report.ruleAndSubjectTypes == ["growing-population PrefetchedRouter"], "\(report)")
            let finding = try #require(report.findings.first)
            #expect(finding.message.contains("0, 1, 2, 3, 4"), "\(finding.message)")
            #expect(finding.locations.map(\.description) == ["NapkinTests/PopulationRecordedTests.swift:\(PrefetchingBuilder.buildLine) (created)"],
                    "\(finding.locations)")
            #expect(finding.tests.isEmpty == false, "the test it happened in")
            withExtendedLifetime(builder) {}
        }
    }

    @Test("a service that keeps each interactor it is handed, its router dropped → growing-population interactor (and, once a grace period passed, not-deallocated for each); a service that lets go: clean")
    func serviceKeepsInteractors() async throws {
        for keeps in [true, false] {
            let service = InteractorService(keeps: keeps)
            let recorder = await record("interactors()") {
                let router = RecordedPlainRouter()
                service.hold(router.interactor)
            }
            let report = await recorder.analyzeOnOwnThread()
            if keeps {
                // The population's growth is decided at the end; each interactor outliving its
                // router is also not-deallocated once the grace period has passed (machine-dependent).
                #expect(report.ruleAndSubjectTypes.filter { $0 != "not-deallocated RecordedInteractor" }
                            == ["growing-population RecordedInteractor"], "\(report)")
            } else {
                #expect(await waitUntil { recorder.analyze().isClean }, "\(recorder.analyze())")
            }
            withExtendedLifetime(service) {}
        }
    }

    @Test("a service interactor that starts a refresh task per visit, never ended → growing-population of its 'refresh' tasks; ended each visit: clean")
    func tasksPileUp() async throws {
        for piles in [true, false] {
            let gate = Gate()
            var root: RecordedRootRouter?
            let service = RefreshingRouter()
            let recorder = await record(piles ? "refresh()" : "refresh-clean()") {
                if root == nil {
                    root = RecordedRootRouter()
                    await root!.launch()
                    await root!.attachChild(service)
                }
                await service.interactor.refresh(waitingOn: piles ? gate : nil)
            }
            if piles {
                let report = await recorder.analyzeOnOwnThread()
                #expect(report.findings.map { "\($0.rule) \($0.subjectName.split(separator: "#")[0]) \($0.label ?? "")" }
                            == ["growing-population RefreshInteractor refresh"], "\(report)")
                #expect(report.findings.first?.subject == .task)
            } else {
                #expect(await waitUntil { recorder.analyze().isClean }, "\(recorder.analyze())")
            }
            gate.open()
            await root?.detachChild(service)
            root = nil
        }
    }

    @Test("two LoggedIn routers alive at once under a budget of 1 → over-budget at the second's creation; the trait's budget reaches the analysis")
    func budget() async throws {
        var kept: [RecordedPlainRouter] = []
        let recorder = TraceRecorder(app: "budget")
        recorder.record {
            kept.append(SingletonRouter())
            kept.append(SingletonRouter())
        }
        let report = await recorder.analyzeOnOwnThread(maxAlive: ["SingletonRouter": 1])
        #expect(report.ruleAndSubjectTypes == ["over-budget SingletonRouter"], "\(report)")
        #expect(recorder.analyze(maxAlive: ["SingletonRouter": 2]).isClean)
        #expect(recorder.analyze().isClean)
        withExtendedLifetime(kept) {}
    }
}

extension AnalysisReport {
    /// `rule Type` for each finding, in order.
    var ruleAndSubjectTypes: [String] { findings.map { "\($0.rule) \($0.type)" } }
}

// MARK: - Napkins and services for these tests

@MainActor final class PrefetchedRouter: RecordedPlainRouter {}
@MainActor final class SingletonRouter: RecordedPlainRouter {}

/// Builds a router "for later" and keeps the last `capacity` it built.
@MainActor final class PrefetchingBuilder {
    /// The line of ``build()`` that creates the router (its creation line in the trace).
    static let buildLine = #line + 7
    private let capacity: Int
    private var cache: [PrefetchedRouter] = []

    init(capacity: Int) { self.capacity = capacity }

    func build() -> PrefetchedRouter {
        let router = PrefetchedRouter(interactor: RecordedInteractor())
        cache.append(router)
        if cache.count > capacity { cache.removeFirst() }
        return router
    }
}

/// Keeps every interactor it is handed (or none).
@MainActor final class InteractorService {
    private let keeps: Bool
    private var held: [RecordedInteractor] = []

    init(keeps: Bool) { self.keeps = keeps }

    func hold(_ interactor: RecordedInteractor) {
        if keeps { held.append(interactor) }
    }
}

/// Starts a bound task "refresh" per call, that waits on `gate` (never, with no gate).
final actor RefreshInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func refresh(waitingOn gate: Gate?) async {
        let started = Gate()
        task(named: "refresh") {
            started.open()
            if let gate { await gate.wait() }
        }
        await started.wait()
    }
}

@MainActor final class RefreshingRouter: Router<RefreshInteractor> {
    convenience init() { self.init(interactor: RefreshInteractor()) }
}
