import NapkinTrace
import NapkinTraceReader
import Testing
@testable import napkin_inspect
import TestSupport

/// The inspector without a terminal: keys change an ``InspectorState``, and
/// frames (``LiveView/frame(_:inspector:)``) settle and draw it.
@Suite("live inspector state")
struct InspectorStateTests {
    /// A root with `children` attached (Order and Menu routers, alternately),
    /// and one router never attached (outside the tree).
    static func analyzer(children: Int) -> TraceAnalyzer {
        var fixture = RenderFixture(app: "inspect")
        fixture.launch(2, "RootRouter", at: 0)
        for k in 0..<children {
            fixture.attach(NodeID(4 + 2 * k), k % 2 == 0 ? "OrderRouter" : "MenuRouter", to: 2, at: 1)
        }
        fixture.router(1_000, "StrayRouter", at: 2)
        var analyzer = TraceAnalyzer()
        for event in fixture.events { analyzer.consume(event) }
        return analyzer
    }

    /// One plain frame of `analyzer`, `rows` high.
    static func frame(_ analyzer: TraceAnalyzer, _ inspector: inout InspectorState, rows: Int = 20,
                      style: Style = .plain, matches: FilterMatches? = nil, sessions: Int = 1) -> [String] {
        var facts = LiveFrame(analyzer: analyzer)
        facts.size = (rows, 100)
        facts.matches = matches ?? inspector.nodeFilter.map { FilterMatches(analyzer.state, filter: $0) }
        facts.sessions = (0..<sessions).map { SessionTabBar.Item(name: "app \($0 + 1)", ended: $0 == 0, findings: $0) }
        facts.sessionIndex = inspector.session
        return LiveView(style: style, sourceName: "test").frame(facts, inspector: &inspector)
    }

    /// The selected row of a plain frame (the one marked `>`), without the marker.
    static func selectedRow(_ frame: [String]) -> String? {
        frame.first { $0.hasPrefix("> ") }.map { String($0.dropFirst(2)) }
    }

    /// Applies `keys` in one batch.
    static func press(_ keys: Key..., on inspector: inout InspectorState, sessions: Int = 1) -> [InspectorState.Travel] {
        keys.compactMap { inspector.handle($0, sessionCount: sessions) }
    }

    @Test("the first node is selected from the start; ↓ ↑ j k move the selection, a heading is stepped over")
    func selection() {
        let analyzer = Self.analyzer(children: 3)
        var inspector = InspectorState()
        var frame = Self.frame(analyzer, &inspector)
        #expect(Self.selectedRow(frame)?.hasPrefix("RootRouter#2 ") == true, "\(frame)")
        #expect(frame.filter { $0.hasPrefix("> ") }.count == 1)
        #expect(frame.contains { $0.hasPrefix("  \u{251C}\u{2500} OrderRouter#4 ") }, "other rows get a blank gutter: \(frame)")
        _ = Self.press(.down, .character("j"), on: &inspector)
        frame = Self.frame(analyzer, &inspector)
        #expect(Self.selectedRow(frame)?.hasPrefix("\u{251C}\u{2500} MenuRouter#6 ") == true, "\(frame)")
        _ = Self.press(.down, on: &inspector)
        #expect(Self.selectedRow(Self.frame(analyzer, &inspector))?.hasPrefix("\u{2514}\u{2500} OrderRouter#8 ") == true)
        // Down again: over the heading "Outside the tree, still alive:" to the stray router.
        _ = Self.press(.down, on: &inspector)
        frame = Self.frame(analyzer, &inspector)
        #expect(Self.selectedRow(frame)?.hasPrefix("  StrayRouter#1000 ") == true, "\(frame)")
        #expect(inspector.selected?.name == "StrayRouter#1000")
        // Past the last row: stays on it. Up: over the heading again.
        _ = Self.press(.down, .down, on: &inspector)
        #expect(Self.selectedRow(Self.frame(analyzer, &inspector))?.hasPrefix("  StrayRouter#1000 ") == true)
        _ = Self.press(.up, on: &inspector)
        #expect(Self.selectedRow(Self.frame(analyzer, &inspector))?.hasPrefix("\u{2514}\u{2500} OrderRouter#8 ") == true)
        _ = Self.press(.character("k"), .character("k"), .character("k"), .up, on: &inspector)
        #expect(Self.selectedRow(Self.frame(analyzer, &inspector))?.hasPrefix("RootRouter#2 ") == true)
    }

