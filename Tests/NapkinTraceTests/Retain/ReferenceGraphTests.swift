@testable import NapkinTrace
import Testing

/// The paths a retainer search explains a leak by, on graphs made by hand:
/// cycles of one to five hops, the suspect mark, which start a path takes,
/// the order and the count of references.
@Suite("Retainers: paths through the graph of strong references")
struct ReferenceGraphTests {
    /// A graph from `Name:edge>Name` specs; `*` marks an expected-alive
    /// node, `R` a traced router, `I` a traced interactor; nodes listed in
    /// `roots` start the walk.
    func graph(_ nodes: [String], edges: [(String, String, String)], target: String, roots: [String]) -> ReferenceGraph {
        var built: [ReferenceGraph.Node] = []
        var index: [String: Int] = [:]
        for spec in nodes {
            var name = spec
            var node = ReferenceGraph.Node(name: "")
            while let flag = name.last, "*RI".contains(flag) {
                name.removeLast()
                switch flag {
                case "*": node.expectedAlive = true
                case "R": node.isRouter = true
                default: node.isInteractor = true
                }
            }
            node.name = name
            index[name] = built.count
            built.append(node)
        }
        for (from, label, to) in edges { built[index[from]!].edges.append(.init(label: label, to: index[to]!)) }
        return ReferenceGraph(nodes: built, target: index[target]!, roots: roots.map { index[$0]! })
    }

    @Test("cycles of one to five hops start at the object and end in (cycle)", .singleThreaded,
          arguments: 1...5)
    func cycles(_ length: Int) {
        let names = ["Leaked#1"] + (1..<length).map { "Hop\($0)#\($0 + 1)" }
        var edges: [(String, String, String)] = []
        for (i, name) in names.enumerated() { edges.append((name, "next\(i)", names[(i + 1) % names.count])) }
        let g = graph(names, edges: edges, target: "Leaked#1", roots: names)
        let (found, paths) = g.paths()
        #expect(found == 1)
        let hops = names.enumerated().map { "\($0.element).next\($0.offset)" + ($0.offset == 0 ? Retainers.suspectMarker : "") }
        #expect(paths == [(hops + ["Leaked#1" + Retainers.cycleMarker]).joined(separator: Retainers.separator)])
    }

    @Test("a path from an object expected alive is preferred, and its first reference is the suspect", .singleThreaded)
    func fromExpectedAlive() {
        let g = graph(["Host#1*", "Store", "Leaked#3R", "Other#4"],
                      edges: [("Host#1", "store", "Store"), ("Store", "screens[0]", "Leaked#3"), ("Other#4", "keep", "Store")],
                      target: "Leaked#3", roots: ["Other#4", "Host#1", "Leaked#3"])
        #expect(g.paths().paths == ["Host#1.store (suspect) → Store.screens[0] → Leaked#3"])
    }

    @Test("napkin's own references are skipped for the suspect: a router's interactor, an interactor's presenter", .singleThreaded)
    func napkinOwnership() {
        let g = graph(["Router#2R", "Interactor#1I", "View"],
                      edges: [("Router#2", "interactor", "Interactor#1"), ("Interactor#1", "presenter", "View"), ("View", "listener", "Interactor#1")],
                      target: "Interactor#1", roots: ["Interactor#1", "Router#2"])
        // The router is not expected alive (detached): its hold on its interactor is napkin's own, marked nothing.
        #expect(g.paths().paths == ["Router#2.interactor → Interactor#1",
                                    "Interactor#1.presenter → View.listener (suspect) → Interactor#1 (cycle)"])
    }

    @Test("two references, two paths, shortest first; several closures sharing one context count once", .singleThreaded)
    func severalReferences() {
        var g = graph(["Host#1*", "Store", "Leaked#3"],
                      edges: [("Host#1", "store", "Store"), ("Store", "screens[0]", "Leaked#3"), ("Host#1", "onTap{closure}", "Leaked#3")],
                      target: "Leaked#3", roots: ["Host#1"])
        #expect(g.paths().found == 2)
        #expect(g.paths().paths == ["Host#1.onTap{closure} (suspect) → Leaked#3", "Host#1.store (suspect) → Store.screens[0] → Leaked#3"])
        g.nodes[0].edges[1].holder = HeapSlot(heap: 42, path: "{0}")
        g.nodes[0].edges.append(.init(label: "onLongPress{closure}", to: 2, holder: HeapSlot(heap: 42, path: "{0}")))
        #expect(g.paths().found == 2)
        #expect(g.paths().paths.count == 3)
    }

    @Test("no reference in: nothing found", .singleThreaded)
    func nothing() {
        let g = graph(["Host#1*", "Leaked#2"], edges: [], target: "Leaked#2", roots: ["Host#1", "Leaked#2"])
        #expect(g.paths().found == 0)
        #expect(g.paths().paths.isEmpty)
    }

    @Test("at most five paths", .singleThreaded)
    func bounded() {
        let holders = (1...8).map { "Holder\($0)#\($0)*" }
        let g = graph(holders + ["Leaked#99"], edges: (1...8).map { ("Holder\($0)#\($0)", "ref", "Leaked#99") },
                      target: "Leaked#99", roots: (1...8).map { "Holder\($0)#\($0)" })
        #expect(g.paths().found == 8)
        #expect(g.paths().paths.count == ReferenceGraph.maxPaths)
    }

    @Test("the key: the suspect reference without ids or indexes", .singleThreaded)
    func key() {
        #expect(Retainers(paths: ["Host#12.store (suspect) → ScreenStore.screens[0] → Shown#14"], found: 1, total: 1, note: nil).key == "Host.store")
        #expect(Retainers(paths: ["A#1.interactor → B#2.handlers[\"x]y\"] (suspect) → A#1 (cycle)"], found: 1, total: 1, note: nil).key == "B.handlers[]")
        #expect(Retainers(paths: [], found: 0, total: 1, note: "x").key == nil)
    }
}
