import Foundation
import NapkinTrace
import Testing
import TestSupport
@testable import napkin_inspect

/// The populations (live instances per type) as `live` and `report` show
/// them: the header's flags, the node details' count over time, the
/// report's chart, and the bounds of the series behind the last two.
@Suite("population surfaces")
struct PopulationSurfacesTests {
    /// A root, then `rounds` rounds of a flow (`test started: flow`, one
    /// second apart), each leaving one more OrderRouter alive (never
    /// attached) and one MenuRouter that comes and goes cleanly.
    static func growing(rounds: Int = 5) -> RenderFixture {
        var fixture = RenderFixture(app: "grow")
        fixture.launch(2, "RootRouter", at: 0)
        for k in 0..<rounds {
            let start = Double(k * 1_000)
            fixture.add(start + 100, .mark(text: NapkinTrace.testStartedPrefix + "flow"))
            fixture.router(NodeID(100 + 2 * k), "OrderRouter", at: start + 200)
            let menu = NodeID(1_000 + 2 * k)
            fixture.attach(menu, "MenuRouter", to: 2, at: start + 300)
            fixture.add(start + 400, .deactivate(interactor: menu - 1))
            fixture.add(start + 400, .detach(parent: 2, child: menu))
            fixture.add(start + 450, .deallocated(id: menu))
            fixture.add(start + 450, .deallocated(id: menu - 1))
        }
        fixture.add(Double(rounds * 1_000) + 500, .mark(text: "done"))
        return fixture
    }

    /// The analysis of `fixture`, finished (the growing-population finding comes at the end).
    static func analyzer(_ fixture: RenderFixture, options: TraceAnalyzer.Options = .init(), finish: Bool = true) -> TraceAnalyzer {
        var analyzer = TraceAnalyzer(options: options)
        for event in fixture.events { analyzer.consume(event) }
        if finish { analyzer.finish() }
        return analyzer
    }

    // MARK: - live: the header

    @Test("live's header flags a growing population and those over budget, at most two named, each name bounded")
    func headerFlags() {
        func header(_ analyzer: TraceAnalyzer, columns: Int) -> String {
            var inspector = InspectorState()
            var facts = LiveFrame(analyzer: analyzer)
            facts.size = (20, columns)
            return LiveView(style: .plain, sourceName: "test").frame(facts, inspector: &inspector)[0]
        }
        let growing = Self.analyzer(Self.growing())
        #expect(growing.findings.contains { $0.rule == .growingPopulation && $0.type == "OrderRouter" }, "\(growing.findings)")
        var line = header(growing, columns: 200)
        // One finding: the interactors grow with their routers, and are one cause with them.
        #expect(line.contains("1 finding  \u{26A0} OrderRouter \u{D7}5 growing  [live; no history]"), "\(line)")
        #expect(!line.contains("more"), "\(line)")

        // Budgets: over budget first (most alive first), then two named and the rest counted.
        let budgets = TraceAnalyzer.Options(maxAlive: ["OrderRouter": 2, "OrderInteractor": 1, "RootRouter": 0, "MenuRouter": 1])
        let over = Self.analyzer(Self.growing(), options: budgets)
        line = header(over, columns: 300)
        #expect(line.contains("\u{26A0} OrderRouter \u{D7}5 growing, over 2, OrderInteractor \u{D7}5 over 1 +1 more"), "\(line)")
        #expect(!line.contains("MenuRouter \u{D7}"), "a MenuRouter at a time: within its budget")
        // A narrower screen names fewer, then none; the line stays the screen's width.
        line = header(over, columns: 140)
        #expect(line.contains("\u{26A0} OrderRouter \u{D7}5 growing, over 2 +2 more"), "\(line)")
        line = header(over, columns: 120)
        #expect(line.contains("4 findings  \u{26A0} 3 populations flagged  [li"), "\(line)")
        #expect(header(over, columns: 100).count == 100, "cut to the screen")

        // While the session runs (no finding yet), a count over its budget is flagged already.
        let running = Self.analyzer(Self.growing().until(ms: 2_300), options: .init(maxAlive: ["OrderRouter": 2]), finish: false)
        #expect(PopulationFlag.summary(PopulationFlag.flags(running)) == "\u{26A0} OrderRouter \u{D7}3 over 2")
        #expect(PopulationFlag.summary(PopulationFlag.flags(Self.analyzer(Self.growing().until(ms: 2_300), finish: false))) == nil)

        // A hostile name is printable and cut.
        let long = PopulationFlag(key: .init(.router, type: String(repeating: "X", count: 500) + "\u{1B}[2J"), live: 3, growing: true)
        let text = PopulationFlag.summary([long, long, long]) ?? ""
        #expect(text.count < 2 * (PopulationFlag.maxName + 20) + 20 && !text.contains("\u{1B}"), "\(text)")
        #expect(text.hasSuffix(" +1 more"))
    }

