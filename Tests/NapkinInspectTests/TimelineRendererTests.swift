import NapkinTrace
import Testing
@testable import napkin_inspect

@Suite("Timeline renderer")
struct TimelineRendererTests {
    private func render(_ fixture: RenderFixture, width: Int, filter: NodeFilter? = nil, style: Style = .plain) -> String {
        TimelineRenderer(style: style, width: width, filter: filter).lines(fixture.history).joined(separator: "\n")
    }

    @Test("a small trace: axis, one row per router indented by depth, task row, marks, legend")
    func smallSnapshot() {
        let expected = """
        demo (pid 42): 3 routers over 130ms
                           0                   50ms                100ms
                           ┬───────────────────┬───────────────────┬────────────
        marks                              *
        RootRouter#2       █████████████████████████████████████████████████████
          HomeRouter#4         █████████████████░░░×
            task: poll         [---------------!]
          SettingsRouter#7                             █████████░░░░░░░░░░░░░░░░

        Marks:
          40.000ms  open "settings"

        Legend:  █ attached, active  ▒ attached, inactive  ░ detached, alive
                 × deallocated  * mark
                 tasks: [ start  ] end  ! cancel requested  - running
                 ~ running after cancel  > still running
        """
        #expect(render(.small, width: 72) == expected)
    }

    @Test("--node keeps the matching rows and zooms the axis to them")
    func filteredSnapshot() {
        let expected = """
        demo (pid 42): 1 of 3 matching 'Home', 10ms to 130ms
                                    50ms                100ms
                     ───────────────┬───────────────────┬───────────
        marks                   *
        HomeRouter#4 ████████████████░░░×
          task: poll [--------------!]

        Marks:
          40.000ms  open "settings"

        Legend:  █ attached, active  ▒ attached, inactive
                 ░ detached, alive  × deallocated  * mark
                 tasks: [ start  ] end  ! cancel requested
                 - running  ~ running after cancel  > still running
        """
        #expect(render(.small, width: 60, filter: NodeFilter(name: "Home")) == expected)
    }

    @Test("attached but inactive under a detached parent, and a task running on after its cancellation")
    func leakySnapshot() {
        let expected = """
        leaky (pid 7): 3 routers over 100ms
                          0               50ms       100ms
                          ┬───────────────┬──────────────┬
        RootRouter#2      ████████████████████████████████
          ParentRouter#4     ██████████████░░░░░░░░░░░░░░░
            ChildRouter#6    ██████████████▒▒▒▒▒▒▒▒▒▒▒▒▒▒▒
              task: loop        [---------!~~~~~~~~~~~~~~>

        Legend:  █ attached, active  ▒ attached, inactive
                 ░ detached, alive  × deallocated  * mark
                 tasks: [ start  ] end  ! cancel requested
                 - running  ~ running after cancel
                 > still running
        """
        #expect(render(.leaky, width: 50) == expected)
    }

    @Test("no line is wider than the width asked for", arguments: [40, 57, 80, 120])
    func widths(width: Int) {
        for fixture in [RenderFixture.small, .leaky, .wide(30)] {
            for line in render(fixture, width: width).split(separator: "\n", omittingEmptySubsequences: false) {
                #expect(line.count <= width, "\(line)")
            }
        }
    }

    @Test("colour comes only from the style, and the text is the same without it")
    func colour() {
        let plain = render(.leaky, width: 60)
        let coloured = render(.leaky, width: 60, style: Style(enabled: true))
        #expect(!plain.contains("\u{1B}"))
        #expect(coloured.contains("\u{1B}[32m"))   // active in green
        #expect(coloured.contains("\u{1B}[33m"))   // detached in yellow
        #expect(stripANSI(coloured) == plain)
    }

    @Test("a trace without routers says so")
    func empty() {
        var fixture = RenderFixture(app: "empty")
        fixture.add(5, .mark(text: "nothing here"))
        let text = render(fixture, width: 80)
        #expect(text == "empty (pid 42): 0 routers over 5ms\n(no routers in this trace)")
    }

    @Test("deallocation is marked where it happened, and nothing is drawn after it")
    func deallocation() throws {
        let lines = render(.small, width: 72).split(separator: "\n")
        let home = try #require(lines.first { $0.contains("HomeRouter#4") })
        #expect(home.hasSuffix("\u{00D7}"))
        #expect(home.filter { $0 == "\u{00D7}" }.count == 1)
    }

