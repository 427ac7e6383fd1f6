import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect

/// Renders every kind of diagram with the real mermaid.js (headless Chromium)
/// through `mermaid-check`: the three views of every fixture trace, of every
/// case of the hostile corpus and of the generated 100,000-router traces, as
/// the built binary prints them, and diagrams made in memory. Enabled whenever
/// the tool exists next to the repository (`../shared/tools/mermaid-check`; it
/// installs Chromium and mermaid.js itself on first use).
@Suite("Mermaid output renders in mermaid.js")
struct MermaidRenderCheckTests {
    /// The tool, relative to the repository root.
    static let tool = CLIHarness.repoRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/tools/mermaid-check").standardizedFileURL.path
    static var toolExists: Bool { FileManager.default.isExecutableFile(atPath: tool) }

    /// The diagram views of `mermaid`.
    static let views = ["tree", "timeline", "sequence"]

    /// Diagrams made in memory: hostile names, empty traces, the caps.
    static func inMemoryDiagrams() -> [(name: String, text: String)] {
        var hostile = RenderFixture.hostile(root: "Box<Int>; \"q\" #1 a:b [x] {y} é 😀 end", child: "Child%%{init}%%`x`",
                                            taskLabel: "task: <b>bold</b> & more", mark: "mark; with # and \"quotes\" --> arrow ->> end")
        hostile.add(5, .detach(parent: 2, child: 4))
        hostile.add(6, .deallocated(id: 4))
        let small = RenderFixture.small.analyzer()
        let wide = RenderFixture.wide(300)
        return [
            ("flowchart-small", MermaidRenderer.flowchart(small.state, findings: small.findings)),
            ("flowchart-hostile", MermaidRenderer.flowchart(hostile.state, findings: [
                Finding(rule: .notDeallocated, subject: .router, type: "x", id: 2, seqs: [1], time: 0, message: "m"),
                Finding(rule: .doubleAttach, subject: .router, type: "x", id: 4, seqs: [1], time: 0, message: "m"),
                Finding(rule: .eventsDropped, subject: .trace, type: "trace", id: 0, seqs: [], time: 0, message: "m"),
            ])),
            ("flowchart-empty", MermaidRenderer.flowchart(TraceState(), findings: [])),
            ("flowchart-capped", MermaidRenderer.flowchart(wide.state, findings: [])),
            ("gantt-small", MermaidRenderer.gantt(RenderFixture.small.history)),
            ("gantt-leaky", MermaidRenderer.gantt(RenderFixture.leaky.history)),
            ("gantt-hostile", MermaidRenderer.gantt(hostile.history)),
            ("gantt-filtered", MermaidRenderer.gantt(RenderFixture.small.history, filter: NodeFilter(name: "Home"))),
            ("gantt-capped", MermaidRenderer.gantt(wide.history)),
            ("sequence-small", MermaidRenderer.sequence(RenderFixture.small.history)),
            ("sequence-hostile", MermaidRenderer.sequence(hostile.history)),
            ("sequence-empty", MermaidRenderer.sequence(RenderFixture(app: "none").history)),
            ("sequence-capped", MermaidRenderer.sequence(wide.history)),
        ]
    }

    /// The traces whose diagrams the binary prints: every fixture, every hostile case, the generated big ones.
    static func tracePaths(scratch: ScratchDirectory) throws -> [String] {
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: CLIHarness.repoRoot.appendingPathComponent("Tests/Fixtures/traces").path)
            .filter { $0.hasSuffix(".ndjson") }.sorted().map { "Tests/Fixtures/traces/" + $0 }
        let hostile = HostileCorpus.cases.map { HostileCorpus.directory + "/" + $0.file }
        let generated = try [GeneratedTrace.chain, .siblings, .manyFindings, .controlPath].map { try $0.write(in: scratch) }
        return fixtures + hostile + generated
    }

    @Test("every diagram kind of every fixture and hostile trace parses and renders with mermaid.js 11",
          .enabled(if: toolExists, "needs ../shared/tools/mermaid-check next to the repository"), .timeLimit(.minutes(20)))
    func rendersInMermaid() async throws {
        let scratch = try ScratchDirectory("mermaid-render")
        var diagrams = Self.inMemoryDiagrams()
        let paths = try Self.tracePaths(scratch: scratch)
        #expect(paths.count > 70, "the fixtures and the hostile corpus are found")
        let printed = try await withThrowingTaskGroup(of: (Int, [(String, String)]).self) { group in
            for (index, path) in paths.enumerated() {
                group.addTask {
                    var found: [(String, String)] = []
                    for view in Self.views {
                        let result = try await CLIHarness.inspect(["mermaid", "--view", view, path], timeout: 300)
                        // An unusable trace has no diagram (exit 2); that is the hostile corpus's business.
                        if result.status == 0 { found.append(("\(path) --view \(view)", result.stdout)) }
                    }
                    return (index, found)
                }
            }
            var all: [(Int, [(String, String)])] = []
            for try await item in group { all.append(item) }
            return all.sorted { $0.0 < $1.0 }.flatMap(\.1)
        }
        #expect(printed.count > 200, "\(printed.count) diagrams printed")
        diagrams += printed.map { (name: $0.0, text: $0.1) }

        // All diagrams as blocks of one Markdown file (one browser run), plus one
        // plain file of each kind as the command prints it without --markdown.
        let markdown = scratch.url.appendingPathComponent("all.md")
        var document = "# napkin-inspect diagrams\n\n"
        for diagram in diagrams { document += "## \(diagram.name)\n\n" + MermaidRenderer.markdown(diagram.text) + "\n" }
        try document.write(to: markdown, atomically: true, encoding: .utf8)
        var files = [markdown.path]
        for kind in ["flowchart-small", "gantt-small", "sequence-small"] {
            let url = scratch.url.appendingPathComponent("\(kind).mmd")
            try #require(diagrams.first { $0.name == kind }).text.write(to: url, atomically: true, encoding: .utf8)
            files.append(url.path)
        }

        let result = try await CLIHarness.run(Self.tool, files, timeout: 1_200)
        // 0: every file rendered; 1: some did not; 2: the tool could not set itself up.
        #expect(result.status == 0, "mermaid-check exited with \(result.status):\n\(Self.explain(result.stdout, diagrams))")
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("ok   \(markdown.path)") && $0.contains("(OK \(diagrams.count))") }, "\(result)")
        for file in files.dropFirst() {
            #expect(lines.contains { $0.hasPrefix("ok   \(file)") }, "\(result)")
        }
    }

    /// The tool's report, with each failing `block N` named by its diagram.
    static func explain(_ report: String, _ diagrams: [(name: String, text: String)]) -> String {
        var text = report
        for match in report.matches(of: /block (\d+):/) {
            if let number = Int(match.1), number >= 1, number <= diagrams.count {
                text += "\nblock \(number) is \(diagrams[number - 1].name):\n\(diagrams[number - 1].text.prefix(2_000))"
            }
        }
        return text
    }
}
