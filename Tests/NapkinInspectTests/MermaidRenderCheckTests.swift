import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport
@testable import napkin_inspect

/// Renders every kind of diagram with the real mermaid.js (headless Chromium)
/// through `mermaid-check`: the three views of every fixture trace and of every
/// case of the hostile corpus (made in process, as the commands make them: no
/// process per diagram), of capped
/// chains and wide parents, of hand-made hostile traces, and the three views as
/// the built binary prints them with --markdown. (HostileCorpusTests checks the
/// diagrams of the 100,000-router traces stay under mermaid's limit.) Enabled whenever
/// the tool exists next to the repository (`../shared/tools/mermaid-check`; it
/// installs Chromium and mermaid.js itself on first use).
@Suite("Mermaid output renders in mermaid.js")
struct MermaidRenderCheckTests {
    /// The tool, relative to the repository root.
    static let tool = PackagePaths.root.deletingLastPathComponent()
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
        let views = RenderFixture.views.analyzer(grace: 1_000_000_000)
        let viewsEarly = RenderFixture.views.until(ms: 1_500)
        return [
            ("flowchart-small", MermaidRenderer.flowchart(small.state, findings: small.findings)),
            ("flowchart-hostile", MermaidRenderer.flowchart(hostile.state, findings: [
                Finding(rule: .notDeallocated, subject: .router, type: "x", id: 2, seqs: [1], time: 0, message: "m"),
                Finding(rule: .doubleAttach, subject: .router, type: "x", id: 4, seqs: [1], time: 0, message: "m"),
                Finding(rule: .eventsDropped, subject: .trace, type: "trace", id: 0, seqs: [], time: 0, message: "m"),
            ])),
            ("flowchart-empty", MermaidRenderer.flowchart(TraceState(), findings: [])),
            ("flowchart-capped", MermaidRenderer.flowchart(wide.state, findings: [])),
            ("flowchart-views", MermaidRenderer.flowchart(views.state, findings: views.findings)),
            ("flowchart-views-early", MermaidRenderer.flowchart(viewsEarly.state, findings: [])),
            ("gantt-small", MermaidRenderer.gantt(RenderFixture.small.history)),
            ("gantt-views", MermaidRenderer.gantt(RenderFixture.views.history)),
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

    /// The three diagrams of the trace at `path` (relative to the repository
    /// root), made as the commands make them; nil for a file that is not a trace.
    static func diagrams(ofTraceAt path: String) -> [(name: String, text: String)]? {
        guard case let (result, reader)? = try? readAll(path: PackagePaths.url(path).path) else { return nil }
        var analyzer = TraceAnalyzer()
        var history = TraceHistory()
        for event in result.events {
            analyzer.consume(event)
            history.apply(event)
        }
        guard reader.rejection == nil, !result.events.isEmpty else { return nil }
        analyzer.finish()
        return [("\(path) --view tree", MermaidRenderer.flowchart(analyzer.state, findings: analyzer.findings)),
                ("\(path) --view timeline", MermaidRenderer.gantt(history)), ("\(path) --view sequence", MermaidRenderer.sequence(history))]
    }

    /// The diagrams of a chain and of a parent with `count` routers each (the caps at work).
    static func bigDiagrams(_ count: Int) -> [(name: String, text: String)] {
        [true, false].flatMap { chain -> [(name: String, text: String)] in
            let fixture = BoundedRenderingTests.fixture(count, chain: chain)
            let analyzer = fixture.analyzer()
            let name = chain ? "chain of \(count)" : "\(count) siblings"
            return [("\(name) tree", MermaidRenderer.flowchart(analyzer.state, findings: analyzer.findings)),
                    ("\(name) timeline", MermaidRenderer.gantt(fixture.history)), ("\(name) sequence", MermaidRenderer.sequence(fixture.history))]
        }
    }

    @Test("every diagram kind of every fixture and hostile trace parses and renders with mermaid.js 11",
          .enabled(if: toolExists, "needs ../shared/tools/mermaid-check next to the repository"), .singleThreaded, .timeLimit(.minutes(20)))
    func rendersInMermaid() async throws {
        let scratch = try ScratchDirectory("mermaid-render")
        var diagrams = Self.inMemoryDiagrams() + Self.bigDiagrams(5_000)
        let fixtures = try FileManager.default.contentsOfDirectory(atPath: PackagePaths.root.appendingPathComponent("Tests/Fixtures/traces").path)
            .filter { $0.hasSuffix(".ndjson") }.sorted().map { "Tests/Fixtures/traces/" + $0 }
        let hostile = HostileCorpus.cases.map { HostileCorpus.directory + "/" + $0.file }
        let printed = (fixtures + hostile).compactMap(Self.diagrams(ofTraceAt:)).flatMap { $0 }
        // And as the binary prints them, with --markdown (its fence is part of the output).
        for view in Self.views {
            let result = try await CLIHarness.inspect(["mermaid", "--view", view, "--markdown", CLIHarness.exampleTrace("bug-service-keeps-child")])
            #expect(result.status == 0, "\(result)")
            let fenced = result.stdout
            #expect(fenced.hasPrefix("```mermaid\n") && fenced.hasSuffix("```\n"))
            diagrams.append(("mermaid --view \(view) --markdown", String(fenced.dropFirst(11).dropLast(4))))
        }
        #expect(printed.count > 200, "\(printed.count) diagrams of the fixtures and the hostile corpus")
        diagrams += printed

        // The diagrams as blocks of Markdown files of `perPage` each (one browser
        // run per file: the tool gives a page 60 s, which a page of every diagram
        // overran on a busy machine), plus one plain file of each kind as the
        // command prints it without --markdown.
        let perPage = 30
        let pages = stride(from: 0, to: diagrams.count, by: perPage).map { Array(diagrams[$0..<min($0 + perPage, diagrams.count)]) }
        var files: [String] = []
        for (index, page) in pages.enumerated() {
            let markdown = scratch.url.appendingPathComponent("diagrams-\(index + 1).md")
            var document = "# napkin-inspect diagrams, page \(index + 1)\n\n"
            for diagram in page { document += "## \(diagram.name)\n\n" + MermaidRenderer.markdown(diagram.text) + "\n" }
            try document.write(to: markdown, atomically: true, encoding: .utf8)
            files.append(markdown.path)
        }
        for kind in ["flowchart-small", "gantt-small", "sequence-small"] {
            let url = scratch.url.appendingPathComponent("\(kind).mmd")
            try #require(diagrams.first { $0.name == kind }).text.write(to: url, atomically: true, encoding: .utf8)
            files.append(url.path)
        }

        let result = try await CLIHarness.run(Self.tool, files, timeout: 1_200)
        // 0: every file rendered; 1: some did not; 2: the tool could not set itself up.
        #expect(result.status == 0, "mermaid-check exited with \(result.status):\n\(Self.explain(result.stdout, pages, files))")
        let lines = result.stdout.split(separator: "\n")
        for (index, page) in pages.enumerated() {
            #expect(lines.contains { $0.hasPrefix("ok   \(files[index])") && $0.contains("(OK \(page.count))") }, "\(result)")
        }
        for file in files.dropFirst(pages.count) {
            #expect(lines.contains { $0.hasPrefix("ok   \(file)") }, "\(result)")
        }
    }

    /// The tool's report, with each failing `block N` of a page named by its diagram.
    static func explain(_ report: String, _ pages: [[(name: String, text: String)]], _ files: [String]) -> String {
        var text = report
        var page: [(name: String, text: String)] = []
        for line in report.split(separator: "\n") {
            // A file's report starts with its path; the lines after it are about it.
            if line.hasPrefix("ok   ") || line.hasPrefix("FAIL ") {
                page = files.prefix(pages.count).firstIndex { line.dropFirst(5).hasPrefix($0) }.map { pages[$0] } ?? []
            }
            for match in line.matches(of: /block (\d+):/) {
                if let number = Int(match.1), number >= 1, number <= page.count {
                    text += "\nblock \(number) is \(page[number - 1].name):\n\(page[number - 1].text.prefix(2_000))"
                }
            }
        }
        return text
    }
}
