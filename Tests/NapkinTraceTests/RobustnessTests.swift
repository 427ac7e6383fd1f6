import Foundation
import NapkinTrace
import Testing

/// Inputs no real app writes but a reader must survive: cycles, very deep
/// trees, fuzzer findings.
@Suite("Robustness of the model and analysis")
struct RobustnessTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/fuzz")

    /// A chain root → 1 → 2 → ... of `depth` routers, then `extra` events.
    static func chain(depth: Int, then extra: [TraceEvent.Kind] = []) -> [TraceEvent] {
        var events: [TraceEvent] = []
        var seq: UInt64 = 0
        func add(_ kind: TraceEvent.Kind) {
            seq += 1
            events.append(TraceEvent(seq: seq, time: seq * 1_000, kind: kind))
        }
        add(.sessionStart(SessionInfo(app: "deep", pid: 1, wallClock: 0)))
        for i in 0..<UInt64(depth) {
            let interactor = 2 * i + 1, router = 2 * i + 2
            add(.interactorCreated(id: interactor, type: "I"))
            add(.routerCreated(id: router, type: "R", interactor: interactor, interactorType: "I"))
            if i == 0 { add(.launch(router: router)) } else { add(.attach(parent: router - 2, child: router)) }
            add(.activate(interactor: interactor))
        }
        for kind in extra { add(kind) }
        return events
    }

    @Test("a tree 50,000 routers deep folds, walks and analyses without recursion")
    func veryDeepTree() {
        let depth = 50_000
        var analyzer = TraceAnalyzer()
        for event in Self.chain(depth: depth) { analyzer.consume(event) }
        analyzer.finish()
        let tree = analyzer.state.liveTree()
        #expect(tree.count == depth)
        #expect(tree.last?.depth == depth - 1)
        #expect(analyzer.findings.isEmpty)
    }

    @Test("attaching a router under its own descendant is refused and reported, never a cycle")
    func cycleIsRefused() {
        let depth = 10
        let bottom = UInt64(2 * depth)
        let events = Self.chain(depth: depth, then: [.attach(parent: bottom, child: 4), .attach(parent: 6, child: 6)])
        var analyzer = TraceAnalyzer()
        for event in events { analyzer.consume(event) }
        analyzer.finish()
        let cycles = analyzer.findings.filter { $0.message.contains("a cycle") }
        #expect(cycles.count == 2, "\(analyzer.findings)")
        #expect(cycles.allSatisfy { $0.rule == .attachUnderDescendant })
        // The tree is unchanged: still one chain.
        #expect(analyzer.state.liveTree().count == depth)
        #expect(analyzer.state[4]?.parent == 2)
        #expect(analyzer.state[bottom]?.children.isEmpty == true)
    }

    @Test("a second creation record for a live id keeps the node we know")
    func duplicateCreationIsIgnored() {
        let events = Self.chain(depth: 3, then: [.routerCreated(id: 4, type: "Other", interactor: 99, interactorType: "X")])
        var state = TraceState()
        for event in events { state.apply(event) }
        #expect(state[4]?.type == "R")
        #expect(state[4]?.parent == 2)
        #expect(state[2]?.children == [4])
    }

    @Test("every fuzzer regression input reads and analyses without crashing", arguments: try FileManager.default
        .contentsOfDirectory(atPath: RobustnessTests.fixtures.path).filter { $0.hasSuffix(".ndjson") })
    func fuzzRegression(_ name: String) throws {
        let reader = try TraceReader(path: Self.fixtures.appendingPathComponent(name).path)
        var analyzer = TraceAnalyzer(options: .init(grace: 1_000, expectTeardown: true))
        var history = TraceHistory()
        var events = 0
        while let item = reader.next() {
            if case .event(let event) = item {
                analyzer.consume(event)
                history.apply(event)
                events += 1
            }
        }
        analyzer.finish()
        #expect(events > 0)
        _ = analyzer.state.liveTree()
        _ = analyzer.state.detachedRouters()
    }
}
