// The spans of a trace rebuild its tree: at any moment, the router spans
// open then, nested by their parents, are the live tree `napkin-inspect tree
// --at SEQ` shows for the same trace.

import Foundation
import NapkinOTLP
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
            stack = Array(stack.prefix(depth))
            edges[name] = stack.last
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
            edges[name(span)] = span.parentSpanID.isEmpty ? nil : byID[span.parentSpanID].map(name)
        }
        return edges
    }

    static let traces = (try? PackagePaths.files(in: "Examples/traces", endingIn: ".ndjson")) ?? []

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

    @Test("A router attached for the whole session (the root) is a span ended at the session's end, marked open_at_end")
    func rootForTheWholeSessionIsVisible() throws {
        let (spans, events) = try Self.spans(of: PackagePaths.url("Examples/traces/clean.ndjson").path)
        guard case .sessionStart(let info) = events.first?.kind, let last = events.last else {
            Issue.record("no session")
            return
        }
        let roots = spans.filter { $0.routerID != nil && $0.parentSpanID.isEmpty }
        #expect(roots.count == 1)
        let root = try #require(roots.first)
        #expect(root.openAtEnd)
        #expect(root.attributes["napkin.router.launched"] as? Bool == true)
        #expect(root.end == UInt64(info.wallClock) + last.time)
        // Every other span names a parent that is in the payload: one tree, one trace id.
        let ids = Set(spans.map(\.spanID))
        #expect(spans.allSatisfy { $0.parentSpanID.isEmpty || ids.contains($0.parentSpanID) })
        #expect(Set(spans.map(\.traceID)).count == 1)
    }
}
