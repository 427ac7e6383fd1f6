import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// Renderers stay bounded on adversarial shapes: deep chains, wide parents,
/// small screens. (The 100,000-router traces run end to end in HostileCorpusTests.)
@Suite("bounded rendering")
struct BoundedRenderingTests {
    /// A root and `count` routers, each attached to the previous one (`chain`) or all to the root.
    static func fixture(_ count: Int, chain: Bool) -> RenderFixture {
        var f = RenderFixture(app: chain ? "chain" : "wide")
        f.launch(2, "RootRouter", at: 0)
        for k in 0..<count {
            let id = NodeID(4 + 2 * k)
            f.attach(id, "NodeRouter", to: chain ? id - 2 : 2, at: 1)
        }
        return f
    }

    @Test("a deep chain: levels beyond 24 folded into one mark, rows capped, every row short", .dedicatedThread, .singleThreaded)
    func deepChain() {
        let state = Self.fixture(3_000, chain: true).state
        let rows = TreeRenderer(style: .plain).rows(state).map(\.text)
        #expect(rows.count == TreeRenderer.maxRows)
        #expect(rows.allSatisfy { $0.count < 220 }, "the longest row has \(rows.map(\.count).max() ?? 0) characters")
        #expect(rows.contains { $0.contains("\u{2026} 1 level \u{2026} ") })
        #expect(rows.contains { $0.contains("\u{2026} 973 levels \u{2026} ") })
        #expect(rows[rows.count - 2] == "\u{2026} 2,003 more routers not shown; " + TreeRenderer.treeHint)
        #expect(rows.last == "note: levels deeper than 24 are folded into '\u{2026} N levels \u{2026}'")
        // The levels next to the row stay drawn.
        let deepest = rows[rows.count - 3]
        #expect(deepest.contains("\u{2026} 973 levels \u{2026} " + String(repeating: "   ", count: 19) + "\u{2514}\u{2500} NodeRouter#"), "\(deepest)")
    }

    @Test("a wide parent: rows capped, the rest counted", .dedicatedThread, .singleThreaded)
    func wideParent() {
        let state = Self.fixture(5_000, chain: false).state
        let rows = TreeRenderer(style: .plain).rows(state, limit: 50, hint: "enlarge").map(\.text)
        #expect(rows.count == 49)
        #expect(rows.first?.hasPrefix("RootRouter#2") == true)
        #expect(rows[1].hasPrefix("\u{251C}\u{2500} NodeRouter#4 "))
        #expect(rows.last == "\u{2026} 4,953 more routers not shown; enlarge")
    }

    @Test("a live frame is exactly the screen, whatever the tree", .dedicatedThread, .singleThreaded, arguments: [(24, 80), (5, 20), (50, 200)])
    func liveFrame(_ rows: Int, _ columns: Int) {
        var analyzer = TraceAnalyzer()
        for event in Self.fixture(2_000, chain: true).events { analyzer.consume(event) }
        let view = LiveView(style: Style(enabled: true), sourceName: "chain\u{1B}[2J")
        let frame = view.frame(analyzer, events: 1, rate: 1, finished: false, childStatus: nil, pane: nil, diagnostic: nil,
                               size: (rows, columns))
        #expect(frame.count == rows)
        #expect(frame.allSatisfy { stripANSI($0).count <= columns }, "\(frame.map { stripANSI($0) })")
        #expect(!frame.joined().contains("\u{1B}[2J"), "the source name is printable")
    }

    @Test("a view shown and removed 10,000 times: one lane in the timeline, a capped Gantt section", .dedicatedThread, .singleThreaded)
    func manyViewChanges() throws {
        var f = RenderFixture(app: "views")
        f.launch(2, "RootRouter", at: 0)
        for k in 0..<10_000 {
            f.add(Double(k), .view(router: 2, appearance: .shown))
            f.add(Double(k) + 0.5, .view(router: 2, appearance: .removed))
        }
        let history = f.history
        let lines = TimelineRenderer(style: .plain, width: 100).lines(history)
        #expect(lines.filter { $0.hasPrefix("  view ") }.count == 1, "\(lines)")
        #expect(lines.allSatisfy { $0.count <= 100 })
        let gantt = MermaidRenderer.gantt(history)
        let bars = gantt.split(separator: "\n").drop { !$0.hasPrefix("  section ") }.filter { $0.hasPrefix("    ") }
        #expect(bars.count <= MermaidRenderer.maxBarsPerSection + 1, "\(bars.count) bars")
        #expect(bars.last?.hasPrefix("    #8230; ") == true, "the rest counted: \(bars.last ?? "")")
        #expect(gantt.utf8.count < MermaidRenderer.maxCharacters)
    }

    @Test("a row marks each rule once, with a count, however many findings name the node")
    func ruleMarksCounted() {
        var f = RenderFixture()
        f.launch(2, "RootRouter", at: 0)
        let findings = (0..<10_000).map { _ in
            Finding(rule: .doubleAttach, subject: .router, type: "RootRouter", id: 2, seqs: [1], time: 0, message: "again")
        }
        let rows = TreeRenderer(style: .plain, findings: findings).rows(f.state)
        #expect(rows.first?.text.hasSuffix("! double-attach \u{00D7}10,000") == true, "\(rows.first?.text ?? "")")
    }

    @Test("the command's output pane cuts a line without newlines into lines of 4 KiB")
    func outputPaneLines() {
        var collector = LineCollector()
        var lines: [String] = []
        collector.take(ArraySlice(Array(repeating: UInt8(ascii: "x"), count: 10_000)), emit: { lines.append($0) })
        #expect(lines.map(\.count) == [4_096, 4_096])
        collector.take(ArraySlice(Array("end\r\nnext".utf8)), emit: { lines.append($0) })
        #expect(lines.count == 3 && lines[2].count == 1_808 + 3 && lines[2].hasSuffix("end"))
        collector.finish { lines.append($0) }
        #expect(lines.last == "next")
    }
}
