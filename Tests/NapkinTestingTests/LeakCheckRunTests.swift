import Napkin
@testable import NapkinTesting
import NapkinTrace
import Testing
import TestSupport

/// The part the trait and the XCTest support share: the recording scope,
/// the verdict and the recorded trace. Leaks here are permanent (a retain
/// cycle, broken at the end); clean flows use a long grace period, which
/// costs nothing when everything is gone at once.
@Suite("LeakCheckRun: the check both test libraries share")
@MainActor
struct LeakCheckRunTests {
    @Test("a leak: the verdict names it, and its recorded trace says the same to napkin-inspect's analysis")
    func leak() async throws {
        let run = LeakCheckRun(.napkinLeakCheck(grace: .seconds(2)), testName: "Suite/leak()", recordingName: "leak()")
        #expect(run.records)
        let leaked = Locked<ClingingRouter?>(nil)
        await run.record {
            leaked.set(await playLeakingFlow())
        }
        let verdict = try #require(try await run.verdict())
        #expect(verdict.findings.map(\.rule) == [.undetachedChild], "\(verdict.findings)")
        #expect(verdict.findings.first?.type == "ClingingRouter")
        let (read, _) = try readAll(text: verdict.trace)
        #expect(read.errors.isEmpty, "\(read.errors)")
        let report = TraceAnalyzer.analyze(read.events, options: .init(grace: 2_000_000_000))
        #expect(report.endedCleanly, "the trace has its end record")
        #expect(report.findings.map(\.fingerprint) == verdict.findings.map(\.fingerprint))
        await leaked.get()?.interactor.release()
    }

    @Test("clean: no verdict, and nothing recorded outside the scope")
    func clean() async throws {
        let run = LeakCheckRun(.napkinLeakCheck(grace: .seconds(30), expectTeardown: true), testName: "clean", recordingName: "clean")
        var inside: ObjectIdentifier?
        await run.record {
            inside = TraceContext.recording.map(ObjectIdentifier.init)
            var root: RootRouter? = RootRouter()
            await root!.launch()
            root = nil
        }
        #expect(inside != nil)
        #expect(TraceContext.recording == nil)
        #expect(try await run.verdict() == nil)
    }

    @Test("the synchronous scope (XCTest's invokeTest): the tasks started inside inherit it")
    func synchronousScope() async {
        let run = LeakCheckRun(.napkinLeakCheck, testName: "sync", recordingName: "sync")
        var task: Task<ObjectIdentifier?, Never>?
        var inside: ObjectIdentifier?
        run.record {
            inside = TraceContext.recording.map(ObjectIdentifier.init)
            task = Task { TraceContext.recording.map(ObjectIdentifier.init) }
        }
        #expect(inside != nil)
        #expect(await task?.value == inside)
        run.end()
    }

    @Test("a failing test's trace name: the test's name, letters, digits and _ only")
    func traceFileName() {
        #expect(LeakVerdict.traceFileName(for: "leaveTheShop()") == "napkin-trace-leaveTheShop.ndjson")
        #expect(LeakVerdict.traceFileName(for: "()") == "napkin-trace.ndjson")
    }
}
