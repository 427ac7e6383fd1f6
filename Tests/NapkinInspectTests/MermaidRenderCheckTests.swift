import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect

/// Renders every kind of diagram with the real mermaid.js (headless Chromium)
/// through `mermaid-check`, when that tool is installed (it is not on CI).
@Suite("Mermaid output renders in mermaid.js")
struct MermaidRenderCheckTests {
    static let tool = "/work/shared/tools/mermaid-check"
    static var toolExists: Bool { FileManager.default.isExecutableFile(atPath: tool) }

    /// Every diagram kind, for clean, leaky, hostile and enormous traces.
    static func diagrams() -> [(name: String, text: String)] {
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

    @Test("every diagram kind parses and renders with mermaid.js 11",
          .enabled(if: toolExists, "needs /work/shared/tools/mermaid-check"), .timeLimit(.minutes(10)))
    func rendersInMermaid() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("napkin-mermaid-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        // All diagrams as blocks of one Markdown file (one browser run), plus one
        // plain .mmd file of each kind as the command prints it without --markdown.
        let diagrams = Self.diagrams()
        let markdown = directory.appendingPathComponent("all.md")
        var document = "# napkin-inspect diagrams\n\n"
        for diagram in diagrams { document += "## \(diagram.name)\n\n" + MermaidRenderer.markdown(diagram.text) + "\n" }
        try document.write(to: markdown, atomically: true, encoding: .utf8)
        var files = [markdown.path]
        for kind in ["flowchart-small", "gantt-small", "sequence-small"] {
            let url = directory.appendingPathComponent("\(kind).mmd")
            try diagrams.first { $0.name == kind }!.text.write(to: url, atomically: true, encoding: .utf8)
            files.append(url.path)
        }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.tool)
        process.arguments = files
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        // 0: every file rendered; 1: some did not; 2: the tool could not set itself up.
        #expect(process.terminationStatus == 0, "mermaid-check exited with \(process.terminationStatus):\n\(output)")
        let lines = output.split(separator: "\n")
        #expect(lines.contains { $0.hasPrefix("ok   \(markdown.path)") && $0.contains("(OK \(diagrams.count))") }, "\(output)")
        for file in files.dropFirst() {
            #expect(lines.contains { $0.hasPrefix("ok   \(file)") }, "\(output)")
        }
    }
}