    @Test("live's header on a narrow screen: the rate goes first, then the events count, so the findings count stays in view")
    func narrowHeaderKeepsFindings() {
        func header(columns: Int) -> String {
            var inspector = InspectorState()
            var facts = LiveFrame(analyzer: Self.analyzer(Self.growing()))
            facts.size = (20, columns)
            facts.events = 8_445
            facts.rate = 65
            return LiveView(style: .plain, sourceName: "test").frame(facts, inspector: &inspector)[0]
        }
        let wide = header(columns: 200)
        #expect(wide.contains("8,445 events (65/s)  routers ") && wide.contains("1 finding"), "\(wide)")
        let withoutRate = wide.replacingOccurrences(of: " (65/s)", with: "")
        let fitsWithoutRate = header(columns: withoutRate.prefix { $0 != "\u{26A0}" }.count)
        #expect(fitsWithoutRate.contains("8,445 events  routers ") && fitsWithoutRate.contains("1 finding"), "\(fitsWithoutRate)")
        #expect(!fitsWithoutRate.contains("/s)"), "\(fitsWithoutRate)")
        let narrow = header(columns: withoutRate.prefix { $0 != "\u{26A0}" }.count - 5)
        #expect(!narrow.contains("events") && narrow.contains("routers ") && narrow.contains("1 finding"), "\(narrow)")
    }

    // MARK: - live: the details