    @Test("with colours, the selected row is in reverse video and no gutter is drawn")
    func reverseVideo() {
        var inspector = InspectorState()
        let frame = Self.frame(Self.analyzer(children: 2), &inspector, style: Style(enabled: true))
        let selected = frame.filter { $0.contains("\u{1B}[7m") }
        #expect(selected.count == 1 && selected.first?.hasPrefix("\u{1B}[7mRootRouter#2 ") == true, "\(frame)")
        #expect(!frame.contains { $0.hasPrefix("> ") })
    }

    @Test("PgDn, PgUp, Home and End scroll a tree taller than the screen; the rule says where the window is")
    func scrolling() {
        let analyzer = Self.analyzer(children: 60)  // 1 root, 60 children, a heading, the stray: 63 rows
        var inspector = InspectorState()
        var frame = Self.frame(analyzer, &inspector, rows: 12)  // header, rule, 9 rows, status
        #expect(inspector.pageSize == 9)
        #expect(frame[1].contains("rows 1\u{2013}9 of more"), "\(frame[1])")
        _ = Self.press(.pageDown, on: &inspector)
        frame = Self.frame(analyzer, &inspector, rows: 12)
        #expect(inspector.cursor == 9 && inspector.scroll == 1, "the window follows the cursor to its last row")
        #expect(Self.selectedRow(frame)?.contains("OrderRouter#20 ") == true, "\(frame)")
        _ = Self.press(.end, on: &inspector)
        frame = Self.frame(analyzer, &inspector, rows: 12)
        #expect(Self.selectedRow(frame)?.hasPrefix("  StrayRouter#1000") == true, "\(frame)")
        #expect(frame[1].contains("rows 55\u{2013}63 of 63"), "\(frame[1])")
        #expect(frame[10].hasPrefix("> "), "the last row of the tree is on the last row of the window")
        _ = Self.press(.pageUp, on: &inspector)
        frame = Self.frame(analyzer, &inspector, rows: 12)
        #expect(inspector.cursor == 53 && inspector.scroll == 53, "\(inspector.cursor) \(inspector.scroll)")
        _ = Self.press(.home, on: &inspector)
        frame = Self.frame(analyzer, &inspector, rows: 12)
        #expect(Self.selectedRow(frame)?.hasPrefix("RootRouter#2") == true && inspector.scroll == 0)
        #expect(frame.count == 12)
    }

    @Test("the selection follows its node as the tree changes, unless a key moved it")
    func followsNode() {
        var fixture = RenderFixture(app: "follow")
        fixture.launch(2, "RootRouter", at: 0)
        fixture.attach(4, "OrderRouter", to: 2, at: 1)
        fixture.attach(6, "MenuRouter", to: 2, at: 1)
        var analyzer = TraceAnalyzer()
        for event in fixture.events { analyzer.consume(event) }
        var inspector = InspectorState()
        _ = Self.frame(analyzer, &inspector)
        _ = Self.press(.down, .down, on: &inspector)
        #expect(Self.selectedRow(Self.frame(analyzer, &inspector))?.contains("MenuRouter#6") == true)
        // OrderRouter#4 leaves the tree: MenuRouter#6 moves up a row, the selection with it.
        analyzer.consume(TraceEvent(seq: 100, time: 5_000_000, kind: .detach(parent: 2, child: 4)))
        #expect(Self.selectedRow(Self.frame(analyzer, &inspector))?.contains("MenuRouter#6") == true)
        #expect(inspector.cursor == 1)
    }

