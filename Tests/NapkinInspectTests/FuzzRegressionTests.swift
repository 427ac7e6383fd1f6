import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport
@testable import napkin_inspect

/// Every input the fuzzer ever crashed on (`Tests/Fixtures/fuzz`), replayed as
/// `Fuzz/CLIFuzzing.swift` runs it: the renderers with the parameters the
/// input's first byte picks, checked for control characters and size, and
/// every subcommand end to end.
@Suite("fuzzer regressions")
struct FuzzRegressionTests {
    /// The fixtures, relative to the repository root.
    static let files: [String] = {
        let folder = PackagePaths.root.appendingPathComponent("Tests/Fixtures/fuzz")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".ndjson") }.sorted().map { "Tests/Fixtures/fuzz/" + $0 }
    }()

    @Test("the fixtures are there")
    func fixtures() {
        #expect(Self.files.contains("Tests/Fixtures/fuzz/live-frame-plain-reset.ndjson"))
    }

    @Test("the renderers, as the fuzzer runs them", arguments: files)
    func renderers(_ path: String) throws {
        let bytes = try Data(contentsOf: PackagePaths.root.appendingPathComponent(path))
        let seed = Int(bytes.first ?? 0)
        let events = try readAll(path: PackagePaths.url(path).path, options: .init(maxLineLength: 256)).0.events
        var analyzer = TraceAnalyzer(options: .init(grace: 1_000, expectTeardown: bytes.count % 2 == 0))
        var history = TraceHistory()
        for event in events {
            analyzer.consume(event)
            history.apply(event)
        }
        analyzer.finish()
        let state = analyzer.state
        var texts = TreeRenderer(style: .plain, findings: analyzer.findings).rows(state, limit: 4 + seed % 40).map(\.text)
        let filter = seed % 3 == 0 ? nil : NodeFilter(name: seed % 3 == 1 ? "R" : String(seed))
        texts += TimelineRenderer(style: .plain, width: 40 + seed, filter: filter).lines(history)
        texts += FindingLine.lines(analyzer.findings, style: .plain)
        for diagram in [MermaidRenderer.flowchart(state, findings: analyzer.findings), MermaidRenderer.gantt(history, filter: filter),
                        MermaidRenderer.sequence(history)] {
            #expect(diagram.utf8.count < 50_000)
            texts.append(diagram)
        }
        // The crash of live-frame-plain-reset: a plain frame cut to a narrow screen got a colour reset.
        let size = (rows: 3 + seed % 30, columns: 10 + seed)
        let frame = LiveView(style: .plain, sourceName: "fuzz").frame(analyzer, events: seed, rate: seed, finished: seed % 2 == 0,
                                                                     childStatus: nil, pane: nil, diagnostic: nil, size: size)
        #expect(frame.count == max(4, size.rows))
        texts += frame
        for text in texts {
            #expect(OutputSafety.problem(in: Data(text.utf8)) == nil, "\(text.debugDescription)")
        }
    }

    @Test("every subcommand, end to end", arguments: files)
    func commands(_ path: String) async throws {
        for variant in HostileCorpus.variants {
            let result = try await CLIHarness.inspect(variant.arguments + [path], timeout: 120)
            #expect((0...2).contains(result.status), "\(variant)\n\(result)")
            #expect(OutputSafety.problem(in: result.stdoutData) == nil, "\(variant)\n\(result)")
            #expect(OutputSafety.problem(in: result.stderrData) == nil, "\(variant)\n\(result)")
        }
    }
}