    @Test("live's details of a node: its type's live count now, the most at once, its budget, and a sparkline per second")
    func detailsSeries() throws {
        let session = LiveSession(number: 1, sourceName: "test", isLive: false, analysis: .init(maxAlive: ["OrderRouter": 3]))
        for event in Self.growing().events { session.consume(.event(event), at: 1) }
        let (points, lines) = session.withState { s in
            let points = LiveScreenLoop.population(of: 108, shown: s.analyzer, series: s.populations, live: s.analyzer)
            let pin = InspectorState.Pin(id: 108, name: "OrderRouter#108")
            return (points, NodeDetails(style: .plain, width: 100).lines(pin, analyzer: s.analyzer, log: nil, population: points))
        }
        let series = try #require(points)
        #expect(series.counts == [0, 1, 2, 3, 4, 5, 5], "\(series)")
        #expect(series.times == [0, 1, 2, 3, 4, 5].map { UInt64($0) * 1_000_000_000 } + [5_500_000_000])
        let text = lines.joined(separator: "\n")
        #expect(text.contains("Population (routers of type OrderRouter alive at once)"), "\(text)")
        #expect(text.contains("alive       5 now, the most 5 at seq "), "\(text)")
        #expect(text.contains("t=4.200s, 5 created"), "\(text)")
        #expect(text.contains("budget      3, over"), "\(text)")
        #expect(text.contains("\u{2581}\u{2582}\u{2583}\u{2585}\u{2586}\u{2588}\u{2588}  0 1 2 3 4 5 5"), "\(text)")

        // Paused at 2.45 s (the last event before 2.5 s): the series up to that moment, the count then.
        let paused = Self.analyzer(Self.growing().until(ms: 2_500), finish: false)
        let earlier = try #require(session.withState { s in
            LiveScreenLoop.population(of: 104, shown: paused, series: s.populations, live: s.analyzer)
        })
        #expect(earlier.counts == [0, 1, 2, 3] && earlier.times.last == 2_450_000_000, "\(earlier)")

        // The whole frame, the details open on the last stray OrderRouter.
        var inspector = InspectorState()
        let analyzer = session.withState { $0.analyzer }
        _ = InspectorStateTests.frame(analyzer, &inspector, rows: 60)
        _ = InspectorStateTests.press(.end, .enter, on: &inspector)
        var facts = LiveFrame(analyzer: analyzer)
        facts.size = (60, 100)
        _ = LiveView(style: .plain, sourceName: "test").frame(facts, inspector: &inspector)
        let pin = try #require(inspector.details)
        facts.population = session.withState { s in LiveScreenLoop.population(of: pin.id, shown: s.analyzer, series: s.populations, live: s.analyzer) }
        let frame = LiveView(style: .plain, sourceName: "test").frame(facts, inspector: &inspector)
        #expect(frame.contains { $0.hasPrefix("  per 1.0s") && $0.contains("\u{2588}") }, "\(frame)")
        #expect(frame.count == 60)
    }

    @Test("the series stays bounded: at most its capacity per population, merged two by two, each count the one at its time")
    func seriesBounded() {
        var counts = PopulationCounts()
        var state = TraceState()
        var series = PopulationSeries(capacity: 60, width: 1_000_000_000)
        var seq: UInt64 = 0
        func fold(_ time: UInt64, _ kind: TraceEvent.Kind) {
            seq += 1
            let event = TraceEvent(seq: seq, time: time, kind: kind)
            if series.isDue(at: time) { series.advance(to: time, counts) }
            state.apply(event)
            counts.note(event, in: state)
        }
        fold(0, .sessionStart(SessionInfo(app: "long", pid: 1, wallClock: 0)))
        // One router a second for an hour: the count at time t is the number created by then.
        for k in 0..<3_600 {
            let id = NodeID(2 * k + 2)
            fold(UInt64(k) * 1_000_000_000 + 1, .routerCreated(id: id, type: "R", interactor: 0, interactorType: ""))
        }
        let points = series.points(of: 0, until: 3_600_000_000_000, last: counts.populations[0].live)
        #expect(points.counts.count <= 62 && points.counts.count > 30, "\(points.counts.count)")
        #expect(points.width == 64_000_000_000, "doubled until an hour fits in 60: \(points.width)")
        for (time, count) in zip(points.times, points.counts).dropFirst().dropLast() {
            #expect(UInt64(count) == time / 1_000_000_000, "at \(time): \(count)")
        }
        #expect(points.counts.last == 3_600)
        // A hostile jump to the end of time: still bounded, no overflow.
        fold(.max - 1, .routerCreated(id: 1, type: "R", interactor: 0, interactorType: ""))
        let far = series.points(of: 0, until: .max, last: counts.populations[0].live)
        #expect(far.counts.count <= 62 && far.counts.last == 3_601)
    }

    // MARK: - report

    /// `fixture` written to a file in `dir`.
    static func write(_ fixture: RenderFixture, in dir: ScratchDirectory) throws -> String {
        let path = dir.path + "/grow.ndjson"
        try fixture.ndjson.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("the report's data: the chart of live counts per type, the flagged type first, the rounds, at most 8 types")
    func reportData() throws {
        let dir = try ScratchDirectory("populations")
        defer { dir.remove() }
        var fixture = Self.growing()
        // Forty more types (twenty routers and their interactors), one of each, so that the chart must choose.
        for k in 0..<20 { fixture.router(NodeID(5_000 + 2 * k), "Extra\(k)Router", at: 5_400) }
        let path = try Self.write(fixture, in: dir)
        let traces = try ReportTrace.traces(reading: path, options: .init(maxAlive: ["OrderRouter": 2]), quiet: true)
        let chart = try #require(traces.first?.populations)
        #expect(chart.charted.count == ReportPopulations.maxCharted)
        #expect(chart.charted.first?.key == PopulationCounts.Key(.router, type: "OrderRouter"))
        #expect(chart.charted.first?.flag == "growing, over 2", "\(chart.charted.first?.flag ?? "")")
        #expect(chart.charted.allSatisfy { $0.points.counts.count <= ReportPopulations.maxPoints })
        #expect(chart.rounds.map(\.time) == (0..<5).map { UInt64($0) * 1_000_000_000 + 100_000_000 })
        #expect(chart.caption.contains("the 8 with the most at once or flagged (of 46)"), "\(chart.caption)")
        #expect(chart.caption.contains("the starts of 5 rounds"), "\(chart.caption)")

        let html = ReportPage.html(traces, sources: SourceRoot(directory: "/nonexistent"))
        let data = try ReportCommandTests.embedded("trace-0", in: html)
        let populations = try #require(data["populations"] as? [[String: Any]])
        #expect(populations.first?["name"] as? String == "OrderRouter")
        #expect((populations.first?["times"] as? [Int])?.count == (populations.first?["counts"] as? [Int])?.count)
        let counts = try #require(populations.first?["counts"] as? [Int])
        #expect(counts.first == 0 && counts.last == 5 && counts == counts.sorted(), "\(counts)")
        #expect((data["rounds"] as? [String: [Any]])?["text"]?.count == 5)

        // Rounds at marks of a prefix instead: the one `done` mark.
        let marked = try ReportTrace.traces(reading: path, options: .init(rounds: .marks(prefix: "done")), quiet: true)
        #expect(marked.first?.populations.rounds.map(\.text) == ["done"])
    }

    @Test("a long session's chart keeps at most 500 points per type")
    func reportPointsBounded() throws {
        var fold = ReportPopulations.Fold(TraceAnalyzer.Options())
        var counts = PopulationCounts()
        var state = TraceState()
        var seq: UInt64 = 0
        for k in 0..<20_000 {
            seq += 1
            let time = UInt64(k) * 7_000_000
            let event = k == 0 ? TraceEvent(seq: seq, time: 0, kind: .sessionStart(SessionInfo(app: "a", pid: 1, wallClock: 0)))
                : TraceEvent(seq: seq, time: time, kind: .routerCreated(id: NodeID(2 * k), type: "R", interactor: 0, interactorType: ""))
            fold.before(time, counts)
            state.apply(event)
            counts.note(event, in: state)
        }
        let chart = fold.chart(counts, end: state.time, findings: [])
        #expect(chart.charted.count == 1)
        #expect(chart.charted[0].points.counts.count <= ReportPopulations.maxPoints && chart.charted[0].points.counts.count > 200)
    }

    @Test("report FILE: the chart holds the type growing over the repeated test, flagged")
    func reportCommand() async throws {
        let dir = try ScratchDirectory("populations")
        defer { dir.remove() }
        let path = try Self.write(Self.growing(), in: dir)
        let out = dir.path + "/report.html"
        let result = try await CLIHarness.inspect(["report", path, "-o", out])
        #expect(result.status == 0, "\(result)")
        let data = try ReportCommandTests.embedded("trace-0", in: try String(contentsOfFile: out, encoding: .utf8))
        let populations = try #require(data["populations"] as? [[String: Any]])
        #expect(populations.first?["name"] as? String == "OrderRouter")
        #expect(populations.first?["flag"] as? String == "growing")
        let findings = try #require(data["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["rule"] as? String == "growing-population" })
    }

    @Test("report --max-alive: the type over its budget is flagged with the budget")
    func reportCommandBudget() async throws {
        let dir = try ScratchDirectory("populations")
        defer { dir.remove() }
        let path = try Self.write(Self.growing(), in: dir)
        let out = dir.path + "/report.html"
        let result = try await CLIHarness.inspect(["report", path, "--max-alive", "OrderRouter=2", "-o", out])
        #expect(result.status == 0, "\(result)")
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let populations = try #require(try ReportCommandTests.embedded("trace-0", in: html)["populations"] as? [[String: Any]])
        #expect(populations.first?["flag"] as? String == "growing, over 2")
        #expect(html.contains("<template id=\"help-over-budget\">"))
    }

    @Test("opened in Chromium: one line per charted type, the rounds as vertical lines, the legend",
          .enabled(if: HeadlessChromium.path != nil))
    func chartInBrowser() async throws {
        let dir = try ScratchDirectory("populations")
        defer { dir.remove() }
        let path = try Self.write(Self.growing(), in: dir)
        let (reportDir, out) = try await ReportCommandTests.report(path)
        defer { reportDir.remove() }
        let html = try String(contentsOfFile: out, encoding: .utf8)
        let charted = try #require(try ReportCommandTests.embedded("trace-0", in: html)["populations"] as? [[String: Any]])
        let dom = try await HeadlessChromium.dom(of: out)
        #expect(dom.contains("data-ready=\"yes\""))
        #expect(!dom.contains("class=\"js-error\""), "\(dom.components(separatedBy: "js-error").dropFirst().first?.prefix(300) ?? "")")
        let chart = try #require(dom.components(separatedBy: "id=\"populations-chart\"").dropFirst().first?.components(separatedBy: "</svg>").first)
        #expect(chart.components(separatedBy: "<polyline class=\"population").count - 1 == charted.count, "\(chart)")
        #expect(charted.count == 6, "Root, Order and Menu, routers and interactors: \(charted.map { $0["name"] ?? "" })")
        #expect(chart.contains("<polyline class=\"population flagged\""))
        #expect(chart.contains("data-population=\"OrderRouter\""))
        #expect(chart.components(separatedBy: "<line class=\"round\"").count - 1 == 5)
        #expect(dom.contains("OrderRouter: the most 5 at once, at 4.200s (growing)"))
        #expect(!dom.contains("id=\"populations-panel\" hidden"), "the panel is shown")
    }
}
