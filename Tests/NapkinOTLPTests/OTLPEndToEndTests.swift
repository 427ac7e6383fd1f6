// The app end to end: rib-house, its exporter switched on by
// OTEL_EXPORTER_OTLP_ENDPOINT alone, sends its visit to an in-process
// receiver on 127.0.0.1. Its spans rebuild the tree `tree` shows for the
// trace it wrote at the same time; the retain-cycle finding arrives once as a
// log record with its retainer path; the resource says who sent it.
// And `napkin-inspect export --format otlp` on recorded traces, to a file and to the receiver.

import Foundation
import NapkinTrace
import Testing
import TestSupport

@Suite(.dedicatedThread)
struct OTLPEndToEndTests {
    @Test("rib-house --bug retain-cycle with OTEL_EXPORTER_OTLP_ENDPOINT: its visit, its finding and its tree reach the receiver")
    func ribHouseDelivers() async throws {
        let receiver = try OTLPReceiver()
        defer { receiver.stop() }
        let scratch = try ScratchDirectory("otlp-rib-house")
        let tracePath = scratch.file("visit.ndjson")
        let run = try await ToolRun.run("rib-house", ["--bug", "retain-cycle", "--quiet"],
                                        environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
                                                      "OTEL_EXPORTER_OTLP_HEADERS": "x-napkin-test=1",
                                                      "OTEL_SERVICE_NAME": "rib-house-test",
                                                      "NAPKIN_TRACE": tracePath])
        #expect(run.status.code == 0, "\(run.stderr)")
        // Every request's body is JSON, with the headers asked for.
        #expect(receiver.requests.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.body))) != nil })
        #expect(receiver.requests.allSatisfy { $0.headers["x-napkin-test"] == "1" })

        let spans = receiver.requests("traces").flatMap { OTLPPayloads.spans($0.json) }
        let logs = receiver.requests("logs").flatMap { OTLPPayloads.logs($0.json) }
        #expect(!receiver.requests("metrics").isEmpty)
        let resource = OTLPPayloads.resource(receiver.requests("traces").first?.json ?? [:])
        #expect(resource["service.name"] as? String == "rib-house-test")
        #expect((resource["session.id"] as? String)?.count == 32)
        #expect(resource["os.type"] as? String != nil)

        // The finding (decided a second after the detach: the visit runs at its own pace), once: the
        // detector reports a fingerprint once per process (both visits of LoggedIn leak the same way),
        // with the retainer path, on the leaked router's span.
        let leaks = logs.filter { $0.attributes["napkin.finding.rule"] as? String == "not-deallocated" }
        #expect(leaks.count == 1)
        for leak in leaks {
            #expect((leak.attributes["napkin.finding.retainer.paths"] as? [String] ?? []).contains { $0.contains("retainedRouter (suspect)") })
            let span = spans.first { $0.spanID == leak.spanID }
            #expect(span?.routerType == "LoggedInRouter")
            #expect(leak.traceID == span?.traceID)
        }
        #expect(leaks.first?.attributes["napkin.finding.retainer.key"] as? String == "LoggedInInteractor.retainedRouter")
        #expect(leaks.first?.attributes["code.file.path"] as? String == "RibHouse/LoggedInBuilder.swift")