    @Test("/ opens the filter prompt: typing filters the tree to the matches and their ancestors, Enter keeps it, Esc clears it")
    func filter() {
        let analyzer = Self.analyzer(children: 4)
        var inspector = InspectorState()
        _ = Self.press(.character("/"), .character("m"), .character("e"), .character("n"), .character("q"), .backspace, on: &inspector)
        #expect(inspector.editingFilter && inspector.filter == "men" && !inspector.quit, "q is text in the prompt")
        var frame = Self.frame(analyzer, &inspector)
        #expect(frame.last?.hasPrefix("/men\u{2588}") == true, "the prompt on the status line: \(frame.last ?? "")")
        #expect(frame.last?.contains("2 matches") == true)
        let tree = frame.dropFirst(2).prefix { !$0.isEmpty }
        #expect(tree.count == 3, "the root (an ancestor) and the two menus: \(tree)")
        #expect(tree.contains { $0.contains("MenuRouter#6") } && tree.contains { $0.contains("MenuRouter#10") })
        #expect(!tree.contains { $0.contains("OrderRouter") || $0.contains("StrayRouter") })
        _ = Self.press(.enter, on: &inspector)
        frame = Self.frame(analyzer, &inspector)
        #expect(!inspector.editingFilter && inspector.filter == "men" && inspector.details == nil)
        #expect(frame.last?.contains("filter 'men', 2 matches; Esc clears") == true, "\(frame.last!.debugDescription)")
        _ = Self.press(.escape, on: &inspector)
        #expect(inspector.filter.isEmpty)
        // By id, and Esc in the prompt clears.
        _ = Self.press(.character("/"), .character("1"), .character("0"), .character("0"), .character("0"), on: &inspector)
        frame = Self.frame(analyzer, &inspector)
        #expect(frame.contains { $0.contains("StrayRouter#1000") } && !frame.contains { $0.contains("RootRouter") }, "\(frame)")
        _ = Self.press(.escape, on: &inspector)
        #expect(inspector.filter.isEmpty && !inspector.editingFilter)
        _ = Self.press(.character("/"), .character("x"), .character("y"), .character("z"), on: &inspector)
        #expect(Self.frame(analyzer, &inspector).contains { $0.contains("(no router or interactor matches the filter)") })
    }

    @Test("space pauses and resumes; ← → step and [ ] jump only through the moments the history can rebuild; l goes live")
    func pauseAndStep() throws {
        let events = LiveHistoryTests.trace(cycles: 300)  // a cycle every 10 ms, about 3 s
        var history = LiveHistory(budget: HistoryBudget(total: 1_000_000), maxEvents: 100_000, spacing: 0)
        _ = LiveHistoryTests.record(events, into: &history)
        let newest = events.count
        var inspector = InspectorState()
        #expect(Self.press(.right, .character("]"), on: &inspector).isEmpty, "nothing ahead of live")
        let pause = Self.press(.character(" "), on: &inspector)
        #expect(pause == [.pause])
        inspector.travel(.pause, history: history, newest: newest)
        #expect(inspector.moment == .paused(newest))
        for travel in Self.press(.left, .left, .left, on: &inspector) { inspector.travel(travel, history: history, newest: newest) }
        #expect(inspector.moment == .paused(newest - 3))
        for travel in Self.press(.right, on: &inspector) { inspector.travel(travel, history: history, newest: newest) }
        #expect(inspector.moment == .paused(newest - 2))
        for travel in Self.press(.character("["), on: &inspector) { inspector.travel(travel, history: history, newest: newest) }
        guard case .paused(let back) = inspector.moment else { Issue.record("not paused"); return }
        #expect(events[newest - 3].time - events[back - 1].time >= 1_000_000_000)
        for travel in Self.press(.character("]"), on: &inspector) { inspector.travel(travel, history: history, newest: newest) }
        guard case .paused(let forward) = inspector.moment else { Issue.record("not paused"); return }
        #expect(forward > back && events[forward - 1].time >= events[back - 1].time + 1_000_000_000)
        // Far back: the oldest moment in reach, never before it; far forward: the newest.
        for _ in 0..<10 { inspector.travel(.jump(seconds: -1), history: history, newest: newest) }
        #expect(inspector.moment == .paused(try #require(history.reachable).lowerBound))
        inspector.travel(.step(-1), history: history, newest: newest)
        #expect(inspector.moment == .paused(1))
        for _ in 0..<10 { inspector.travel(.jump(seconds: 1), history: history, newest: newest) }
        #expect(inspector.moment == .paused(newest))
        _ = Self.press(.character("l"), on: &inspector)
        #expect(inspector.moment == .live)
        // ← while live pauses first; space resumes.
        for travel in Self.press(.left, on: &inspector) { inspector.travel(travel, history: history, newest: newest) }
        #expect(inspector.moment == .paused(newest - 1))
        _ = Self.press(.character(" "), on: &inspector)
        #expect(inspector.moment == .live)
    }

