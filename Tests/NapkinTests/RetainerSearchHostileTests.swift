import Foundation
import Synchronization
@testable import NapkinTrace
import Testing
import TestSupport

/// The retainer search tried as an attacker would: objects another thread
/// changes while the search reads, types whose `customMirror` and
/// `description` lie or trap, a router moved from one holder to another,
/// a busy actor, shared buffers and closure contexts, nested and huge
/// collections, and values the runtime does not describe. The search must
/// not crash, run the app's code, hold what the app lets go, or print a
/// path or a count that was not there at one moment.
///
/// The objects are registered in a ``LiveObjects`` table by hand (ids 1 and
/// up are holders, 2 or 99 the object searched), as the tracer registers
/// routers and interactors.
@Suite("Retainers: hostile shapes", .disabled(if: runsUnderThreadSanitizer, "a reader forked from a process under the thread sanitizer can hang in the sanitizer's own runtime: the plain run covers the searches"))
struct RetainerSearchHostileTests {
    /// For searches in place that test what is read, not the bound of a
    /// step: the main actor is shared with the other tests of the process,
    /// which may keep it busy for seconds, and a loaded machine may need
    /// more than one frame for a dozen objects. (`nestedCollections` tests
    /// the bound of a step.)
    static let patient = RetainerSearch.Limits(time: .seconds(60), inPlaceStep: .seconds(5))

    // MARK: - Another thread changes what the search reads