        // The spans rebuild the tree `tree` shows for the trace written in the same run, at its end and part-way.
        let (read, _) = try readAll(path: tracePath)
        // And the export of that trace file gives the very spans the app sent: the same ids, parents and names.
        let (exported, _) = try OTLPTreeTests.spans(of: tracePath)
        func identities(_ spans: [ReadSpan]) -> Set<String> {
            Set(spans.map { "\($0.traceID) \($0.spanID) \($0.parentSpanID) \($0.name) \($0.start) \($0.end)" })
        }
        #expect(identities(exported) == identities(spans))
        #expect(spans.count == exported.count)
        guard case .sessionStart(let info) = read.events.first?.kind else {
            Issue.record("the trace has no session record")
            return
        }
        let moments = read.events.indices.filter { $0 + 1 == read.events.count || read.events[$0 + 1].time > read.events[$0].time }
        for index in [moments[moments.count / 3], moments[2 * moments.count / 3], moments[moments.count - 1]] {
            let event = read.events[index]
            let tree = try await ToolRun.run("napkin-inspect", ["tree", tracePath, "--at", String(event.seq), "--no-color"])
            #expect(OTLPTreeTests.spanEdges(spans, at: UInt64(info.wallClock) + event.time) == OTLPTreeTests.treeEdges(tree.stdout),
                    "at seq \(event.seq)")
        }
    }

    @Test("A collector that never answers: rib-house still exits, after at most its exit budget, with one line naming what was not delivered")
    func slowCollectorDoesNotHoldTheExit() async throws {
        let receiver = try OTLPReceiver()
        defer { receiver.stop() }
        receiver.hold()
        // A hang would end in the run's bound (and the status of a kill), not in exit 0.
        let run = try await ToolRun.run("rib-house", ["--quiet", "--speed", "20"],
                                        environment: ["OTEL_EXPORTER_OTLP_ENDPOINT": receiver.endpoint,
                                                      "OTEL_BSP_SCHEDULE_DELAY": "10"],
                                        bound: .seconds(120))
        #expect(run.status.code == 0, "\(run.status): \(run.stderr)")
        #expect(!receiver.requests.isEmpty)
        let lines = run.errorLines.filter { $0.hasPrefix("napkin otlp:") }
        #expect(lines.count == 1)
        #expect(lines.first?.contains("not delivered") == true)
    }

    @Test("export --format otlp: one JSON request per line to -o, and the same requests posted to --endpoint")
    func exportWritesAndPosts() async throws {
        let receiver = try OTLPReceiver()
        defer { receiver.stop() }
        let scratch = try ScratchDirectory("otlp-export")
        let output = scratch.file("retain-cycle.otlp.jsonl")
        let trace = PackagePaths.url("Examples/traces/bug-retain-cycle.ndjson").path
        let run = try await ToolRun.run("napkin-inspect", ["export", "--format", "otlp", trace, "-o", output, "--endpoint", receiver.endpoint])
        #expect(run.status.code == 0, "\(run.stderr)")
        let lines = try String(contentsOfFile: output, encoding: .utf8).split(separator: "\n").map { Array($0.utf8) }
        #expect(lines.count == 3)
        #expect(receiver.requests.map(\.body) == lines)
        #expect(receiver.requests.map(\.path) == ["/v1/traces", "/v1/logs", "/v1/metrics"])
        #expect(run.errorLines.contains { $0.contains("wrote \(output)") && $0.contains("32 spans") })
        // Written again over its own earlier export: allowed; over a trace: refused.
        let again = try await ToolRun.run("napkin-inspect", ["export", "--format", "otlp", trace, "-o", output])
        #expect(again.status.code == 0)
        let copy = try scratch.write("a-trace.ndjson", try String(contentsOfFile: trace, encoding: .utf8))
        let refused = try await ToolRun.run("napkin-inspect", ["export", "--format", "otlp", trace, "-o", copy])
        #expect(refused.status.code == 2)
        #expect(refused.errorLines.count == 1)
    }

    @Test("export --format otlp --endpoint: a collector that refuses for good is one line and exit status 3")
    func exportRefused() async throws {
        let receiver = try OTLPReceiver { _, _ in .status(400) }
        defer { receiver.stop() }
        let trace = PackagePaths.url("Examples/traces/clean.ndjson").path
        let run = try await ToolRun.run("napkin-inspect", ["export", "--format", "otlp", trace, "--endpoint", receiver.endpoint])
        #expect(run.status.code == 3)
        #expect(run.stdout.isEmpty)
        #expect(run.errorLines.count == 1)
        #expect(run.errorLines.first?.contains("HTTP 400") == true)
        // Posting stopped at the first refusal.
        #expect(receiver.requests.count == 1)
    }
}