    @Test("text from the trace cannot break the layout or send escape sequences to the terminal")
    func controlCharacters() {
        var fixture = RenderFixture(app: "evil\u{1B}[2J")
        fixture.router(2, "Root\nRouter", at: 0)
        fixture.add(0, .launch(router: 2))
        fixture.add(1, .taskStart(task: 5, owner: 1, label: "tab\there"))
        fixture.add(2, .mark(text: "line one\nline two\u{1B}[31m"))
        fixture.add(3, .sessionEnd(reason: "exit"))
        let text = render(fixture, width: 80)
        #expect(!text.contains("\u{1B}"))
        // Shown escaped, on the line they belong to (PrintableText).
        #expect(text.contains(#"Root\nRouter#2"#))
        #expect(text.contains(#"task: tab\there"#))
        #expect(text.contains(#"line one\nline two\e[31m"#))
        #expect(text.hasPrefix(#"evil\e[2J (pid 42): 1 router over 3ms"# + "\n"))
    }

    /// A router whose view is shown, covered, removed while covered (the whole
    /// stack popped), shown again, covered, and whose router goes at 95 ms.
    static var viewLaneFixture: RenderFixture {
        var f = RenderFixture()
        f.launch(2, "RootRouter", at: 0)
        f.attach(4, "StackRouter", to: 2, at: 0)
        f.add(0, .view(router: 4, appearance: .shown))
        f.add(20, .view(router: 4, appearance: .covered))
        f.add(40, .view(router: 4, appearance: .removed))
        f.add(60, .view(router: 4, appearance: .shown))
        f.add(80, .view(router: 4, appearance: .covered))
        f.add(90, .detach(parent: 2, child: 4))
        f.add(90, .deactivate(interactor: 3))
        f.add(95, .deallocated(id: 4))
        f.add(100, .sessionEnd(reason: "exit"))
        return f
    }

    @Test("the view lane: covered until the next removal, showing or deinit; a removal wins its column; no lane without view events")
    func viewLane() throws {
        let fixture = Self.viewLaneFixture
        let life = try #require(fixture.history.life(of: 4))
        let covered = TimelineRenderer.coveredSpans(life, end: 100_000_000)
        #expect(covered.map(\.start) == [20_000_000, 80_000_000])
        #expect(covered.map(\.stop) == [40_000_000, 95_000_000])
        // 50 columns of 2 ms: shown 0-20 ms, covered to 40 ms, removed at 40 ms, shown 60-80 ms, covered to the deinit.
        let lines = render(fixture, width: 66).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let row = try #require(lines.firstIndex { $0.hasPrefix("  StackRouter#4") })
        #expect(lines[row + 1] == "    view        " + String(repeating: "=", count: 11) + String(repeating: ".", count: 9) + "<"
                + String(repeating: " ", count: 9) + String(repeating: "=", count: 11) + String(repeating: ".", count: 7), "\(lines)")
        #expect(!lines[row - 1].contains("view"), "the root reported no view: no lane")
        #expect(lines.last == "         view: = shown  . covered  < gone (popped, dismissed)")
        #expect(!render(.small, width: 72).contains("view"), "no lane and no legend without view events")
    }

    @Test("axis ticks fall on round times", arguments: [
        (UInt64(0), UInt64(130_000_000), 53, ["0", "50ms", "100ms"]),
        (UInt64(0), UInt64(2_400_000_000), 60, ["0", "0.5s", "1.0s", "1.5s", "2.0s"]),
        (UInt64(0), UInt64(90_000_000_000), 60, ["0", "20s", "40s", "60s", "80s"]),
        (UInt64(0), UInt64(600_000_000_000), 60, ["0", "2m00s", "4m00s", "6m00s", "8m00s", "10m00s"]),
        (UInt64(0), UInt64(800_000), 80, ["0", "200\u{00B5}s", "400\u{00B5}s", "600\u{00B5}s", "800\u{00B5}s"]),
    ])
    func ticks(start: UInt64, stop: UInt64, columns: Int, expected: [String]) {
        let scale = TimelineRenderer.Scale(start: start, stop: stop, columns: columns)
        #expect(scale.ticks(minimumSpacing: 12).map(\.text) == expected)
    }
}
