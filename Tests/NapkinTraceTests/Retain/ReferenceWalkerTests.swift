@testable import NapkinTrace
import Testing

/// Every kind of reference the walk names, and every kind it must not
/// report: one object holding the target in one way per test, the labels
/// it gives, and nothing for `weak`, `unowned` and `unowned(unsafe)`.
@Suite("Retainers: the references one object holds")
struct ReferenceWalkerTests {
    final class Target: Sendable {}
    protocol Service: AnyObject {}
    protocol Holding {}
    final class ServiceImpl: Service {}
    struct Item { var name = "a"; var target: Target }
    struct WeakItem { weak var target: Target?; var count = 1 }
    enum State { case idle, showing(Target), pair(Int, Target) }
    class Base { var inherited: Target?; init(_ t: Target?) { inherited = t } }
    final class Derived: Base { var own = 0 }

    /// The labels of the references `object` holds to `target`.
    func labels(_ object: AnyObject, to target: AnyObject) -> [String] {
        ReferenceWalker.references(of: object).references.filter { $0.object === target }.map(\.label)
    }

    @Test("a stored property, an optional, an existential and a superclass's field", .singleThreaded)
    func storedProperties() {
        final class Holder {
            let strong: Target; var optional: Target?; var any: AnyObject?; var service: (any Service)?
            init(_ t: Target, _ s: ServiceImpl) { strong = t; optional = t; any = t; service = s }
        }
        let target = Target(), service = ServiceImpl()
        let holder = Holder(target, service)
        #expect(labels(holder, to: target) == ["strong", "optional", "any"])
        #expect(labels(holder, to: service) == ["service"])
        #expect(labels(Derived(target), to: target) == ["inherited"])
    }

    @Test("weak, unowned and unowned(unsafe) references are not retainers", .singleThreaded)
    func weakIsNotARetainer() {
        final class Holder {
            weak var weakRef: Target?; unowned var unownedRef: Target; unowned(unsafe) var unsafeRef: Target
            var item: WeakItem
            init(_ t: Target) { weakRef = t; unownedRef = t; unsafeRef = t; item = WeakItem(target: t) }
        }
        let target = Target()
        let holder = Holder(target)
        #expect(labels(holder, to: target).isEmpty)
        #expect(ReferenceWalker.references(of: holder).references.isEmpty)
    }

