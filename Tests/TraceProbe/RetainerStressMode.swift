// TraceProbe's `retainer-stress SHAPE N` mode: the retainer search tried the
// way an app attacks it, N searches in one process, each printed as one line
// the tests and Scripts/retainer-stress.sh count:
//   "search ok"      the real path, with the runtime's count
//   "search none: …" no path, with the note that says why (allowed, except
//                    where the shape's path is always there: mirror)
//   "search false: …" a path or a count that was not there (never allowed)
// then "done". A crash of the process is the other failure they count.
//
// Shapes:
//   cache   a cache behind the app's own lock, changed on another thread
//           all along (the shape that crashed the app 5 times in 13)
//   moved   an object moved between two holders on another thread
//   mirror  an enum whose customMirror traps off the main thread and names
//           an object the enum does not hold; a key whose description traps

import Foundation
import NapkinTrace

/// Runs the `retainer-stress` mode.
func retainerStressMode(_ arguments: [String]) async {
    guard arguments.count > 3, let count = Int(arguments[3]), count > 0 else {
        fail("usage: TraceProbe retainer-stress cache|moved|mirror N")
    }
    let objects = LiveObjects(enabled: true)
    switch arguments[2] {
    case "cache":
        let host = StressCacheHost()
        host.cache.store(StressPayload(), at: "pinned")
        objects.register(host, id: 1, type: "CacheHost", kind: .router)
        objects.register(host.cache.entry("pinned")!, id: 2, type: "Payload", kind: .interactor)
        let churn = StressChurner { host.cache.churn() }
        await searches(count, objects, expected: ["CacheHost#1.cache (suspect) → StressCache.entries[\"pinned\"] → Payload#2"], mustFind: false)
        churn.stop()
        withExtendedLifetime(host) {}
    case "moved":
        let left = StressSlot(), right = StressSlot()
        left.put(StressPayload())
        objects.register(left, id: 1, type: "Slot", kind: .router)
        objects.register(right, id: 3, type: "Slot", kind: .router)
        objects.register(left.peek()!, id: 2, type: "Payload", kind: .interactor)
        let mover = StressChurner { StressSlot.move(from: left, to: right) }
        await searches(count, objects, expected: ["Slot#1.held (suspect) → Payload#2", "Slot#3.held (suspect) → Payload#2"], mustFind: false)
        mover.stop()
        withExtendedLifetime((left, right)) {}
    case "mirror":
        let host = StressHostileHost(StressPayload())
        objects.register(host, id: 1, type: "HostileHost", kind: .router)
        objects.register(host.probe!, id: 2, type: "Payload", kind: .interactor)
        await searches(count, objects, expected: ["HostileHost#1.route.holding (suspect) → StressRouteBox.held → Payload#2",
                                                  "HostileHost#1.keyed[#0] (suspect) → Payload#2"], mustFind: true)
        withExtendedLifetime(host) {}
    default:
        fail("usage: TraceProbe retainer-stress cache|moved|mirror N")
    }
    writeStdout("done\n")
}

/// Runs `count` searches for object 2 and prints each one's verdict: false
/// when a path is not one of `expected`, when more references are found
/// than the runtime counts, or (with `mustFind`) when a search finds nothing.
private func searches(_ count: Int, _ objects: LiveObjects, expected: Set<String>, mustFind: Bool) async {
    for _ in 0..<count {
        guard let result = await RetainerSearch.run(target: 2, in: objects, context: .init(expectedAlive: [1, 3])) else {
            writeStdout("search false: the object was reported gone\n")
            continue
        }
        let line = result.oneLine.replacingOccurrences(of: "\n", with: " ")
        let invented = !Set(result.paths).isSubset(of: expected) || result.found > (result.total ?? .max)
            || result.paths.count > max(result.found, 1) * expected.count
        if invented || (mustFind && result.paths.isEmpty) {
            writeStdout("search false: \(line)\n")
        } else {
            writeStdout(result.paths.isEmpty ? "search none: \(line)\n" : "search ok\n")
        }
    }
}

// MARK: - The shapes

private final class StressPayload: Sendable {}

private final class StressCache: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [String: AnyObject] = [:]
    private var current: AnyObject?
    private var counter = 0

    func store(_ object: AnyObject, at key: String) {
        lock.lock(); defer { lock.unlock() }
        entries[key] = object
    }

    func entry(_ key: String) -> AnyObject? {
        lock.lock(); defer { lock.unlock() }
        return entries[key]
    }

    func churn() {
        lock.lock(); defer { lock.unlock() }
        counter += 1
        entries["k\(counter % 64)"] = StressPayload()
        if counter % 97 == 0 { entries = entries.filter { $0.key == "pinned" } }
        current = StressPayload()
    }
}

private final class StressCacheHost: @unchecked Sendable {
    let cache = StressCache()
}

private final class StressChurner: @unchecked Sendable {
    private let stopped = Locked(false)
    private let done = DispatchSemaphore(value: 0)

    init(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread { [stopped, done] in
            while !stopped.withLock({ $0 }) { body() }
            done.signal()
        }
        thread.start()
    }

    func stop() {
        stopped.withLock { $0 = true }
        done.wait()
    }
}

private final class StressSlot: @unchecked Sendable {
    private static let lock = NSLock()
    private var held: AnyObject?
    func put(_ object: AnyObject) { Self.lock.lock(); held = object; Self.lock.unlock() }
    func peek() -> AnyObject? { Self.lock.lock(); defer { Self.lock.unlock() }; return held }

    static func move(from a: StressSlot, to b: StressSlot) {
        lock.lock(); defer { lock.unlock() }
        if let object = a.held { a.held = nil; b.held = object } else if let object = b.held { b.held = nil; a.held = object }
    }
}

private final class StressRouteBox: Sendable {
    let held: StressPayload
    init(_ held: StressPayload) { self.held = held }
}

/// Kept alive; only the lying mirror names it.
private let stressDecoy = StressPayload()

private enum StressRoute: CustomReflectable, Sendable {
    case holding(StressRouteBox)
    case idle

    var customMirror: Mirror {
        dispatchPrecondition(condition: .onQueue(.main))
        return Mirror(self, children: ["router": stressDecoy])
    }
}

private struct StressKey: Hashable, CustomStringConvertible, Sendable {
    let id: Int
    var description: String { fatalError("the search called the app's description") }
}

private final class StressHostileHost: Sendable {
    let route: StressRoute
    let keyed: [StressKey: StressPayload]
    nonisolated(unsafe) weak var probe: StressPayload?
    init(_ target: StressPayload) {
        route = .holding(StressRouteBox(target))
        keyed = [StressKey(id: 1): target]
        probe = target
    }
}