    @Test("a cache behind the app's own lock, changed on another thread all along: 30 searches, no crash, only the real path or a note")
    func lockGuardedCache() async throws {
        let objects = LiveObjects(enabled: true)
        let host = CacheHost()
        host.cache.store(Payload(), at: "pinned")
        objects.register(host, id: 1, type: "CacheHost", kind: .router)
        objects.register(try #require(host.cache.entry("pinned")), id: 2, type: "Payload", kind: .interactor)
        let churn = Churner { host.cache.churn() }
        defer { churn.stop() }
        var found = 0
        for _ in 0..<30 {
            let result = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init(expectedAlive: [1])))
            if result.paths.isEmpty {
                #expect(result.note?.hasPrefix("Not searched: the snapshot's reader") == true, "\(result)")
                continue
            }
            #expect(result.paths == ["CacheHost#1.cache (suspect) → LockedCache.entries[\"pinned\"] → Payload#2"], "\(result)")
            // 1 of 2 when the copy caught the churn rebuilding the dictionary: the new one holds it too.
            #expect(result.found == 1 && (result.total ?? 0) >= 1, "\(result)")
            found += 1
        }
        #expect(found > 0, "no search got through")
    }

    @Test("a router moved between two holders while searches run: one path at a time, never more references found than counted")
    func movedBetweenHolders() async throws {
        let objects = LiveObjects(enabled: true)
        let left = Slot(), right = Slot()
        left.put(Payload())
        objects.register(left, id: 1, type: "Slot", kind: .router)
        objects.register(right, id: 3, type: "Slot", kind: .router)
        objects.register(try #require(left.peek()), id: 2, type: "Payload", kind: .interactor)
        let mover = Churner { Slot.move(from: left, to: right) }
        defer { mover.stop() }
        for _ in 0..<20 {
            guard let result = await RetainerSearch.run(target: 2, in: objects, context: .init()) else { continue }
            let total = try #require(result.total ?? (result.note?.hasPrefix("Not searched") == true ? 0 : nil), "\(result)")
            #expect(result.found <= total, "\(result)")
            #expect(result.paths.count <= 1, "\(result)")
            for path in result.paths {
                #expect(["Slot#1.held (suspect) → Payload#2", "Slot#3.held (suspect) → Payload#2"].contains(path), "\(result)")
            }
        }
        mover.stop()
        withExtendedLifetime((left, right)) {}
    }

    // MARK: - The app's code is never run

    @Test("an enum whose customMirror traps and names a router it does not hold, a key whose description traps: the real path, read without them", arguments: [RetainerSearch.Site.snapshot, .inPlace])
    func hostileReflection(site: RetainerSearch.Site) async throws {
        let objects = LiveObjects(enabled: true)
        let host = HostileHost.make(registeringIn: objects)
        let result = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init(expectedAlive: [1]), limits: Self.patient, site: site))
        #expect(Set(result.paths) == ["HostileHost#1.route.holding (suspect) → RouteBox.held → Payload#2",
                                      "HostileHost#1.keyed[#0] (suspect) → Payload#2"], "\(result)")
        #expect(result.tally == "2 of 2 strong references found", "\(result)")
        // The decoy the mirror names is held by nothing the search can see.
        let decoyResult = try #require(await RetainerSearch.run(target: 3, in: objects, context: .init(expectedAlive: [1]), limits: Self.patient, site: site))
        #expect(decoyResult.paths.isEmpty, "\(decoyResult)")
        #expect(HostileCalls.count.load(ordering: .relaxed) == 0)
        withExtendedLifetime(host) {}
    }

    // MARK: - Nothing is held, nothing waits

    @Test("a busy actor: the search reads its state without waiting for it, and holds nothing the app lets go meanwhile")
    func busyActor() async throws {
        let objects = LiveObjects(enabled: true)
        let gate = TaskGate()
        let busy = BusyKeeper()
        await busy.keep(Payload())
        objects.register(busy, id: 1, type: "BusyKeeper", kind: .interactor)
        objects.register(try #require(await busy.peek()), id: 2, type: "Payload", kind: .router)
        var released: Payload? = Payload()
        weak let weakReleased = released
        objects.register(released!, id: 3, type: "Payload", kind: .router)
        let spin = Task.detached { await busy.spin(until: gate) }
        let result = await RetainerSearch.run(target: 2, in: objects, context: .init(expectedAlive: [1]))
        released = nil
        #expect(weakReleased == nil, "something still holds the object the app let go")
        #expect(!gate.isOpen)
        gate.open()
        await spin.value
        #expect(result?.paths == ["BusyKeeper#1.kept (suspect) → Payload#2"], "\(String(describing: result))")
        #expect(result?.tally == "1 of 1 strong reference found", "\(String(describing: result))")
    }

    @Test("in place, a main actor that does not run: the search gives up within its bound and says so", .dedicatedThread)
    func blockedMainActor() async throws {
        let objects = LiveObjects(enabled: true)
        let target = Payload()
        objects.register(target, id: 2, type: "Payload", kind: .router)
        let gate = TaskGate()
        let blocked = Task { @MainActor in while !gate.isOpen { usleep(1000) } }
        let result = RetainerSearch.runWaiting(target: 2, in: objects, context: .init(),
                                               limits: .init(time: .milliseconds(100)), site: .inPlace)
        gate.open()
        await blocked.value
        #expect(result?.paths == [], "\(String(describing: result))")
        #expect(result?.note == "Not searched: the main actor did not let the search run within 1100 ms; it is blocked or very busy.")
        withExtendedLifetime(target) {}
    }

    @Test("two searches at once (parallel verdicts do that): each counts the app's references only")
    func twoAtOnce() async throws {
        let objects = LiveObjects(enabled: true)
        let host = Slot(), other = Slot()
        host.put(Payload())
        other.put(Payload())
        objects.register(host, id: 1, type: "Slot", kind: .router)
        objects.register(other, id: 4, type: "Slot", kind: .router)
        objects.register(try #require(host.peek()), id: 2, type: "Payload", kind: .interactor)
        objects.register(try #require(other.peek()), id: 3, type: "Payload", kind: .interactor)
        for _ in 0..<5 {
            async let a = RetainerSearch.run(target: 2, in: objects, context: .init())
            async let b = RetainerSearch.run(target: 3, in: objects, context: .init())
            let (x, y) = await (a, b)
            #expect(x?.tally == "1 of 1 strong reference found", "\(String(describing: x))")
            #expect(y?.tally == "1 of 1 strong reference found", "\(String(describing: y))")
        }
        withExtendedLifetime((host, other)) {}
    }

    // MARK: - Honest counts

    @Test("one array buffer in two fields (and a global): one reference, two paths, 1 of 1")
    func sharedBuffer() async throws {
        let objects = LiveObjects(enabled: true)
        let host = TwoFields([Payload()])
        SharedGlobal.items = host.first
        defer { SharedGlobal.items = [] }
        objects.register(host, id: 1, type: "TwoFields", kind: .router)
        objects.register(host.first[0], id: 2, type: "Payload", kind: .interactor)
        let result = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init(expectedAlive: [1])))
        #expect(result.tally == "1 of 1 strong reference found", "\(result)")
        #expect(Set(result.paths) == ["TwoFields#1.first[0] (suspect) → Payload#2", "TwoFields#1.second[0] (suspect) → Payload#2"], "\(result)")
        withExtendedLifetime(host) {}
    }

    @Test("one closure context in two fields: its capture is one reference")
    func sharedClosureContext() async throws {
        let objects = LiveObjects(enabled: true)
        let host = TwoClosures(Payload())
        objects.register(host, id: 1, type: "TwoClosures", kind: .router)
        objects.register(try #require(host.probe), id: 2, type: "Payload", kind: .interactor)
        let result = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init(expectedAlive: [1])))
        #expect(result.tally == "1 of 1 strong reference found", "\(result)")
        #expect(Set(result.paths) == ["TwoClosures#1.first{closure} (suspect) → Payload#2", "TwoClosures#1.second{closure} (suspect) → Payload#2"], "\(result)")
        withExtendedLifetime(host) {}
    }

    // MARK: - Bounds

    @Test("nested collections: a grid of numbers is not read at all, a grid of a million references stops at the whole search's budget")
    func nestedCollections() async throws {
        let objects = LiveObjects(enabled: true)
        let host = Grids(numbers: Array(repeating: Array(repeating: 1.5, count: 1000), count: 1000),
                         references: Array(repeating: Array(repeating: Payload(), count: 1000), count: 1000), target: Payload())
        objects.register(host, id: 1, type: "Grids", kind: .router)
        objects.register(try #require(host.target), id: 2, type: "Payload", kind: .interactor)
        let cut = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init(), limits: .init(values: 50_000)))
        #expect(cut.note?.contains("the search stopped at its limit") == true, "\(cut)")
        let inPlace = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init(), limits: .init(time: .seconds(60)), site: .inPlace))
        #expect(inPlace.note?.contains("the search stopped at its limit") == true, "\(inPlace)")
        withExtendedLifetime(host) {}
    }

    // MARK: - What cannot be read is named

    @Test("a Mutex and a ~Copyable field: named in the note, never copied")
    func noncopyableFields() async throws {
        let objects = LiveObjects(enabled: true)
        let host = GuardedHost(Payload())
        objects.register(host, id: 1, type: "GuardedHost", kind: .router)
        objects.register(try #require(host.probe), id: 2, type: "Payload", kind: .interactor)
        let result = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init()))
        #expect(result.paths.isEmpty, "\(result)")
        #expect(result.note?.contains("GuardedHost.guarded (a ~Copyable value such as a Mutex, which the runtime does not describe)") == true, "\(result)")
        #expect(result.note?.contains("GuardedHost.unique (a ~Copyable value") == true, "\(result)")
        #expect(result.tally == "0 of 2 strong references found", "\(result)")
        withExtendedLifetime(host) {}
    }

    #if os(Linux)
    @Test("a block observer of a notification center named as a root: no path (its observers sit behind a Mutex), and the note names that hop")
    func notificationObserver() async throws {
        let objects = LiveObjects(enabled: true)
        let center = NotificationCenter()
        let token = Observed.observe(on: center, registeringIn: objects)
        objects.register(center, id: 1, type: "NotificationCenter", kind: .router)
        let result = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init(expectedAlive: [1])))
        #expect(result.tally == "0 of 1 strong reference found", "\(result)")
        #expect(result.note?.contains("not read: NotificationCenter.registrar (a ~Copyable value such as a Mutex, which the runtime does not describe)") == true, "\(result)")
        center.removeObserver(token)
    }
    #endif

    @Test("in place: let fields are read, the var fields of an object whose isolation cannot be proven are not, and the note names them")
    func inPlaceReadsOnlyWhatCannotChange() async throws {
        let objects = LiveObjects(enabled: true)
        let host = LetAndVar(Payload())
        objects.register(host, id: 1, type: "LetAndVar", kind: .router)
        objects.register(host.fixed, id: 2, type: "Payload", kind: .interactor)
        let inPlace = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init(expectedAlive: [1]), limits: Self.patient, site: .inPlace))
        #expect(inPlace.paths == ["LetAndVar#1.fixed (suspect) → Payload#2"], "\(inPlace)")
        #expect(inPlace.tally == "1 of 2 strong references found")
        #expect(inPlace.note?.contains("the var fields of LetAndVar (another thread may change them; a snapshot reads them on macOS and Linux)") == true, "\(inPlace)")
        let snapshot = try #require(await RetainerSearch.run(target: 2, in: objects, context: .init(expectedAlive: [1]), site: .snapshot))
        #expect(Set(snapshot.paths) == ["LetAndVar#1.fixed (suspect) → Payload#2", "LetAndVar#1.changing (suspect) → Payload#2"], "\(snapshot)")
        #expect(snapshot.tally == "2 of 2 strong references found", "\(snapshot)")
        withExtendedLifetime(host) {}
    }
}

