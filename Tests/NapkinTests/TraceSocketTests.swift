import Foundation
import Napkin
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// `NAPKIN_TRACE=tcp:` and `unix:` with real napkins: the TraceProbe app
/// sending its trace to an inspector stand-in, exiting with no inspector,
/// and a tree of real routers whose inspector comes late. Everything is on
/// loopback or a unix socket in a temporary directory; waits only guard
/// against hangs.
@Suite("Trace over a socket")
struct TraceSocketTests {
    /// Generous: under a full parallel test run the main actor can be busy,
    /// and a check decided early on a loaded machine is not what these tests are about.
    static let analysis = TraceAnalyzer.Options(grace: 30_000_000_000)

    /// Reads `bytes` as a trace: its integrity (with the model's) and the analysis of its last session.
    static func read(_ bytes: [UInt8]) throws -> (events: [TraceEvent], integrity: TraceIntegrity, analyzer: TraceAnalyzer) {
        let (result, reader) = try readAll(bytes: bytes)
        var analyzer = TraceAnalyzer(options: analysis)
        for event in result.events { analyzer.consume(event) }
        analyzer.finish()
        let events = result.events
        return (events, reader.integrity.including(analyzer.state), analyzer)
    }

    @Test("the TraceProbe app sends its whole trace to a TCP listener: clean, with no findings, ending at exit")
    func probeToListener() async throws {
        let inspector = try TestListener.tcp()
        defer { inspector.stop() }
        let run = try await Probe.run(["exit", "3"], environment: ["NAPKIN_TRACE": inspector.address.description])
        #expect(run.exitStatus == 0 && !run.timedOut, "\(run.summary)")
        #expect(run.napkinLines.isEmpty, "\(run.summary)")
        #expect(run.stdout.isEmpty)
        try #require(await waitUntil { inspector.hasEnded(0) })
        #expect(inspector.connectionCount == 1)
        let (events, integrity, analyzer) = try Self.read(inspector.bytes(of: 0))
        #expect(integrity.isUsable, "\(integrity.problems)")
        #expect(integrity.sessions == 1 && integrity.resumedParts == 0)
        #expect(analyzer.findings.isEmpty, "\(analyzer.findings)")
        guard case .sessionStart(let info) = events.first?.kind else {
            Issue.record("no session record first")
            return
        }
        #expect(info.app == "TraceProbe" && info.part == 1)
        #expect(events.last?.kind == .sessionEnd(reason: "exit"))
        let marks = events.compactMap { if case .mark(let text) = $0.kind { text } else { nil } }
        #expect(marks == ["home shown", "profile closed", "m 1", "m 2", "m 3"])
    }

    @Test("with no inspector the app runs and exits as usual, and says so once on standard error", arguments: ["tcp", "unix"])
    func exitWithoutInspector(kind: String) async throws {
        let scratch = try ScratchDirectory("trace-tests")
        defer { scratch.remove() }
        let directory = scratch.path
        let value: String
        var refusing: RefusingPort?
        defer { refusing?.close() }
        if kind == "tcp" {
            // A port held, and never listened on, for the whole run: nobody
            // listens there. (A port merely found free was taken by another
            // test's listener on a busy machine, and the app connected to it.)
            refusing = try RefusingPort()
            value = "tcp:127.0.0.1:\(refusing!.port)"
        } else {
            value = "unix:" + directory + "/nobody.sock"
        }
        let run = try await Probe.run(["exit", "1000"], environment: ["NAPKIN_TRACE": value], timeout: .seconds(60))
        #expect(!run.timedOut, "the app hung at exit\n\(run.summary)")
        #expect(run.exitStatus == 0, "\(run.summary)")
        let lines = run.napkinLines
        // One line if the first attempt failed while the app ran (it may exit first), one at exit.
        #expect(lines.allSatisfy { $0.hasPrefix("napkin: no trace inspector at \(value) ") }, "\(run.summary)")
        #expect((1...2).contains(lines.count), "\(run.summary)")
        #expect(lines.last?.hasSuffix("events were not delivered") == true, "\(run.summary)")
        #expect(run.stderrLines.count == lines.count, "\(run.summary)")
    }

