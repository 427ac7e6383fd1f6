// The spans of a trace rebuild its tree: at any moment, the router spans
// open then, nested by their parents, are the live tree `napkin-inspect tree
// --at SEQ` shows for the same trace.

import Foundation
@testable import NapkinOTLP
import NapkinTrace
import Testing
import TestSupport

@Suite(.dedicatedThread)
struct OTLPTreeTests {
    /// The router spans `export --format otlp` makes of the trace at `path` (its one session).
    static func spans(of path: String) throws -> (spans: [ReadSpan], events: [TraceEvent]) {
        let (read, _) = try readAll(path: path)
        var conversion = OTLPRecordedTrace(analysis: TraceAnalyzer.Options())
        for event in read.events { conversion.consume(event) }
        let requests = conversion.takeRequests() + conversion.finish()
        let spans = requests.filter { $0.signal == "traces" }.flatMap { request in
            OTLPPayloads.spans((try? JSONSerialization.jsonObject(with: Data(request.body))) as? [String: Any] ?? [:])
        }
        return (spans, read.events)
    }

    /// The live tree of `tree --at` output: each router's name mapped to its parent's (nil for a root).
    static func treeEdges(_ output: String) -> [String: String?] {
        var edges: [String: String?] = [:]
        var stack: [String] = []
        for line in output.split(separator: "\n", omittingEmptySubsequences: false).dropFirst() {
            if line.isEmpty || line.hasPrefix("Outside") || line.hasPrefix("Findings") || line.hasPrefix("Interactors") { break }
            let text = String(line)
            guard let nameStart = text.firstIndex(where: { $0.isLetter }) else { continue }
            let depth = text.distance(from: text.startIndex, to: nameStart) / 3
            let name = String(text[nameStart...].prefix { $0 != " " })
            // A line that names no router ("no routers in the tree") adds none.
            guard name.contains("#") else { continue }
            stack = Array(stack.prefix(depth))
            edges.updateValue(stack.last, forKey: name)
            stack.append(name)
        }
        return edges
    }

    /// The tree the spans give at wall-clock time `time`: spans open then, whose chain of parents is all open.
    static func spanEdges(_ spans: [ReadSpan], at time: UInt64) -> [String: String?] {
        let routers = spans.filter { $0.routerID != nil }
        let byID = Dictionary(routers.map { ($0.spanID, $0) }, uniquingKeysWith: { first, _ in first })
        func isOpen(_ span: ReadSpan) -> Bool { span.start <= time && (span.end > time || (span.openAtEnd && span.end >= time)) }
        func name(_ span: ReadSpan) -> String { "\(span.routerType ?? "?")#\(span.routerID ?? 0)" }
        func inLiveTree(_ span: ReadSpan) -> Bool {
            var current = span
            var hops = 0
            while isOpen(current) {
                if current.parentSpanID.isEmpty { return true }
                guard let parent = byID[current.parentSpanID], hops < 1_000 else { return false }
                current = parent
                hops += 1
            }
            return false
        }
        var edges: [String: String?] = [:]
        for span in routers where inLiveTree(span) {
            edges.updateValue(span.parentSpanID.isEmpty ? nil : byID[span.parentSpanID].map(name), forKey: name(span))
        }
        return edges
    }

    static let traces = ((try? PackagePaths.files(in: "Examples/traces", endingIn: ".ndjson")) ?? [])
        .map { PackagePaths.url("Examples/traces/" + $0).path }

    @Test("The router spans open at a moment, nested by parent, are the tree `tree --at` shows then",
          arguments: traces)
    func spansRebuildTheTree(path: String) async throws {
        let (spans, events) = try Self.spans(of: path)
        #expect(!spans.isEmpty)
        guard case .sessionStart(let info) = events.first?.kind else {
            Issue.record("\(path) starts with no session record")
            return
        }
        // Moments after an event whose successor comes strictly later (no tie for "open at"), spread over the trace, and the end.
        let candidates = events.indices.filter { $0 + 1 == events.count || events[$0 + 1].time > events[$0].time }
        let step = max(candidates.count / 6, 1)
        let chosen = Set(stride(from: step, to: candidates.count, by: step).map { candidates[$0] } + [events.count - 1])
        var compared = 0
        for index in chosen.sorted() {
            let event = events[index]
            let tree = try await ToolRun.run("napkin-inspect", ["tree", path, "--at", String(event.seq), "--no-color"])
            #expect(tree.status.code == 0, "tree --at \(event.seq): \(tree.stderr)")
            let expected = Self.treeEdges(tree.stdout)
            let rebuilt = Self.spanEdges(spans, at: UInt64(info.wallClock) + event.time)
            #expect(rebuilt == expected, "\(path) at seq \(event.seq)")
            if !expected.isEmpty { compared += 1 }
        }
        #expect(compared > 0, "no moment of \(path) had a tree to compare")
    }

    @Test("A router attached for the app's whole life: its span is sent when the session ends, ended then, marked open_at_end")
    func rootForTheWholeSessionIsVisible() async throws {
        let receiver = try OTLPReceiver()
        defer { receiver.stop() }
        var configuration = try OTLPConfiguration(endpoint: receiver.endpoint)
        configuration.scheduleDelay = .milliseconds(20)
        let exporter = OTLPExporter(configuration: configuration, resource: [])
        let sink = OTLPTraceSink(configuration: configuration, exporter: exporter)
        let info = SessionInfo(app: "whole-life", pid: 42, wallClock: 1_700_000_000_000_000_000)
        try sink.write([
            TraceEvent(seq: 1, time: 0, kind: .sessionStart(info)),
            TraceEvent(seq: 2, time: 10, kind: .routerCreated(id: 2, type: "AppRouter", interactor: 1, interactorType: "AppInteractor")),
            TraceEvent(seq: 3, time: 20, kind: .launch(router: 2)),
            TraceEvent(seq: 4, time: 30, kind: .routerCreated(id: 4, type: "TabRouter", interactor: 3, interactorType: "TabInteractor")),
            TraceEvent(seq: 5, time: 40, kind: .attach(parent: 2, child: 4)),
            TraceEvent(seq: 6, time: 50, kind: .detach(parent: 2, child: 4)),
        ])
        // Nothing of the root is sent while it lives; the detached child's span is.
        #expect(exporter.flush(within: .seconds(30)))
        let early = receiver.requests("traces").flatMap { OTLPPayloads.spans($0.json) }
        #expect(early.map(\.routerType) == ["TabRouter"])
        try sink.write([TraceEvent(seq: 7, time: 9_000, kind: .sessionEnd(reason: "exit"))])
        sink.close()
        exporter.shutdown(within: .seconds(5))
        let spans = receiver.requests("traces").flatMap { OTLPPayloads.spans($0.json) }
        let root = try #require(spans.first { $0.routerType == "AppRouter" })
        #expect(root.openAtEnd)
        #expect(root.parentSpanID.isEmpty)
        #expect(root.attributes["napkin.router.launched"] as? Bool == true)
        #expect(root.start == 1_700_000_000_000_000_020)
        #expect(root.end == 1_700_000_000_000_009_000)
        let child = try #require(spans.first { $0.routerType == "TabRouter" })
        #expect(child.parentSpanID == root.spanID)
        #expect(!child.openAtEnd)
        #expect(Set(spans.map(\.traceID)).count == 1)
    }
}