// MARK: - Fixtures

/// An object searched for.
private final class Payload: Sendable {}

/// A cache the app guards with its own lock and changes from any thread.
private final class LockedCache: @unchecked Sendable {
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

    /// Replaces entries and the current object: frees the old ones.
    func churn() {
        lock.lock(); defer { lock.unlock() }
        counter += 1
        entries["k\(counter % 64)"] = Payload()
        if counter % 97 == 0 { entries = entries.filter { $0.key == "pinned" } }
        current = Payload()
    }
}

private final class CacheHost: @unchecked Sendable {
    let cache = LockedCache()
}

/// Runs `body` in a loop on a thread of its own until stopped.
private final class Churner: @unchecked Sendable {
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
        if stopped.withLock({ value in defer { value = true }; return value }) { return }
        done.wait()
    }
}

/// One object at a time, moved between slots under one lock.
private final class Slot: @unchecked Sendable {
    private static let lock = NSLock()
    private var held: AnyObject?
    func put(_ object: AnyObject) { Self.lock.lock(); held = object; Self.lock.unlock() }
    func peek() -> AnyObject? { Self.lock.lock(); defer { Self.lock.unlock() }; return held }

    static func move(from a: Slot, to b: Slot) {
        lock.lock(); defer { lock.unlock() }
        if let object = a.held { a.held = nil; b.held = object } else if let object = b.held { b.held = nil; a.held = object }
    }
}

