@testable import NapkinTrace
import Testing
import TestSupport

/// Detection alone (the tracer's sink keeps nothing): the writer works out
/// creation lines as their records come, as for a trace written, so that a
/// finding made just before the process exits needs no symbolication in
/// the 500 ms the exit gives its report (a test's recording, by contrast,
/// leaves them unread until a finding names them:
/// `DeferredLocationAnalysisTests`).
@Suite("Detection alone: creation lines worked out as records come")
struct DetectionOnlyLocationsTests {
    @Test("a line is worked out once, before any finding; the finding then names it")
    func asRecordsCome() async throws {
        let answers = DeferredLocationAnalysisTests.Answers()
        let received = Locked<[Finding]>([])
        let settings = DetectorSettings(mode: .quiet, maxAlive: ["LoggedInRouter": 2]) { finding in
            received.withLock { $0.append(finding) }
        }
        let tracer = Tracer(sink: DiscardingSink(), app: "detection-only", detector: Detector(settings: settings))
        defer { tracer.shutdown(reason: "test") }
        // Every creation from one call stack: one deferred answer, as `CreationSite` hands out.
        let line = answers.deferred(CodeLocation(fileID: "App/LoggedInBuilder.swift", line: 22))
        func make() -> NodeID {
            let interactor = tracer.nextID(), router = tracer.nextID()
            tracer.emit(.interactorCreated(id: interactor, type: "LoggedInInteractor"))
            tracer.emit(.routerCreated(id: router, type: "LoggedInRouter", interactor: interactor,
                                       interactorType: "LoggedInInteractor"), at: line)
            return router
        }
        // Made and let go, one at a time, many times: within the budget.
        for _ in 0..<50 {
            let router = make()
            tracer.emit(.deallocated(id: router))
            tracer.emit(.deallocated(id: router - 1))
        }
        tracer.flush()
        #expect(answers.count == 1, "worked out as the records came, once: \(answers.count)")
        // Three alive at once: over the budget of 2.
        let alive = (0..<3).map { _ in make() }
        tracer.flush()
        #expect(await waitUntil { !received.withLock { $0 }.isEmpty }, "the budget was not reported")
        // Findings are delivered in order, on the detector's thread: the first
        // is the third router's, so the fifty made one at a time before gave none.
        let finding = try #require(received.withLock { $0 }.first)
        #expect(finding.rule == .overBudget && finding.id == alive[2], "\(finding)")
        #expect(finding.message.hasSuffix("created at App/LoggedInBuilder.swift:22 (3)"), "\(finding)")
        #expect(answers.count == 1)
    }
}
