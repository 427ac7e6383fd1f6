import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// Inputs no real app writes but a reader must survive: very deep trees,
/// repeated creation records, fuzzer findings. (Cycles are refused by the
/// model and reported by `attach-under-descendant`: see its rule's tests.)
@Suite("Robustness of the model and analysis")
struct RobustnessTests {
    /// The fuzzer's regression inputs, `Tests/Fixtures/fuzz/*.ndjson`.
    static let fuzzDirectory = "Tests/Fixtures/fuzz"

    @Test("a tree 50,000 routers deep folds, walks and analyses without recursion", .dedicatedThread, .singleThreaded)
    func veryDeepTree() {
        let depth = 50_000
        var analyzer = TraceAnalyzer()
        for event in TraceBuilder.chain(depth: depth) { analyzer.consume(event) }
        analyzer.finish()
        let tree = analyzer.state.liveTree()
        #expect(tree.count == depth)
        #expect(tree.last?.depth == depth - 1)
        #expect(analyzer.findings.isEmpty)
    }

    @Test("a second creation record for a live id keeps the node we know")
    func duplicateCreationIsIgnored() {
        let events = TraceBuilder.chain(depth: 3, then: [.routerCreated(id: 4, type: "Other", interactor: 99, interactorType: "X")])
        var state = TraceState()
        for event in events { state.apply(event) }
        #expect(state[4]?.type == "R")
        #expect(state[4]?.parent == 2)
        #expect(state[2]?.children == [4])
    }

    @Test("every fuzzer regression input reads and analyses without crashing", arguments: try PackagePaths.files(in: RobustnessTests.fuzzDirectory, endingIn: ".ndjson"))
    func fuzzRegression(_ name: String) throws {
        let (result, _) = try readAll(path: PackagePaths.url(Self.fuzzDirectory + "/" + name).path)
        var analyzer = TraceAnalyzer(options: .init(grace: 1_000, expectTeardown: true))
        var history = TraceHistory()
        let events = result.events.count
        for event in result.events {
            analyzer.consume(event)
            history.apply(event)
        }
        analyzer.finish()
        #expect(events > 0)
        _ = analyzer.state.liveTree()
        _ = analyzer.state.detachedRouters()
    }
}