/// How often the hostile code ran (it must never).
private enum HostileCalls {
    static let count = Atomic<Int>(0)
}

private final class RouteBox: Sendable {
    let held: Payload
    init(_ held: Payload) { self.held = held }
}

/// An enum whose mirror lies: it names a decoy and traps off the main thread.
private enum Route: CustomReflectable, Sendable {
    case holding(RouteBox)
    case idle

    var customMirror: Mirror {
        HostileCalls.count.add(1, ordering: .relaxed)
        dispatchPrecondition(condition: .onQueue(.main))
        return Mirror(self, children: ["router": HostileHost.decoys.withLock { $0.last } as Any])
    }
}

/// A key whose description traps.
private struct HostileKey: Hashable, CustomStringConvertible, Sendable {
    let id: Int
    var description: String {
        HostileCalls.count.add(1, ordering: .relaxed)
        fatalError("the search called the app's description")
    }
}

private final class HostileHost: Sendable {
    /// Every decoy made (kept alive: only the lying mirror names one).
    static let decoys = Mutex<[Payload]>([])
    let route: Route
    let keyed: [HostileKey: Payload]
    init(route: Route, keyed: [HostileKey: Payload], decoy: Payload) {
        self.route = route
        self.keyed = keyed
        Self.decoys.withLock { $0.append(decoy) }
    }

    /// A host holding a payload (id 2) in its enum and its dictionary; the
    /// decoy (id 3) only the lying mirror names. The caller holds neither.
    static func make(registeringIn objects: LiveObjects) -> HostileHost {
        let target = Payload()
        let decoy = Payload()
        let host = HostileHost(route: .holding(RouteBox(target)), keyed: [HostileKey(id: 1): target], decoy: decoy)
        objects.register(host, id: 1, type: "HostileHost", kind: .router)
        objects.register(target, id: 2, type: "Payload", kind: .interactor)
        objects.register(decoy, id: 3, type: "Payload", kind: .interactor)
        return host
    }
}

/// An actor that keeps an object and can be kept busy.
private actor BusyKeeper {
    private var kept: Payload?
    func keep(_ object: Payload) { kept = object }
    func peek() -> Payload? { kept }
    /// Busy, not suspended, until `gate` opens.
    func spin(until gate: TaskGate) { while !gate.isOpen { usleep(1000) } }
}

private final class TwoFields: @unchecked Sendable {
    var first: [AnyObject]
    var second: [AnyObject]
    init(_ shared: [AnyObject]) { first = shared; second = shared }
}

/// A global nobody named (one test writes it).
private enum SharedGlobal {
    nonisolated(unsafe) static var items: [AnyObject] = []
}

private final class TwoClosures: @unchecked Sendable {
    var first: () -> Void = {}
    var second: () -> Void = {}
    weak var probe: Payload?
    init(_ target: Payload) {
        probe = target
        let number = 42
        let closure = { withExtendedLifetime((target, number)) {} }
        first = closure
        second = closure
    }
}

private final class Grids: @unchecked Sendable {
    let numbers: [[Double]]
    let references: [[Payload]]
    let target: Payload?
    init(numbers: [[Double]], references: [[Payload]], target: Payload) {
        self.numbers = numbers
        self.references = references
        self.target = target
    }
}

private struct Unique: ~Copyable {
    var held: Payload
}

private final class GuardedHost: @unchecked Sendable {
    let guarded: Mutex<[Payload]>
    var unique: Unique
    weak var probe: Payload?
    init(_ target: Payload) {
        probe = target
        guarded = Mutex([target])
        unique = Unique(held: target)
    }
}

private final class LetAndVar: @unchecked Sendable {
    let fixed: Payload
    var changing: Payload?
    init(_ target: Payload) { fixed = target; changing = target }
}

#if os(Linux)
/// Registers a block observer that captures a payload (id 2); the caller keeps only the token.
private enum Observed {
    static func observe(on center: NotificationCenter, registeringIn objects: LiveObjects) -> NSObjectProtocol {
        let target = Payload()
        objects.register(target, id: 2, type: "Payload", kind: .interactor)
        return center.addObserver(forName: Notification.Name("napkin.test"), object: nil, queue: nil) { _ in
            withExtendedLifetime(target) {}
        }
    }
}
#endif
