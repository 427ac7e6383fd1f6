import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// `timeline` and `mermaid` end to end: the built `napkin-inspect` binary run on
/// trace files, checking output and exit status.
@Suite("timeline and mermaid commands")
struct TimelineMermaidCommandTests {
    /// The `napkin-inspect` executable next to the test bundle.
    static let binary: String? = {
        var candidates: [URL] = [CLIHarness.productsDirectory.appendingPathComponent("napkin-inspect")]
        let me = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var directory = me.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(directory.appendingPathComponent("napkin-inspect"))
            directory = directory.deletingLastPathComponent()
        }
        candidates.append(Bundle.main.bundleURL.appendingPathComponent("napkin-inspect"))
        candidates.append(Bundle.main.bundleURL.deletingLastPathComponent().appendingPathComponent("napkin-inspect"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) }?.path
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    private func inspect(_ arguments: [String]) throws -> Result {
        #if os(macOS) || os(Linux) // Foundation's Process is not on iOS (nor is a napkin-inspect to run)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.binary))
        process.arguments = arguments
        var environment = ProcessInfo.processInfo.environment
        environment["NO_COLOR"] = "1"
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus,
                      stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
        #else
        Issue.record("this platform cannot run napkin-inspect \(arguments)")
        return Result(status: -1, stdout: "", stderr: "")
        #endif
    }

    /// Writes `fixture` to a temporary trace file and passes its path to `body`.
    private func withTrace(_ fixture: RenderFixture, _ body: (String) throws -> Void) throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("napkin-render-\(UUID().uuidString).ndjson")
        try fixture.ndjson.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        try body(url.path)
    }

    @Test("timeline prints the chart of the whole trace", .dedicatedThread, .enabled(if: binary != nil))
    func timelineText() throws {
        try withTrace(.small) { path in
            let result = try inspect(["timeline", path, "--width", "72"])
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            let expected = TimelineRenderer(style: .plain, width: 72).lines(RenderFixture.small.history).joined(separator: "\n") + "\n"
            #expect(result.stdout == expected)
            #expect(result.stdout.contains("HomeRouter#4"))
        }
    }

    @Test("timeline --node filters; a name that matches nothing is one line on stderr and exit 2", .dedicatedThread, .enabled(if: binary != nil))
    func timelineNode() throws {
        try withTrace(.small) { path in
            let home = try inspect(["timeline", path, "--node", "home", "--width", "60"])
            #expect(home.status == 0)
            #expect(home.stdout.contains("HomeRouter#4"))
            #expect(!home.stdout.contains("SettingsRouter"))

            let byID = try inspect(["timeline", path, "--node", "7", "--width", "60"])
            #expect(byID.status == 0)
            #expect(byID.stdout.contains("SettingsRouter#7"))
            #expect(!byID.stdout.contains("HomeRouter"))

            let none = try inspect(["timeline", path, "--node", "Nope"])
            #expect(none.status == 2)
            #expect(none.stdout.isEmpty)
            #expect(none.stderr.split(separator: "\n").count == 1)
            #expect(none.stderr.contains("'Nope' matches no router"))
            #expect(none.stderr.contains("RootRouter, HomeRouter, SettingsRouter"))
        }
    }

    @Test("timeline --format mermaid prints a Gantt chart, filtered by --node", .dedicatedThread, .enabled(if: binary != nil))
    func timelineMermaid() throws {
        try withTrace(.small) { path in
            let result = try inspect(["timeline", path, "--format", "mermaid", "--node", "Home"])
            #expect(result.status == 0)
            #expect(result.stdout == MermaidRenderer.gantt(RenderFixture.small.history, filter: NodeFilter(name: "Home")))
            #expect(result.stdout.contains("\ngantt\n"))
        }
    }

    @Test("timeline rejects a silly --width", .enabled(if: binary != nil))
    func timelineWidth() throws {
        try withTrace(.small) { path in
            let result = try inspect(["timeline", path, "--width", "10"])
            #expect(result.status == 2)
            #expect(result.stderr.contains("--width"))
        }
    }

    @Test("mermaid: tree (default), timeline and sequence views, --markdown fence", .dedicatedThread, .enabled(if: binary != nil))
    func mermaidViews() throws {
        try withTrace(.small) { path in
            let tree = try inspect(["mermaid", path, "--grace", "20ms"])
            #expect(tree.status == 0)
            let analyzer = RenderFixture.small.analyzer()
            #expect(tree.stdout == MermaidRenderer.flowchart(analyzer.state, findings: analyzer.findings))
            #expect(tree.stdout.contains("! not-deallocated"))

            let markdown = try inspect(["mermaid", path, "--markdown"])
            #expect(markdown.status == 0)
            #expect(markdown.stdout.hasPrefix("```mermaid\nflowchart TD\n"))
            #expect(markdown.stdout.hasSuffix("\n```\n"))

            let gantt = try inspect(["mermaid", path, "--view", "timeline"])
            #expect(gantt.status == 0)
            #expect(gantt.stdout == MermaidRenderer.gantt(RenderFixture.small.history))

            let sequence = try inspect(["mermaid", path, "--view", "sequence", "--markdown"])
            #expect(sequence.status == 0)
            #expect(sequence.stdout == MermaidRenderer.markdown(MermaidRenderer.sequence(RenderFixture.small.history)))
        }
    }

    @Test("mermaid --at shows the tree at that moment; tree --format mermaid agrees", .dedicatedThread, .enabled(if: binary != nil))
    func mermaidAt() throws {
        try withTrace(.small) { path in
            let early = try inspect(["mermaid", path, "--at", "20ms"])
            #expect(early.status == 0)
            #expect(early.stdout.contains("n4[\"HomeRouter #35;4\nactive, 1 task\"]"))
            #expect(early.stdout.contains("n2 --> n4"))
            #expect(!early.stdout.contains("SettingsRouter"))

            let bySeq = try inspect(["tree", path, "--format", "mermaid", "--at", "7"])
            #expect(bySeq.status == 0)
            #expect(bySeq.stdout.contains("HomeRouter #35;4"))
            #expect(!bySeq.stdout.contains("n2 --> n4"))  // seq 7 creates it; the attach is seq 8

            let late = try inspect(["mermaid", path, "--at", "10s"])
            #expect(late.status == 0)
            #expect(late.stderr.contains("ends before"))

            let wrongView = try inspect(["mermaid", path, "--view", "sequence", "--at", "5"])
            #expect(wrongView.status == 2)
            #expect(wrongView.stderr.contains("--at"))
        }
    }

    @Test("unusable input is exit 2 with one line on stderr", .enabled(if: binary != nil))
    func badInput() throws {
        let missing = try inspect(["mermaid", "/nonexistent/trace.ndjson"])
        #expect(missing.status == 2)
        #expect(missing.stdout.isEmpty)
        let timeline = try inspect(["timeline", "/nonexistent/trace.ndjson"])
        #expect(timeline.status == 2)
        #expect(!timeline.stderr.isEmpty)
    }
}
