import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// `timeline` and `mermaid` end to end: the built `napkin-inspect` binary run on
/// trace files, checking output and exit status.
@Suite("timeline and mermaid commands")
struct TimelineMermaidCommandTests {
    /// Runs `napkin-inspect ARGUMENTS` without colours.
    private func inspect(_ arguments: [String]) async throws -> CLIResult {
        try await CLIHarness.inspect(arguments, environment: ["NO_COLOR": "1"])
    }

    /// Writes `fixture` to a scratch trace file and passes its path to `body`.
    private func withTrace(_ fixture: RenderFixture, _ body: (String) async throws -> Void) async throws {
        let scratch = try ScratchDirectory("render")
        defer { scratch.remove() }
        try await body(try scratch.write("trace.ndjson", fixture.ndjson))
    }

    @Test("timeline prints the chart of the whole trace")
    func timelineText() async throws {
        try await withTrace(.small) { path in
            let result = try await inspect(["timeline", path, "--width", "72"])
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            let expected = TimelineRenderer(style: .plain, width: 72).lines(RenderFixture.small.history).joined(separator: "\n") + "\n"
            #expect(result.stdout == expected)
            #expect(result.stdout.contains("HomeRouter#4"))
        }
    }

    @Test("timeline --node filters; a name that matches nothing is one line on stderr and exit 2")
    func timelineNode() async throws {
        try await withTrace(.small) { path in
            let home = try await inspect(["timeline", path, "--node", "home", "--width", "60"])
            #expect(home.status == 0)
            #expect(home.stdout.contains("HomeRouter#4"))
            #expect(!home.stdout.contains("SettingsRouter"))

            let byID = try await inspect(["timeline", path, "--node", "7", "--width", "60"])
            #expect(byID.status == 0)
            #expect(byID.stdout.contains("SettingsRouter#7"))
            #expect(!byID.stdout.contains("HomeRouter"))

            let none = try await inspect(["timeline", path, "--node", "Nope"])
            #expect(none.status == 2)
            #expect(none.stdout.isEmpty)
            #expect(none.stderr.split(separator: "\n").count == 1)
            #expect(none.stderr.contains("'Nope' matches no router"))
            #expect(none.stderr.contains("RootRouter, HomeRouter, SettingsRouter"))
        }
    }

    @Test("timeline --format mermaid prints a Gantt chart, filtered by --node")
    func timelineMermaid() async throws {
        try await withTrace(.small) { path in
            let result = try await inspect(["timeline", path, "--format", "mermaid", "--node", "Home"])
            #expect(result.status == 0)
            #expect(result.stdout == MermaidRenderer.gantt(RenderFixture.small.history, filter: NodeFilter(name: "Home")))
            #expect(result.stdout.contains("\ngantt\n"))
        }
    }

    @Test("timeline rejects a silly --width")
    func timelineWidth() async throws {
        try await withTrace(.small) { path in
            let result = try await inspect(["timeline", path, "--width", "10"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("--width"))
        }
    }

    @Test("mermaid: tree (default), timeline and sequence views, --markdown fence")
    func mermaidViews() async throws {
        try await withTrace(.small) { path in
            let tree = try await inspect(["mermaid", path, "--grace", "20ms"])
            #expect(tree.status == 0)
            let analyzer = RenderFixture.small.analyzer()
            #expect(tree.stdout == MermaidRenderer.flowchart(analyzer.state, findings: analyzer.findings))
            #expect(tree.stdout.contains("! not-deallocated"))

            let markdown = try await inspect(["mermaid", path, "--markdown"])
            #expect(markdown.status == 0)
            #expect(markdown.stdout.hasPrefix("```mermaid\nflowchart TD\n"))
            #expect(markdown.stdout.hasSuffix("\n```\n"))

            let gantt = try await inspect(["mermaid", path, "--view", "timeline"])
            #expect(gantt.status == 0)
            #expect(gantt.stdout == MermaidRenderer.gantt(RenderFixture.small.history))

            let sequence = try await inspect(["mermaid", path, "--view", "sequence", "--markdown"])
            #expect(sequence.status == 0)
            #expect(sequence.stdout == MermaidRenderer.markdown(MermaidRenderer.sequence(RenderFixture.small.history)))
        }
    }

    @Test("mermaid --at shows the tree at that moment; tree --format mermaid agrees")
    func mermaidAt() async throws {
        try await withTrace(.small) { path in
            let early = try await inspect(["mermaid", path, "--at", "20ms"])
            #expect(early.status == 0)
            #expect(early.stdout.contains("n4[\"HomeRouter #35;4\nactive, 1 task\"]"))
            #expect(early.stdout.contains("n2 --> n4"))
            #expect(!early.stdout.contains("SettingsRouter"))

            let bySeq = try await inspect(["tree", path, "--format", "mermaid", "--at", "7"])
            #expect(bySeq.status == 0)
            #expect(bySeq.stdout.contains("HomeRouter #35;4"))
            #expect(!bySeq.stdout.contains("n2 --> n4"))  // seq 7 creates it; the attach is seq 8

            let late = try await inspect(["mermaid", path, "--at", "10s"])
            #expect(late.status == 0)
            #expect(late.stderr.contains("ends before"))

            let wrongView = try await inspect(["mermaid", path, "--view", "sequence", "--at", "5"])
            #expect(wrongView.status == 2)
            #expect(wrongView.stderr.contains("--at"))
        }
    }

    @Test("unusable input is exit 2 with one line on stderr")
    func badInput() async throws {
        let missing = try await inspect(["mermaid", "/nonexistent/trace.ndjson"])
        #expect(missing.status == 2)
        #expect(missing.stdout.isEmpty)
        let timeline = try await inspect(["timeline", "/nonexistent/trace.ndjson"])
        #expect(timeline.status == 2)
        #expect(!timeline.stderr.isEmpty)
    }
}
