import Foundation
import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport
@testable import napkin_inspect

/// The text tree of a small hand-built trace, as exact snapshots: through the
/// built binary (`tree FILE`, `tree FILE --at SEQ`) and through ``TreeRenderer``.
@Suite("tree snapshots")
struct TreeRendererSnapshotTests {
    /// A root with a child that runs two tasks and has an inactive grandchild;
    /// a second child detached at 0.5 s and never deallocated; an interactor
    /// that never gets a router. The trace ends at 2 s.
    static let trace = """
        {"seq":1,"t":0,"ev":"session","v":1,"app":"snapshot","pid":7,"wall":1767225600000000000}
        {"seq":2,"t":1000000,"ev":"interactor","id":1,"type":"AppInteractor"}
        {"seq":3,"t":1000000,"ev":"router","id":2,"type":"AppRouter","interactor":1,"itype":"AppInteractor"}
        {"seq":4,"t":2000000,"ev":"launch","id":2}
        {"seq":5,"t":2000000,"ev":"activate","id":1}
        {"seq":6,"t":10000000,"ev":"interactor","id":3,"type":"FeedInteractor"}
        {"seq":7,"t":10000000,"ev":"router","id":4,"type":"FeedRouter","interactor":3,"itype":"FeedInteractor"}
        {"seq":8,"t":10000000,"ev":"attach","parent":2,"child":4}
        {"seq":9,"t":10000000,"ev":"activate","id":3}
        {"seq":10,"t":20000000,"ev":"task_start","task":5,"owner":3,"label":"refresh"}
        {"seq":11,"t":20000000,"ev":"task_start","task":6,"owner":3,"label":"images"}
        {"seq":12,"t":30000000,"ev":"interactor","id":7,"type":"StoryInteractor"}
        {"seq":13,"t":30000000,"ev":"router","id":8,"type":"StoryRouter","interactor":7,"itype":"StoryInteractor"}
        {"seq":14,"t":30000000,"ev":"attach","parent":4,"child":8}
        {"seq":15,"t":40000000,"ev":"interactor","id":9,"type":"SettingsInteractor"}
        {"seq":16,"t":40000000,"ev":"router","id":10,"type":"SettingsRouter","interactor":9,"itype":"SettingsInteractor"}
        {"seq":17,"t":40000000,"ev":"attach","parent":2,"child":10}
        {"seq":18,"t":40000000,"ev":"activate","id":9}
        {"seq":19,"t":45000000,"ev":"interactor","id":11,"type":"LoneInteractor"}
        {"seq":20,"t":500000000,"ev":"detach","parent":2,"child":10}
        {"seq":21,"t":500000000,"ev":"deactivate","id":9}
        {"seq":22,"t":1750000000,"ev":"mark","text":"idle"}
        {"seq":23,"t":2000000000,"ev":"end","reason":"exit"}

        """

    static let atEnd = """
        snapshot (pid 7) at t=2.000s (after seq 23)
        AppRouter#2               active    2.0s
        └─ FeedRouter#4           active    2.0s    2 tasks
           └─ StoryRouter#8       inactive  2.0s
        Outside the tree, still alive:
          SettingsRouter#10       detached  2.0s             detached 1.5s ago ! not-deallocated
        Interactors without a router:
          LoneInteractor#11       inactive  2.0s

        Findings so far:
          error[not-deallocated] SettingsRouter#10: detached, but still alive 1s later: something retains it (a strong reference in an interactor, listener or service: a retain cycle?) (seq 20)

        """

    static let atSeq19 = """
        snapshot (pid 7) at t=45.000ms (after seq 19)
        AppRouter#2               active    44ms
        ├─ FeedRouter#4           active    35ms    2 tasks
        │  └─ StoryRouter#8       inactive  15ms
        └─ SettingsRouter#10      active    5ms
        Interactors without a router:
          LoneInteractor#11       inactive  0ns

        """

    @Test("napkin-inspect tree FILE: the exact text at the end")
    func binaryAtEnd() async throws {
        let scratch = try ScratchDirectory("snapshot")
        let path = try scratch.write("snapshot.ndjson", Self.trace)
        let result = try await CLIHarness.inspect(["tree", path])
        #expect(result.status == 0, "\(result)")
        #expect(result.stderr.isEmpty)
        #expect(result.stdout == Self.atEnd)
    }

    @Test("napkin-inspect tree FILE --at 19: the exact text at that moment")
    func binaryAtSeq() async throws {
        let scratch = try ScratchDirectory("snapshot")
        let path = try scratch.write("snapshot.ndjson", Self.trace)
        let result = try await CLIHarness.inspect(["tree", path, "--at", "19"])
        #expect(result.status == 0, "\(result)")
        #expect(result.stdout == Self.atSeq19)
    }

    /// The analyzer after reading the whole trace.
    static func analyzer() throws -> TraceAnalyzer {
        var analyzer = TraceAnalyzer(options: .init(grace: 1_000_000_000))
        for event in try readAll(text: trace).0.events { analyzer.consume(event) }
        analyzer.finish()
        return analyzer
    }

    @Test("TreeRenderer rows, plain: the same tree; rows with findings are flagged")
    func rendererPlain() throws {
        let analyzer = try Self.analyzer()
        let rows = TreeRenderer(style: .plain, findings: analyzer.findings).rows(analyzer.state)
        let expectedLines = Self.atEnd.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().prefix(7).map(String.init)
        #expect(rows.map(\.text) == expectedLines)
        #expect(rows.map(\.hasFinding) == [false, false, false, false, true, false, false])
        #expect(TreeRenderer.title(analyzer.state, style: .plain) == "snapshot (pid 7) at t=2.000s (after seq 23)")
    }

    @Test("TreeRenderer rows, coloured: the same text once the colours are removed")
    func rendererColoured() throws {
        let analyzer = try Self.analyzer()
        let plain = TreeRenderer(style: .plain, findings: analyzer.findings).rows(analyzer.state).map(\.text)
        let coloured = TreeRenderer(style: Style(enabled: true), findings: analyzer.findings).rows(analyzer.state).map(\.text)
        #expect(coloured.map(Self.withoutANSI) == plain)
        #expect(coloured[0].hasPrefix("\u{1B}[1mAppRouter#2\u{1B}[0m"), "names in bold")
        #expect(coloured[0].contains("\u{1B}[32mactive   \u{1B}[0m"), "active in green")
        #expect(coloured[4].contains("\u{1B}[31m! not-deallocated\u{1B}[0m"), "errors in red")
    }

    @Test("an empty tree says so")
    func emptyTree() {
        let rows = TreeRenderer(style: .plain).rows(TraceState())
        #expect(rows.map(\.text) == ["(no routers alive)"])
    }

    static func withoutANSI(_ text: String) -> String {
        var out = ""
        var inEscape = false
        for character in text {
            if inEscape {
                if character.isLetter { inEscape = false }
            } else if character == "\u{1B}" {
                inEscape = true
            } else {
                out.append(character)
            }
        }
        return out
    }
}