    @Test("real routers, inspector late: part 2 has the whole live tree, clean and without findings, and what follows")
    @MainActor
    func realRoutersLateInspector() async throws {
        // Short: a unix socket path must fit in about 100 bytes.
        let scratch = try ScratchDirectory(short: true)
        defer { scratch.remove() }
        let path = scratch.file("i.sock")
        let sink = SocketTraceSink(address: .unix(path: path),
                                   settings: .init(firstBackoffMS: 2, maxBackoffMS: 20, backlogCapacity: 16))
        let tracer = Tracer(sink: sink, app: "routers", flushInterval: .milliseconds(2))
        TraceContext.beginRecording()
        defer { TraceContext.endRecording() }

        // No inspector yet: the tree is built, a task runs, many marks overflow the backlog.
        let root = await TraceContext.$recording.withValue(tracer) { () async -> TraceTestRootRouter in
            let root = TraceTestRootRouter()
            await root.launch()
            let home = TraceTestRouter(bindsTask: true)
            home.attachOnLoad = [TraceTestRouter(), TraceTestRouter(bindsTask: true)]
            await root.attachChild(home)
            for i in 0..<40 { NapkinTrace.mark("early \(i)") }
            return root
        }
        let home = try #require(root.children.first as? TraceTestRouter)
        try #require(await waitUntil { sink.status.attempts >= 2 && sink.status.lost > 0 })

        let inspector = try TestListener.unix(path)
        defer { inspector.stop() }
        try #require(await waitUntil { sink.status.isConnected && inspector.connectionCount == 1 })

        // After the gap: a screen comes and goes.
        var settings: TraceTestRouter? = TraceTestRouter(bindsTask: true)
        await home.attachChild(settings!)
        await home.detachChild(settings!)
        let settingsID = settings!.traceID
        settings = nil
        try #require(await waitUntil { Self.contains(inspector.bytes(of: 0), #""ev":"deinit","id":\#(settingsID)}"#) })
        TraceContext.$recording.withValue(tracer) { NapkinTrace.mark("done") }
        try #require(await waitUntil { Self.contains(inspector.bytes(of: 0), #""text":"done""#) })
        await onOwnThread("tracer-shutdown") { tracer.shutdown(reason: "finished") }  // it blocks: off the pool
        try #require(await waitUntil { inspector.hasEnded(0) })

        let (events, integrity, analyzer) = try Self.read(inspector.bytes(of: 0))
        #expect(integrity.isUsable, "\(integrity.problems)")
        #expect(integrity.resumedParts == 1)
        guard case .sessionStart(let info) = events.first?.kind else {
            Issue.record("no session record first")
            return
        }
        #expect(info.part == 2 && info.lost == sink.status.lost && info.lost > 0)
        #expect(info.resumes(tracer.info))
        #expect(analyzer.findings.isEmpty, "\(analyzer.findings)")
        let state = analyzer.state
        #expect(state.ended)
        #expect(state.roots == [root.traceID])
        #expect(state[home.traceID]?.parent == root.traceID)
        #expect(state[home.traceID]?.children == home.children.compactMap { ($0 as? TraceTestRouter)?.traceID })
        #expect(state[home.traceID]?.childCount == 2)
        #expect(state.liveTree().count == 4)
        #expect(state.routerCount == 4)
        // Home's and one child's "watch" tasks run, their owners active.
        #expect(state.runningTasks().count == 2)
        #expect(state.runningTasks().allSatisfy { state[$0.owner]?.isActive == true && !$0.startedWhileInactive })
        #expect(state[settingsID] == nil)
        _ = root
    }

    static func contains(_ bytes: [UInt8], _ text: String) -> Bool {
        let needle = Array(text.utf8)
        guard bytes.count >= needle.count else { return false }
        return bytes.indices.dropLast(needle.count - 1).contains { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
