import NapkinTrace
import Testing
@testable import napkin_inspect
import TestSupport

/// Numbers a trace supplies can be anything up to 2^64 - 1: renderers clamp
/// and saturate instead of trapping.
@Suite("extreme numbers")
struct ExtremeNumbersTests {
    static let max = UInt64.max

    @Test("the timeline axis saturates near 2^64 (its ticks, its end, its start)", arguments: [
        (UInt64(0), UInt64.max), (UInt64.max - 10, UInt64.max), (UInt64.max, UInt64.max), (UInt64(0), UInt64(1)),
    ])
    func timelineScale(_ start: UInt64, _ stop: UInt64) {
        let scale = TimelineRenderer.Scale(start: start, stop: stop, columns: 100)
        let ticks = scale.ticks(minimumSpacing: 12)
        #expect(ticks.count <= 101)
        #expect(ticks.allSatisfy { $0.time >= start && $0.time <= stop })
        #expect(scale.column(stop) == 99 || stop == start)
        #expect(scale.column(0) == 0)
    }

    @Test("a whole timeline with every time near 2^64, filtered or not")
    func timelineNearMax() {
        var f = RenderFixture()
        f.add(0, .routerCreated(id: 2, type: "R", interactor: 1, interactorType: "I"))
        f.append(TraceEvent(seq: 9, time: Self.max - 5, kind: .launch(router: 2)))
        f.append(TraceEvent(seq: 10, time: Self.max - 1, kind: .mark(text: "late")))
        f.append(TraceEvent(seq: 11, time: Self.max, kind: .deallocated(id: 2)))
        for filter in [nil, NodeFilter(name: "R")] {
            let lines = TimelineRenderer(style: .plain, width: 100, filter: filter).lines(f.history)
            #expect(lines.contains { $0.hasPrefix("R#2 ") }, "\(lines)")
            #expect(lines.contains { $0.contains("18446744073.710s  late") })
        }
        _ = MermaidRenderer.gantt(f.history)
        _ = MermaidRenderer.sequence(f.history)
    }

    @Test("number formats take any value", arguments: [0.0, -1.5, 1e300, -1e300, .infinity, -.infinity, .nan, 9.3e18, 0.0005])
    func formats(_ value: Double) {
        _ = String(format1: value)
        _ = String(format3: value)
        _ = NumberFormat.clampedInt(value)
    }

    @Test("grouped digits, signs and the largest values")
    func grouped() {
        #expect(NumberFormat.grouped(0) == "0")
        #expect(NumberFormat.grouped(1_234_567) == "1,234,567")
        #expect(NumberFormat.grouped(-1_234) == "-1,234")
        #expect(NumberFormat.grouped(UInt64.max) == "18,446,744,073,709,551,615")
        #expect(NumberFormat.grouped(Int.min) == "-9,223,372,036,854,775,808")
        #expect(String(format1: 2.25) == "2.3" || String(format1: 2.25) == "2.2")
        #expect(String(format3: 1.5) == "1.500")
        #expect(String(format1: 1e300) == "\(Int.max)")
        #expect(TimeFormat.duration(Self.max) == "5124095h34m")
        #expect(TimeFormat.point(Self.max) == "18446744073.710s")
    }

    @Test("stats depth is counted per attach, whatever the depth", .dedicatedThread, .singleThreaded)
    func attachDepths() {
        var state = TraceState()
        var depths = AttachDepths()
        for event in BoundedRenderingTests.fixture(20_000, chain: true).events {
            state.apply(event)
            depths.apply(event, state)
        }
        #expect(depths.deepest == 20_000)
    }
}
