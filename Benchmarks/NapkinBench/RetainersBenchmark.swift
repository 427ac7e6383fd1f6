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
        registration(count: 200_000)
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
