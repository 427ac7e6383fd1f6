import NapkinTrace
import NapkinTraceReader
import Testing
import TestSupport

/// Routers are named by their path of types in the tree, never by id:
/// siblings of one type and a screen opened again are numbered in the order
/// they were first attached; routers never attached start a path outside the tree.
@Suite("Trace paths")
struct TracePathsTests {
    private func history(_ builder: TraceBuilder) -> TraceHistory {
        var history = TraceHistory()
        for event in builder.events { history.apply(event) }
        return history
    }

    /// The description of router `id`'s path in `paths` (run `run`).
    private func path(_ paths: TracePaths, _ id: NodeID, run: Int = 0) -> String? {
        paths.path(of: id, inRun: run)?.description
    }

    @Test("siblings of one type attached at the same time are numbered in attach order")
    func sameTypeSiblings() {
        var b = TraceBuilder()
        b.root(2)
        b.router(4, "Order")
        b.router(6, "Order")
        b.router(8, "Menu")
        b.attach(6, to: 2)  // #6 attached first: it is the first OrderRouter
        b.attach(8, to: 2)
        b.attach(4, to: 2)
        let paths = TracePaths(history(b))
        #expect(path(paths, 2) == "RootRouter")
        #expect(path(paths, 6) == "RootRouter/OrderRouter")
        #expect(path(paths, 4) == "RootRouter/OrderRouter[2]")
        #expect(path(paths, 8) == "RootRouter/MenuRouter")
        // An interactor's path is its router's.
        #expect(path(paths, 3) == "RootRouter/OrderRouter[2]")
        #expect(paths.path(of: 4)?.segment == TracePath.Segment(type: "OrderRouter", occurrence: 2))
        #expect(paths.path(of: 4)?.typePath == "RootRouter/OrderRouter")
        #expect(paths.path(of: 4)?.typePathKey == paths.path(of: 6)?.typePathKey)
        #expect(paths.path(of: 4)?.parent == paths.path(of: 2))
    }

    @Test("a screen opened twice: the second is [2], and its children are under it")
    func screenOpenedTwice() {
        var b = TraceBuilder.homeTree()
        b.child(6, "Order", of: 4)
        b.child(8, "Pay", of: 6)
        b.detach(6, from: 4)
        b.release(8)
        b.release(6)
        b.child(10, "Order", of: 4)
        b.child(12, "Pay", of: 10)
        let paths = TracePaths(history(b))
        #expect(path(paths, 6) == "RootRouter/HomeRouter/OrderRouter")
        #expect(path(paths, 8) == "RootRouter/HomeRouter/OrderRouter/PayRouter")
        #expect(path(paths, 10) == "RootRouter/HomeRouter/OrderRouter[2]")
        #expect(path(paths, 12) == "RootRouter/HomeRouter/OrderRouter[2]/PayRouter")
        #expect(paths.path(of: 12)?.depth == 4)
        #expect(paths.path(of: 12)?.lastSegments(2).map(\.description) == ["OrderRouter[2]", "PayRouter"])
    }

    @Test("the same flow with other ids, created in another order: the same paths, and nothing changed")
    func idsShuffled() {
        func flow(_ ids: [NodeID], createReversed: Bool) -> TraceBuilder {
            var b = TraceBuilder()
            b.root(ids[0])
            let children = [(ids[1], "Menu"), (ids[2], "Order"), (ids[3], "Order")]
            for (id, name) in createReversed ? children.reversed() : children { b.router(id, name) }
            for (id, _) in children { b.attach(id, to: ids[0]) }
            return b
        }
        let one = history(flow([2, 4, 6, 8], createReversed: false))
        let other = history(flow([40, 22, 12, 30], createReversed: true))
        let paths = TracePaths([one, other])
        for (a, b) in zip([2, 4, 6, 8] as [NodeID], [40, 22, 12, 30] as [NodeID]) {
            #expect(paths.path(of: a, inRun: 0) != nil)
            #expect(paths.path(of: a, inRun: 0) == paths.path(of: b, inRun: 1), "router #\(a) and #\(b)")
        }
        #expect(path(paths, 8) == "RootRouter/OrderRouter[2]")
        #expect(path(paths, 30, run: 1) == "RootRouter/OrderRouter[2]")
        let comparison = TraceComparison(before: ComparedTrace(history: one, findings: []),
                                         after: ComparedTrace(history: other, findings: []))
        #expect(!comparison.hasChanges)
    }

    @Test("a router never attached, or attached to a parent the trace never created, is outside the tree")
    func outsideTheTree() {
        var b = TraceBuilder()
        b.root(2)
        b.router(4, "Lonely")
        b.router(6, "Lonely")
        b.router(8, "Stray")
        b.add(.attach(parent: 99, child: 8))
        b.router(10, "Child")
        b.add(.attach(parent: 4, child: 10))  // under a router that never was in the tree
        let paths = TracePaths(history(b))
        #expect(path(paths, 4) == "outside:LonelyRouter")
        #expect(path(paths, 6) == "outside:LonelyRouter[2]")
        #expect(path(paths, 8) == "outside:StrayRouter")
        #expect(path(paths, 10) == "outside:LonelyRouter/ChildRouter")
        #expect(paths.path(of: 10)?.isInTree == false)
        #expect(paths.path(of: 2)?.isInTree == true)
        #expect(paths.routers(inRun: 0).count == 5)
    }

    @Test("a subtree built before it is attached is named by where it is attached")
    func subtreeAttachedLater() {
        var b = TraceBuilder()
        b.root(2)
        b.router(4, "Order")
        b.router(6, "Pay")
        b.attach(6, to: 4)
        b.attach(4, to: 2)
        let paths = TracePaths(history(b))
        #expect(path(paths, 6) == "RootRouter/OrderRouter/PayRouter")
    }

    @Test("first parents that loop (a corrupt trace) end: the loop starts outside the tree")
    func parentCycle() {
        var b = TraceBuilder()
        b.router(2, "A")
        b.router(4, "B")
        b.add(.attach(parent: 4, child: 2))
        b.add(.attach(parent: 2, child: 4))
        let paths = TracePaths(history(b))
        let names = [path(paths, 2), path(paths, 4)].compactMap { $0 }.sorted()
        #expect(names == ["outside:ARouter", "outside:ARouter/BRouter"] || names == ["outside:BRouter", "outside:BRouter/ARouter"])
    }

    @Test("a deep chain costs its length, not its square", .dedicatedThread, .singleThreaded)
    func deepChain() throws {
        var history = TraceHistory()
        for event in TraceBuilder.chain(depth: 20_000) { history.apply(event) }
        let paths = TracePaths(history)
        let deepest = try #require(paths.path(of: 40_000))
        #expect(deepest.depth == 20_000)
        #expect(deepest.lastSegments(3).map(\.description) == ["R", "R", "R"])
        #expect(deepest.parent?.depth == 19_999)
    }
}