    @Test("elements of arrays, dictionaries and sets, struct fields, enum payloads and tuples", .singleThreaded)
    func containers() {
        final class Holder {
            var screens: [Target?] = []; var byName: [String: Target] = [:]; var set: Set<ObjectIdentifier> = []
            var items: [Item] = []; var state = State.idle; var pairState = State.idle; var tuple: (Int, Target)?
            var nested: [[Target]] = []
        }
        let target = Target()
        let holder = Holder()
        holder.screens = [nil, target]
        holder.byName = ["pit": target]
        holder.items = [Item(target: target)]
        holder.state = .showing(target)
        holder.pairState = .pair(1, target)
        holder.tuple = (3, target)
        holder.nested = [[], [target]]
        #expect(labels(holder, to: target) == ["screens[1]", "byName[\"pit\"]", "items[0].target", "state.showing",
                                               "pairState.pair.1", "tuple.1", "nested[1][0]"])
    }

    @Test("a stored closure that captured the object, named by its property", .singleThreaded)
    func closures() {
        final class Holder {
            var onTap: () -> Void = {}
            var weakTap: () -> Void = {}
            var unownedTap: () -> Void = {}
            var method: () -> Void = {}
            var several: (Int) -> Int = { $0 }
            var optional: (() -> Void)?
        }
        final class Methods { let target: Target; init(_ t: Target) { target = t }; func run() {} }
        let target = Target()
        let holder = Holder()
        holder.onTap = { _ = target }
        holder.weakTap = { [weak target] in _ = target }
        holder.unownedTap = { [unowned target] in _ = target }
        let methods = Methods(target)
        holder.method = methods.run
        let text = "x"
        holder.several = { [text] in $0 + text.count + (target === target ? 1 : 0) }
        holder.optional = { _ = target }
        #expect(labels(holder, to: target) == ["onTap{closure}", "several{closure}", "optional{closure}"])
        #expect(labels(holder, to: methods) == ["method{closure}"])
    }

    @Test("a captured var kept in a box is not read, and the walk says so; the closure's other captures are", .singleThreaded)
    func boxedCapture() {
        final class Holder { var counter: () -> Void = {} }
        func makeCounter(_ target: Target, other: Target, into holder: Holder) {
            var held: Target? = target
            holder.counter = { held = held ?? other }
        }
        let target = Target(), other = Target()
        let holder = Holder()
        makeCounter(target, other: other, into: holder)
        let (references, unsearched) = ReferenceWalker.references(of: holder)
        #expect(!references.contains { $0.object === target })
        #expect(labels(holder, to: other) == ["counter{closure}"])
        #expect(unsearched == ["Holder.counter{closure}: a captured var (kept in a box)"])
    }

    @Test("two closures sharing one context that holds the object: two paths, one reference", .singleThreaded)
    func sharedContext() {
        final class Holder { var counter: () -> Void = {}; var reset: () -> Void = {} }
        func install(_ target: Target, into holder: Holder) {
            var held: Target? = target
            holder.counter = { held = held ?? Target() }
            holder.reset = { held = nil }
        }
        let target = Target()
        let holder = Holder()
        install(target, into: holder)
        let references = ReferenceWalker.references(of: holder).references.filter { $0.object === target }
        #expect(references.map(\.label) == ["counter{closure}", "reset{closure}"])
        #expect(references[0].holder != nil && references[0].holder == references[1].holder)
    }

    @Test("a var only one closure captured is kept in its context, and found", .singleThreaded)
    func promotedCapture() {
        final class Holder { var counter: () -> Void = {} }
        func makeCounter(_ target: Target) -> () -> Void {
            var held: Target? = target
            return { held = held ?? Target() }
        }
        let target = Target()
        let holder = Holder()
        holder.counter = makeCounter(target)
        #expect(labels(holder, to: target) == ["counter{closure}"])
    }

    @Test("values in fields of type Any and of a protocol type, closures in an array and stored as Any (through the conversion thunk's context)", .singleThreaded)
    func existentials() {
        struct Box: Holding { var target: Target }
        final class Holder { var any: Any = 0; var holding: (any Holding)?; var anyClosure: Any = 0; var anyObject: Any = 0; var callbacks: [() -> Void] = [] }
        let target = Target()
        let holder = Holder()
        holder.any = Box(target: target)
        holder.holding = Box(target: target)
        holder.anyClosure = { _ = target } as () -> Void
        holder.anyObject = target
        holder.callbacks = [{ _ = target }]
        // A closure stored as `Any` sits behind a conversion thunk whose capture
        // (a lowered function type) the runtime cannot name: read as the two
        // words every thick function is, its context's captures read in turn.
        #expect(labels(holder, to: target) == ["any.target", "holding.target", "anyClosure{closure}", "anyObject", "callbacks[0]{closure}"])
        #expect(ReferenceWalker.references(of: holder).unsearched.isEmpty)
    }

    @Test("a huge collection: read up to the search's budget of values, which is the whole search's, not each collection's", .singleThreaded)
    func hugeCollection() {
        final class Holder { var items: [Target] = []; var more: [[Target]] = [] }
        let target = Target()
        let holder = Holder()
        holder.items = (0..<20).map { _ in Target() } + [target]
        holder.more = [[target], [target]]
        let budget = ReferenceWalker.Budget(values: 20, deadline: .max)
        let cut = ReferenceWalker.references(of: holder, budget: budget)
        #expect(!cut.references.contains { $0.object === target })
        #expect(budget.isExhausted)
        // One value for the field, then elements: 19 of them fit.
        #expect(cut.references.count == 19)
        #expect(labels(holder, to: target) == ["items[20]", "more[0][0]", "more[1][0]"])
    }

    @Test("collections whose elements cannot hold a reference are not read at all", .singleThreaded)
    func trivialCollections() {
        final class Holder { var grid: [[Double]] = []; var names: [String: Int] = [:]; var target: Target? }
        let holder = Holder()
        holder.grid = Array(repeating: Array(repeating: 1.5, count: 1000), count: 1000)
        holder.names = Dictionary(uniqueKeysWithValues: (0..<1000).map { ("k\($0)", $0) })
        holder.target = Target()
        let budget = ReferenceWalker.Budget(values: 10, deadline: .max)
        let found = ReferenceWalker.references(of: holder, budget: budget)
        #expect(found.references.map(\.label) == ["target"])
        #expect(!budget.isExhausted)
    }

    @Test("an object used as a dictionary key: named by the key's place, `.keys[…]`", .singleThreaded)
    func dictionaryKeys() {
        final class Holder { var owners: [ObjectIdentifier: Target] = [:]; var byTarget: [Wrapped: Int] = [:] }
        struct Wrapped: Hashable { let target: Target; static func == (a: Wrapped, b: Wrapped) -> Bool { a.target === b.target }; func hash(into h: inout Hasher) {} }
        let target = Target()
        let holder = Holder()
        holder.byTarget = [Wrapped(target: target): 1]
        #expect(labels(holder, to: target) == ["byTarget.keys[#0].target"])
    }

    @Test("values nested deeper than 24 levels: not read, and said", .singleThreaded)
    func depthLimit() {
        indirect enum Nest { case leaf(Target), node(Nest) }
        final class Holder { var deep: Nest; var shallow: Nest
            init(_ t: Target) {
                var deep = Nest.leaf(t)
                for _ in 0..<30 { deep = .node(deep) }
                self.deep = deep
                shallow = .node(.leaf(t))
            }
        }
        let target = Target()
        let holder = Holder(target)
        let (references, unsearched) = ReferenceWalker.references(of: holder)
        #expect(references.filter { $0.object === target }.map(\.label) == ["shallow.node.leaf"])
        #expect(unsearched.count == 1)
        #expect(unsearched.first?.hasPrefix("Holder.deep.node.node.node") == true, "\(unsearched)")
        #expect(unsearched.first?.hasSuffix("…: values nested deeper than 24 levels") == true, "\(unsearched)")
    }

    @Test("closures whose captures are a collection, another closure, or a dictionary of closures", .singleThreaded)
    func closuresOfCollectionsAndClosures() {
        final class Holder {
            var onArray: () -> Void = {}
            var onNested: () -> Void = {}
            var handlers: [String: () -> Void] = [:]
        }
        let target = Target()
        let holder = Holder()
        let list = [target, Target()]
        let number = 3
        holder.onArray = { withExtendedLifetime((list, number)) {} }
        let inner = { _ = target }
        holder.onNested = { inner(); _ = number }
        holder.handlers = ["pit": { _ = target }]
        #expect(labels(holder, to: target) == ["onArray{closure}[0]", "onNested{closure}", "handlers[\"pit\"]{closure}"], "\(ReferenceWalker.references(of: holder).unsearched)")
        #expect(ReferenceWalker.references(of: holder).unsearched.isEmpty)
    }

    @Test("a generic closure's captures: not read, and said (a module without reflection metadata: RetainerSearchTests)", .singleThreaded)
    func unreadableCaptures() {
        final class Holder { var generic: () -> Void = {} }
        func makeGeneric<T: AnyObject>(_ value: T) -> () -> Void { { withExtendedLifetime(value) {} } }
        let target = Target()
        let holder = Holder()
        holder.generic = makeGeneric(target)
        let (references, unsearched) = ReferenceWalker.references(of: holder)
        #expect(!references.contains { $0.object === target })
        #expect(unsearched == ["Holder.generic{closure}: a generic closure's captures"])
    }

    @Test("an actor's state", .singleThreaded)
    func actorState() async {
        actor Keeper { var kept: Target?; func keep(_ t: Target) { kept = t } }
        let target = Target()
        let keeper = Keeper()
        await keeper.keep(target)
        let labels = await keeper.labels(to: target)
        #expect(labels == ["kept"])
    }
}

extension Actor {
    /// The walk of this actor's state, isolated to it.
    func labels(to target: AnyObject) -> [String] {
        ReferenceWalker.references(of: self).references.filter { $0.object === target }.map(\.label)
    }
}