    @Test("back never moves forward: from a moment the history dropped while paused, ← and [ stay", .dedicatedThread, .singleThreaded)
    func droppedMoment() {
        let events = LiveHistoryTests.trace(cycles: 3_000)
        var history = LiveHistory(budget: HistoryBudget(total: 1_000_000), maxEvents: 8_192, spacing: 0)
        _ = LiveHistoryTests.record(events, into: &history)
        var inspector = InspectorState()
        inspector.moment = .paused(10)
        inspector.travel(.step(-1), history: history, newest: events.count)
        #expect(inspector.moment == .paused(10))
        inspector.travel(.jump(seconds: -1), history: history, newest: events.count)
        #expect(inspector.moment == .paused(10))
        inspector.travel(.step(1), history: history, newest: events.count)
        #expect(inspector.moment == .paused(history.reachable!.lowerBound), "forward goes to the oldest moment in reach")
    }

    @Test("? shows the help, listing every key; the next key only closes it")
    func help() {
        let analyzer = Self.analyzer(children: 2)
        var inspector = InspectorState()
        _ = Self.press(.character("?"), on: &inspector)
        let frame = Self.frame(analyzer, &inspector, rows: 30)
        for binding in InspectorKeys.all {
            #expect(frame.contains { $0.contains(binding.keys) && $0.contains(binding.action.prefix(20)) }, "\(binding.keys)")
        }
        #expect(frame.last == "press any key to close the help")
        _ = Self.press(.character("q"), on: &inspector)
        #expect(!inspector.showingHelp && !inspector.quit, "the key that closes the help does nothing else")
        _ = Self.press(.character("q"), on: &inspector)
        #expect(inspector.quit)
        var interrupted = InspectorState()
        _ = Self.press(.character("?"), .interrupt, on: &interrupted)
        #expect(interrupted.quit, "Ctrl-C quits even from the help")
    }

