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
        // Who retains it: found while the objects lived, in the failure text
        // and in the recorded trace, which napkin-inspect reads back.
        let child = try #require(verdict.findings.first)
        let interactor = try #require(read.events.lazy.compactMap { event -> NodeID? in
            if case .routerCreated(let id, _, let interactor, _) = event.kind, id == child.id { return interactor }
            return nil
        }.first)
        let path = "ClingingRouter#\(child.id).interactor → ClingingInteractor#\(interactor).router (suspect) → ClingingRouter#\(child.id) (cycle)"
        // The test's own `leaked` holds it too: a reference the walk cannot
        // see (a local of the test), so "1 of 2", and the note says where to look.
        #expect(report.findings.first?.retainers == child.retainers)
        // Under the thread sanitizer a forked reader can hang in the sanitizer's
        // runtime (docs/detect.md): the path is the plain run's to check.
        if !runsUnderThreadSanitizer {
            #expect(child.retainers?.paths == [path])
            #expect(child.retainers?.tally == "1 of 2 strong references found")
            #expect(child.retainers?.note?.contains("1 reference not found; it can still be held by a global or static variable") == true)
            let message = try #require(verdict.messages(test: nil).first)
            #expect(message.text.contains("\n  retained by: \(path)\n  1 of 2 strong references found: Searched "), "\(message.text)")
        }
        await leaked.get()?.interactor.release()
    }

    @Test("retainers: false: no search, no path")
    func noSearch() async throws {
        let run = LeakCheckRun(.napkinLeakCheck(grace: .seconds(2), retainers: false), testName: "Suite/noSearch()", recordingName: "noSearch()")
        let leaked = Locked<ClingingRouter?>(nil)
        await run.record {
            leaked.set(await playLeakingFlow())
        }
        let verdict = try #require(try await run.verdict())
        #expect(verdict.findings.map(\.rule) == [.undetachedChild])
        #expect(verdict.findings.first?.retainers == nil)
        #expect(!verdict.trace.contains("\"retained\""))
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
