import Napkin
@testable import NapkinTesting
import NapkinTrace
import Testing

/// What the trait's own run (``LeakCheckRun``, recorded in memory) spends on
/// a test: a clean test runs no retainer search and works out none of its
/// creation lines (docs/testing.md: a line is read from the binary's debug
/// information only for a finding that names it); a leaking one searches
/// once and works out the lines its finding names. The routers are made
/// here, from call stacks no other test has, so no other test works out
/// their lines first.
@Suite("LeakCheckRun: the work a verdict does")
@MainActor
struct CleanRunWorkTests {
    /// The creation records' locations in `recorder`, left as recorded.
    static func creationLocations(_ recorder: TraceRecorder) -> [CodeLocation?] {
        recorder.eventsAsRecorded.compactMap { event -> CodeLocation?? in
            switch event.kind {
            case .routerCreated, .interactorCreated: .some(event.location)
            default: nil
            }
        }
    }

    @Test("a clean test: no verdict, no retainer search, every creation line left unread")
    func clean() async throws {
        let run = LeakCheckRun(.napkinLeakCheck(grace: .seconds(2)), testName: "Suite/clean()", recordingName: "clean()")
        await run.record {
            let root = RootRouter()
            await root.launch()
            let child = PlainRouter()
            await root.attachChild(child)
            await root.detachChild(child)
        }
        #expect(try await run.verdict() == nil)
        let recorder = try #require(run.recorder)
        #expect(recorder.retainerSearchesRun == 0)
        let locations = Self.creationLocations(recorder)
        // Two routers and their interactors, each created at a line this run did not need.
        #expect(locations.count == 4)
        #expect(locations.allSatisfy { $0?.isDeferred == true && $0?.isWorkedOut == false }, "\(locations)")
    }

    @Test("a leaking test: one search, and the line its finding names worked out")
    func leaking() async throws {
        let run = LeakCheckRun(.napkinLeakCheck(grace: .milliseconds(100)), testName: "Suite/leaking()", recordingName: "leaking()")
        let leaked = Locked<ClingingRouter?>(nil)
        var line = 0
        await run.record {
            let root = RootRouter()
            await root.launch()
            line = #line + 1
            let child = ClingingRouter()
            await child.interactor.hold(child)
            await root.attachChild(child)
            leaked.set(child)
        }
        let verdict = try #require(try await run.verdict())
        let recorder = try #require(run.recorder)
        #expect(verdict.findings.map(\.rule) == [.undetachedChild], "\(verdict.findings)")
        #expect(recorder.retainerSearchesRun == 1)
        let child = try #require(verdict.findings.first)
        let created = try #require(recorder.eventsAsRecorded.first { event in
            if case .routerCreated(child.id, _, _, _) = event.kind { true } else { false }
        }?.location)
        #expect(created.isWorkedOut)
        #expect(created.description == "NapkinTestingTests/CleanRunWorkTests.swift:\(line)")
        await leaked.get()?.interactor.release()
    }
}
