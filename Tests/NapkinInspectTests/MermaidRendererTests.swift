import NapkinTrace
import Testing
@testable import napkin_inspect

@Suite("Mermaid renderer")
struct MermaidRendererTests {
    // MARK: - Snapshots

    @Test("flowchart of the tree at the end: live tree, a leaked router outside it, styled by finding")
    func flowchartSnapshot() {
        let analyzer = RenderFixture.small.analyzer()
        #expect(analyzer.findings.map(\.rule) == [.notDeallocated])
        let expected = """
        flowchart TD
          n2["RootRouter #35;2
        active"]
          subgraph outside["outside the tree, still alive"]
            n7("SettingsRouter #35;7
        detached
        ! not-deallocated")
          end
          classDef active fill:#e6f4ea,stroke:#2e7d32,color:#000
          class n2 active
          classDef error fill:#ffd6d6,stroke:#c62828,stroke-width:3px,color:#000
          class n7 error

        """
        #expect(MermaidRenderer.flowchart(analyzer.state, findings: analyzer.findings) == expected)
    }

    @Test("flowchart mid-trace: edges parent --> child, running tasks, no subgraph when nothing is outside")
    func flowchartMidTrace() {
        let fixture = RenderFixture.small.until(ms: 20)
        let expected = """
        flowchart TD
          n2["RootRouter #35;2
        active"]
          n4["HomeRouter #35;4
        active, 1 task"]
          n2 --> n4
          classDef active fill:#e6f4ea,stroke:#2e7d32,color:#000
          class n2,n4 active

        """
        #expect(MermaidRenderer.flowchart(fixture.state, findings: []) == expected)
    }

    @Test("flowchart of an empty tree says so, and lists findings about nodes that are gone")
    func flowchartEmpty() {
        let empty = MermaidRenderer.flowchart(TraceState(), findings: [])
        #expect(empty.contains("traceNotes[\"no routers alive\"]"))
        let gone = Finding(rule: .orphanedTask, subject: .task, type: "PitInteractor", id: 99, label: "poll",
                           seqs: [3], time: 0, message: "m")
        let dropped = Finding(rule: .eventsDropped, subject: .trace, type: "trace", id: 0, seqs: [], time: 0, message: "m")
        let text = MermaidRenderer.flowchart(TraceState(), findings: [gone, dropped])
        #expect(text.contains("! events-dropped"))
        #expect(text.contains("findings about nodes no longer alive#58; orphaned-task"))
        #expect(text.contains("class traceNotes error"))
    }

    @Test("flowchart shows an interactor whose router is gone, outside the tree, with its findings")
    func flowchartLoneInteractor() {
        var fixture = RenderFixture.small.until(ms: 20)
        fixture.add(30, .detach(parent: 2, child: 4))
        fixture.add(30, .deallocated(id: 4))
        let finding = Finding(rule: .notDeallocated, subject: .interactor, type: "HomeInteractor", id: 3, seqs: [1], time: 0, message: "m")
        let text = MermaidRenderer.flowchart(fixture.state, findings: [finding])
        let expected = """
          subgraph outside["outside the tree, still alive"]
            n3{{"HomeInteractor #35;3
        interactor, active, router gone, 1 task
        ! not-deallocated"}}
          end
        """
        #expect(text.contains(expected))
        #expect(text.contains("class n3 error"))
        #expect(!text.contains("n4"))
    }

    @Test("gantt: one section per router, attached/active/task bars, deinit milestone, marks")
    func ganttSnapshot() {
        let expected = """
        ---
        config:
          gantt:
            leftPadding: 143
        ---
        gantt
          title demo (pid 42)#58; lifecycles
          dateFormat x
          axisFormat %-S.%L s
          todayMarker off
          section RootRouter #35;2
            launched :n2a0, 1, 130
            active :active, n2b0, 1, 130
          section HomeRouter #35;4
            attached :n4a0, 10, 50
            detached (alive) :done, n4x1, 50, 60
            active :active, n4b0, 10, 50
            task 'poll' :done, n4t0, 12, 50
            task 'poll' after cancel :crit, n4c0, 50, 52
            deinit :milestone, n4d, 60, 0ms
          section SettingsRouter #35;7
            attached :n7a0, 70, 90
            detached (alive) :crit, n7x1, 90, 130
            active :active, n7b0, 70, 90
          section marks
            #111;pen #34;settings#34; :milestone, k0, 40, 0ms

        """
        #expect(MermaidRenderer.gantt(RenderFixture.small.history) == expected)
    }

    @Test("gantt with a filter keeps only the matching routers and says so in the title")
    func ganttFiltered() {
        let text = MermaidRenderer.gantt(RenderFixture.small.history, filter: NodeFilter(name: "home"))
        #expect(text.contains("section HomeRouter #35;4"))
        #expect(!text.contains("RootRouter"))
        #expect(!text.contains("SettingsRouter"))
        #expect(!text.contains("section marks"))
        #expect(text.contains("title demo (pid 42)#58; lifecycles of 'home'"))
    }

    @Test("sequence: participants in order of appearance, attach/detach arrows, launch, deinit and marks as notes")
    func sequenceSnapshot() {
        let expected = """
        sequenceDiagram
          participant n2 as RootRouter #35;2
          participant n4 as HomeRouter #35;4
          participant n7 as SettingsRouter #35;7
          Note over n2: launch
          n2->>n4: attach
          Note over n2,n7: open #34;settings#34;
          n2-xn4: detach
          Note over n4: deinit
          n2->>n7: attach
          n2-xn7: detach

        """
        #expect(MermaidRenderer.sequence(RenderFixture.small.history) == expected)
    }