    @Test("Tab, Shift-Tab and 1-9 switch sessions; the session bar shows them all, the current one marked")
    func sessions() {
        var inspector = InspectorState()
        _ = Self.press(.tab, on: &inspector, sessions: 3)
        #expect(inspector.session == 1)
        _ = Self.press(.tab, .tab, on: &inspector, sessions: 3)
        #expect(inspector.session == 0, "wraps around")
        _ = Self.press(.backTab, on: &inspector, sessions: 3)
        #expect(inspector.session == 2)
        _ = Self.press(.character("2"), on: &inspector, sessions: 3)
        #expect(inspector.session == 1)
        _ = Self.press(.character("9"), on: &inspector, sessions: 3)
        #expect(inspector.session == 1, "no 9th session: ignored")
        let frame = Self.frame(Self.analyzer(children: 1), &inspector, sessions: 3)
        #expect(frame[0].hasPrefix("napkin-inspect live  [2/3] inspect (pid 42)"), "\(frame[0])")
        #expect(frame[1].contains("1 app 1 ended, no findings") && frame[1].contains("[2 app 2 live, 1 finding]")
                && frame[1].contains("3 app 3 live, 2 findings"), "\(frame[1])")
        #expect(frame[2].hasPrefix("\u{2500}\u{2500}"))
        // Switching while paused stays paused, at the other session's newest moment.
        inspector.moment = .paused(5)
        #expect(Self.press(.tab, on: &inspector, sessions: 3) == [.pause])
        inspector.session = 0
        #expect(Self.press(.tab, on: &inspector, sessions: 1).isEmpty, "one session: nothing to switch to")
    }

    @Test("a session bar too long for the screen keeps the sessions nearest the one shown")
    func longSessionTabBar() {
        let items = (1...40).map { SessionTabBar.Item(name: "process-\($0)", ended: false, findings: 0) }
        let line = SessionTabBar.line(items, current: 20, style: .plain, columns: 100)
        #expect(line.count <= 102 && line.contains("[21 process-21 live, no findings]"), "\(line)")
        #expect(line.hasPrefix("\u{2026}") && line.hasSuffix("\u{2026}"))
    }

    @Test("Enter opens the details of the node the cursor is on, even when the keys of one batch moved it; Enter or Esc closes them")
    func details() {
        let analyzer = Self.analyzer(children: 3)
        var inspector = InspectorState()
        _ = Self.frame(analyzer, &inspector)
        _ = Self.press(.down, .down, .enter, on: &inspector)
        var frame = Self.frame(analyzer, &inspector, rows: 30)
        #expect(inspector.details?.name == "MenuRouter#6")
        #expect(frame[2].hasPrefix("MenuRouter#6  router"), "\(frame)")
        #expect(frame.contains { $0.contains("state") && $0.contains("active, attached to RootRouter#2 (in the live tree)") }, "\(frame)")
        #expect(frame.contains { $0.contains("interactor") && $0.contains("MenuInteractor#5, active since seq") })
        #expect(frame.contains("Findings none at this moment"))
        _ = Self.press(.enter, on: &inspector)
        #expect(inspector.details == nil)
        _ = Self.press(.enter, on: &inspector)
        frame = Self.frame(analyzer, &inspector)
        #expect(inspector.details?.name == "MenuRouter#6")
        _ = Self.press(.escape, on: &inspector)
        #expect(inspector.details == nil)
    }

    @Test("the details of a node with a finding: the rule's meaning and fix, as docs/findings.md says them; the events kept about it")
    func detailsOfAFinding() throws {
        let events = try readAll(path: PackagePaths.url("Examples/traces/bug-swipe-back.ndjson").path).0.events
        var history = LiveHistory(budget: HistoryBudget(total: 1_000_000), spacing: 0)
        var analyzer = TraceAnalyzer()
        var index = 0
        // Up to the moment the finding is made (OrderRouter#18, still alive then).
        while analyzer.findings.isEmpty, index < events.count {
            analyzer.consume(events[index])
            history.record(events[index], analyzer: analyzer)
            index += 1
        }
        let finding = try #require(analyzer.findings.first)
        #expect(finding.rule == .viewGoneStillAttached)
        var log = NodeLog(node: finding.id, interactor: analyzer.state[finding.id]?.interactor, session: ObjectIdentifier(LiveSessionList.self))
        log.update(history, to: index)
        let pin = InspectorState.Pin(id: finding.id, name: try #require(analyzer.state[finding.id]).name)
        let lines = NodeDetails(style: .plain, width: 100).lines(pin, analyzer: analyzer, log: log)
        #expect(lines.allSatisfy { $0.count <= 100 || $0.hasPrefix("      ") }, "prose is wrapped to the width: \(lines)")
        func flat(_ text: String) -> String { text.split(whereSeparator: \.isWhitespace).joined(separator: " ") }
        let text = flat(lines.joined(separator: " "))
        let help = Finding.Rule.viewGoneStillAttached.help
        let fixStart = flat(SARIFRules.withoutPageLinks(help.fix)).prefix(120)
        #expect(text.contains(fixStart), "the fix: \(fixStart)")
        #expect(text.contains(flat(SARIFRules.withoutPageLinks(help.meaning)).prefix(120)))
        #expect(text.contains("error[view-gone-still-attached] OrderRouter#18"))
        #expect(text.contains("at RibHouse/LoggedInRouter.swift:58 (attached)"))
        #expect(text.contains("attached to LoggedInRouter#6 at RibHouse/LoggedInRouter.swift:58"), "its history, with the code location")
        #expect(text.contains("view removed"))
        #expect(lines.contains { $0.hasPrefix("OrderRouter#18  router") })
    }

    @Test("the details of an interactor stuck in a hook: the hook and since when, and the stuck-hook finding; a returned hook in the history")
    func detailsOfAStuckHook() throws {
        func details(_ fixture: String) throws -> String {
            let events = try Fixtures.events(fixture)
            var history = LiveHistory(budget: HistoryBudget(total: 1_000_000), spacing: 0)
            var analyzer = TraceAnalyzer()
            let count = events.count
            for event in events {
                analyzer.consume(event)
                history.record(event, analyzer: analyzer)
            }
            analyzer.finish()
            var log = NodeLog(node: 4, interactor: 3, session: ObjectIdentifier(LiveSessionList.self))
            log.update(history, to: count)
            let pin = InspectorState.Pin(id: 4, name: "ScoresRouter#4")
            return NodeDetails(style: .plain, width: 200).lines(pin, analyzer: analyzer, log: log).joined(separator: "\n")
        }
        let stuck = try details("stuck-hook")
        #expect(stuck.contains("hook        didBecomeActive running since seq 11"), "\(stuck)")
        #expect(stuck.contains("error[stuck-hook] ScoresInteractor#3: didBecomeActive has not returned"), "\(stuck)")
        #expect(!stuck.contains("interactor's hook returned"), "\(stuck)")
        let clean = try details("stuck-hook-clean")
        #expect(!clean.contains("running since seq"), "\(clean)")
        #expect(clean.contains("interactor's hook returned"), "\(clean)")
    }

    @Test("the details of a leaked router a retainer search explained: its paths under Retained by, under its finding, and the record in its history")
    func detailsOfARetainedRouter() throws {
        let events = try Fixtures.events("not-deallocated-retained")
        var history = LiveHistory(budget: HistoryBudget(total: 1_000_000), spacing: 0)
        var analyzer = TraceAnalyzer()
        for event in events {
            analyzer.consume(event)
            history.record(event, analyzer: analyzer)
        }
        analyzer.finish()
        var log = NodeLog(node: 6, interactor: 5, session: ObjectIdentifier(LiveSessionList.self))
        log.update(history, to: events.count)
        let pin = InspectorState.Pin(id: 6, name: "ShopRouter#6")
        let lines = NodeDetails(style: .plain, width: 200).lines(pin, analyzer: analyzer, log: log)
        let store = "retained by: RootInteractor#1.store (suspect) → ScreenStore.screens[0] → ShopRouter#6"
        let closure = "retained by: RootInteractor#1.onTap{closure} (suspect) → ShopRouter#6"
        let held = try #require(lines.firstIndex { $0.hasPrefix("Retained by") }, "\(lines)")
        #expect(Array(lines[(held + 1)...].prefix(3)) == ["  " + store, "  " + closure, "  2 of 2 strong references found"])
        let finding = try #require(lines.firstIndex { $0.hasPrefix("  error[not-deallocated] ShopRouter#6") }, "\(lines)")
        #expect(Array(lines[(finding + 1)...].prefix(3)) == ["    " + store, "    " + closure, "    2 of 2 strong references found"])
        #expect(lines.contains { $0.contains("retainer search about ShopRouter#6: 2 of 2 strong references found") }, "its history")
    }

    @Test("every key of the help is in the key table of docs/live.md")
    func documented() throws {
        let page = try String(contentsOf: PackagePaths.root.appendingPathComponent("docs/live.md"), encoding: .utf8)
        let table = page.split(separator: "\n").filter { $0.hasPrefix("| `") }
        for binding in InspectorKeys.all {
            for key in binding.keys.split(whereSeparator: { $0 == " " || $0 == "," }) {
                #expect(table.contains { $0.contains("`\(key)`") }, "docs/live.md does not list `\(key)` (\(binding.action))")
            }
        }
    }

    @Test("a frame is exactly the screen with the details or the help open, however small")
    func bounded() {
        let analyzer = Self.analyzer(children: 30)
        for rows in [4, 7, 24] {
            for keys: [Key] in [[.enter], [.character("?")], [.character("/"), .character("o")], [.end, .enter, .end]] {
                var inspector = InspectorState()
                for key in keys { _ = inspector.handle(key, sessionCount: 2) }
                let frame = Self.frame(analyzer, &inspector, rows: rows, sessions: 2)
                #expect(frame.count == rows, "\(keys) in \(rows) rows")
                #expect(frame.allSatisfy { $0.count <= 100 })
            }
        }
    }
}
