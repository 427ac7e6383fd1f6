import NapkinTrace

/// The retainer search's cost: the time to explain one leak among 10,000
/// and 100,000 live objects (the search runs only when a finding asks, so
/// this is what one finding costs), and what keeping the live objects costs
/// each router and interactor creation, kept (a recorder, a detector that
/// searches) against not kept (tracing alone).
///
/// The graph: 100 registered holders (as a tree's interactors and routers
/// would be), each with an array of plain objects, each object with a field;
/// the leaked object hangs off the last object of the last holder, so the
/// search reads the whole graph before it finds it.
enum RetainersBenchmark {
    final class Node { var next: AnyObject?; var payload = 0 }
    final class Holder { var items: [Node] = [] }
    final class Leaked {}

    @MainActor
    static func run(rounds: Int) async {
        for size in [10_000, 100_000] {
            let objects = LiveObjects(enabled: true)
            let holders = (0..<100).map { _ in Holder() }
            for (index, holder) in holders.enumerated() {
                holder.items = (0..<(size / 100)).map { _ in Node() }
                objects.register(holder, id: NodeID(index + 1), type: "Holder", kind: .interactor)
            }
            let leaked = Leaked()
            objects.register(leaked, id: 1_000, type: "Leaked", kind: .router)
            holders[99].items[size / 100 - 1].next = leaked
            var times: [Double] = []
            var result: Retainers?
            for _ in 0..<rounds {
                let start = now()
                result = await RetainerSearch.run(target: 1_000, in: objects, context: .init(),
                                                  limits: .init(objects: size * 2 + 1_000, time: .seconds(60)))
                times.append(Double(now() - start) / 1e6)
            }
            let median = times.sorted()[times.count / 2]
            let found = result?.paths.first ?? "nothing"
            print("retainer search, \(size) live objects: \(String(format: "%.1f", median)) ms (median of \(rounds)); \(found)")
            print("RETAINERS_\(size / 1_000)K_MS \(String(format: "%.1f", median))")
            print("RETAINERS_\(size / 1_000)K_FOUND \(result?.found ?? 0)")
            withExtendedLifetime((holders, leaked)) {}
        }
        await small(rounds: rounds)
        await grids()
        registration(count: 200_000)
    }

    /// A search on a small graph (a router, its interactor, a dozen
    /// objects): what a typical finding waits for before its path.
    @MainActor
    static func small(rounds: Int) async {
        let objects = LiveObjects(enabled: true)
        let holders = (0..<6).map { _ in Holder() }
        for (index, holder) in holders.enumerated() {
            holder.items = [Node()]
            objects.register(holder, id: NodeID(index + 1), type: "Holder", kind: .interactor)
        }
        holders[5].items[0].next = Leaked()
        objects.register(holders[5].items[0].next!, id: 1_000, type: "Leaked", kind: .router)
        var times: [Double] = []
        for _ in 0..<max(rounds, 5) {
            let start = now()
            _ = await RetainerSearch.run(target: 1_000, in: objects, context: .init())
            times.append(Double(now() - start) / 1e6)
        }
        let median = times.sorted()[times.count / 2]
        print("retainer search, a dozen objects: \(String(format: "%.1f", median)) ms (median of \(times.count))")
        print("RETAINERS_SMALL_MS \(String(format: "%.1f", median))")
        withExtendedLifetime(holders) {}
    }

    final class Grids { let numbers: [[Double]]; let references: [[AnyObject]]
        init(side: Int) {
            numbers = (0..<side).map { _ in [Double](repeating: 1.5, count: side) }
            let shared = Node()
            references = (0..<side).map { _ in [AnyObject](repeating: shared, count: side) }
        }
    }

    /// The longest the main actor waits while a search reads a 3000×3000
    /// grid of numbers and one of references, in a copy and in place: a
    /// ticker on the main actor measures the longest gap between its ticks.
    @MainActor
    static func grids() async {
        let objects = LiveObjects(enabled: true)
        let grids = Grids(side: 3_000)
        let leaked = Leaked()
        objects.register(grids, id: 1, type: "Grids", kind: .router)
        objects.register(leaked, id: 2, type: "Leaked", kind: .interactor)
        for site in [RetainerSearch.Site.snapshot, .inPlace] {
            let done = Locked(false)
            let ticker = Task { @MainActor in
                var last = now(), longest: UInt64 = 0
                while !done.withLock({ $0 }) {
                    await Task.yield()
                    let tick = now()
                    longest = max(longest, tick - last)
                    last = tick
                }
                return longest
            }
            let start = now()
            let result = await RetainerSearch.run(target: 2, in: objects, context: .init(), site: site)
            let took = Double(now() - start) / 1e6
            done.withLock { $0 = true }
            let stall = Double(await ticker.value) / 1e6
            let name = site == .snapshot ? "SNAPSHOT" : "INPLACE"
            print("retainer search on 3000×3000 grids (\(name.lowercased())): \(String(format: "%.0f", took)) ms, longest main-actor stall \(String(format: "%.1f", stall)) ms; \(result?.note?.prefix(80) ?? "")")
            print("RETAINERS_GRID_\(name)_MS \(String(format: "%.0f", took))")
            print("RETAINERS_GRID_\(name)_STALL_MS \(String(format: "%.1f", stall))")
        }
        withExtendedLifetime((grids, leaked)) {}
    }

    /// ns per registration, kept and not kept.
    static func registration(count: Int) {
        let objects = (0..<count).map { _ in Node() }
        func measure(_ enabled: Bool) -> Double {
            let table = LiveObjects(enabled: enabled)
            let start = now()
            for (index, object) in objects.enumerated() {
                table.register(object, id: NodeID(index + 1), type: "Node", kind: .router)
            }
            return Double(now() - start) / Double(count)
        }
        let off = measure(false), on = measure(true)
        print("live objects: \(String(format: "%.1f", on)) ns per creation kept, \(String(format: "%.1f", off)) ns not kept")
        print("RETAINERS_REGISTER_NS \(String(format: "%.1f", on))")
        print("RETAINERS_REGISTER_OFF_NS \(String(format: "%.1f", off))")
    }
}