    @Test("sequence of a trace without routers still has a participant")
    func sequenceEmpty() {
        var fixture = RenderFixture(app: "lonely")
        fixture.add(1, .mark(text: "hello"))
        let text = MermaidRenderer.sequence(fixture.history)
        #expect(text == "sequenceDiagram\n  participant n0 as lonely\n  Note over n0: hello\n")
    }

    @Test("markdown wraps the diagram in a mermaid fence")
    func markdownFence() {
        #expect(MermaidRenderer.markdown("flowchart TD\n") == "```mermaid\nflowchart TD\n```\n")
        #expect(MermaidRenderer.markdown("gantt") == "```mermaid\ngantt\n```\n")
    }

    // MARK: - Escaping

    @Test("escape keeps plain text and turns everything risky into entity codes", arguments: [
        ("HomeRouter", "HomeRouter"),
        ("say \"hi\"", "say #34;hi#34;"),
        ("Box<Int>", "Box#60;Int#62;"),
        ("a#1;b", "a#35;1#59;b"),
        ("key: value", "key#58; value"),
        ("[x] {y}", "#91;x#93; #123;y#125;"),
        ("R&D 100%", "R#38;D 100#37;"),
        ("`code`", "#96;code#96;"),
        ("Café ☕", "Caf#233; #9749;"),
        ("😀", "#128512;"),
        ("two\nlines\ttab", "two lines tab"),
        ("bell\u{07}", "bell"),
        ("*a* _b_ ~~c~~ $$d$$", "#42;a#42; #95;b#95; #126;#126;c#126;#126; #36;#36;d#36;#36;"),
    ])
    func escaping(input: String, expected: String) {
        #expect(MermaidRenderer.escape(input) == expected)
    }

    @Test("escape shortens long text with an ellipsis")
    func escapeLimit() {
        let long = String(repeating: "a", count: 100)
        #expect(MermaidRenderer.escape(long, limit: 10) == "aaaaaaaaa#8230;")
        #expect(MermaidRenderer.escape("short", limit: 10) == "short")
    }

    @Test("hostile type names, labels and marks never reach a diagram raw")
    func hostileNames() {
        let hostile = "Box<Int>; \"q\" #1 a:b [x] (y) é end *a_b*"
        let fixture = RenderFixture.hostile(root: hostile, child: "Child%%{init}%%", taskLabel: "task: <b>bold</b>",
                                            mark: "mark; with # and \"quotes\" --> arrow")
        let escapedName = "Box#60;Int#62;#59; #34;q#34; #35;1 a#58;b #91;x#93; (y) #233; end #42;a#95;b#42;"
        let diagrams = [
            MermaidRenderer.flowchart(fixture.state, findings: []),
            MermaidRenderer.gantt(fixture.history),
            MermaidRenderer.sequence(fixture.history),
        ]
        for text in diagrams {
            #expect(text.contains(escapedName))
            #expect(!text.contains("Box<Int>"))
            #expect(!text.contains("%%{"))
            #expect(!text.contains("<b>"))
            #expect(!text.contains("<br"))  // with <br/>, mermaid would apply Markdown to the decoded text
            #expect(!text.contains("mark;"))
            #expect(!text.contains("-->  arrow") && !text.contains("--> arrow"))
            // Outside entity codes, a label line has no ; # or quote of its own.
            for line in text.split(separator: "\n") where line.contains(escapedName) {
                let stripped = line.replacing(/#\d+;/, with: "")
                #expect(!stripped.contains(";"), "\(line)")
                #expect(!stripped.contains("#"), "\(line)")
            }
            #expect(text.unicodeScalars.allSatisfy { $0.isASCII }, "non-ASCII must be escaped")
        }
    }

    // MARK: - Caps

    @Test("enormous trees, charts and sequences are capped with a note, and stay under mermaid's size limit")
    func caps() {
        let fixture = RenderFixture.wide(300)
        let flowchart = MermaidRenderer.flowchart(fixture.state, findings: [])
        let nodes = flowchart.split(separator: "\n").filter { $0.contains("[\"") && !$0.contains("traceNotes[") }
        #expect(nodes.count == MermaidRenderer.maxNodes)
        #expect(flowchart.contains("#8230; 101 more not shown"))
        #expect(flowchart.utf8.count < 50_000)

        let gantt = MermaidRenderer.gantt(fixture.history)
        #expect(gantt.split(separator: "\n").filter { $0.hasPrefix("  section ChildRouter") }.count == MermaidRenderer.maxSections - 1)
        #expect(gantt.contains("#8230; 101 more not shown"))
        #expect(gantt.utf8.count < 50_000)

        let sequence = MermaidRenderer.sequence(fixture.history)
        #expect(sequence.split(separator: "\n").filter { $0.hasPrefix("  participant ") }.count == MermaidRenderer.maxParticipants)
        #expect(sequence.contains("#8230; 101 more events not shown (101 more routers)"))
        #expect(sequence.utf8.count < 50_000)
    }

    @Test("the axis format suits the length of the trace")
    func axisFormats() {
        #expect(MermaidRenderer.axisFormat(2_000_000_000) == "%-S.%L s")
        #expect(MermaidRenderer.axisFormat(30_000_000_000) == "%-S s")
        #expect(MermaidRenderer.axisFormat(600_000_000_000) == "%-M:%S")
    }

    @Test("node filter: type name contains NAME (any case), or id is NAME (router or its interactor)")
    func nodeFilter() throws {
        let history = RenderFixture.small.history
        let home = try #require(history.life(of: 4))
        #expect(NodeFilter(name: "Home").matches(home))
        #expect(NodeFilter(name: "home").matches(home))
        #expect(NodeFilter(name: "4").matches(home))
        #expect(NodeFilter(name: "3").matches(home))
        #expect(!NodeFilter(name: "Settings").matches(home))
        #expect(!NodeFilter(name: "7").matches(home))
    }
}
