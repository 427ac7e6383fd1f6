/// The strong references one object holds, each named by how it is held:
/// a stored property (`store`), a property of a struct in one (`state.items`),
/// an element (`screens[0]`, `handlers["pit"]`), an enum payload
/// (`state.showing`), or a value a stored closure captured
/// (`onTap{closure}`).
///
/// Layout facts come from `RuntimeFields` (which fields are strong and
/// `var`, where they are), `ClosureCaptures`, `ValueReflection` (enum
/// payloads and tuple elements) and `StandardCollections`; nothing here
/// calls the app's code (no `Mirror`, no `description`, no conformance of
/// the app's). Values are read as typed copies of fields of an object the
/// caller holds. `weak`, `unowned` and `unowned(unsafe)` fields are never
/// read, not even copied.
///
/// What may be read depends on where the walk runs (``Policy``): in a
/// frozen snapshot (a forked child, one thread) every strong field; in the
/// app's own process only what no other thread can change under the read.
struct ReferenceWalker {
    /// One strong reference found.
    struct Reference {
        /// How it is held, relative to the object (`store`, `screens[0]`).
        let label: String
        /// The object held.
        let object: AnyObject
        /// The heap slot that holds it when that is not the object's own
        /// field: an element of a collection's buffer, a capture in a
        /// closure context. Two fields sharing one buffer or context hold
        /// its references once.
        var holder: HeapSlot? = nil
    }

    /// Where the walk runs, which decides what it may read.
    enum Policy: Sendable, Equatable {
        /// A frozen copy of the process (a forked child with one thread):
        /// nothing changes under a read, so every strong field is read.
        case snapshot
        /// The app's own process, on the main actor: `let` fields of any
        /// object (they never change after `init`), and `var` fields only
        /// of objects whose isolation is the main actor by construction
        /// (napkin's routers and presenters, UIKit's and AppKit's
        /// responders). Anything else is named as not read.
        case inPlace
    }

    /// How deep values may nest.
    struct Limits {
        var depth = 24
    }

    /// What the whole search may still spend (shared by every object it
    /// reads, so nested collections do not multiply it): elements and
    /// values read, and a deadline, checked as it reads, not only between
    /// objects.
    final class Budget {
        /// Values and elements left to read.
        private(set) var valuesLeft: Int
        /// `MonotonicClock` time past which nothing more is read.
        let deadline: UInt64
        /// A limit was reached.
        private(set) var isExhausted = false
        private var sinceClock = 0
        /// Called about every 20 ms while values are read (a snapshot's
        /// reader says it is alive).
        var heartbeat: (() -> Void)?
        private var beatAt: UInt64 = 0

        /// A budget of `values` and until `deadline`.
        init(values: Int, deadline: UInt64) {
            self.valuesLeft = values
            self.deadline = deadline
        }

        /// A budget that does not run out (tests of one object).
        static var unlimited: Budget { Budget(values: .max, deadline: .max) }

        /// Spends one value; false once a limit is reached.
        func spend() -> Bool {
            if isExhausted { return false }
            valuesLeft -= 1
            sinceClock += 1
            if valuesLeft < 0 { isExhausted = true; return false }
            if sinceClock >= 64 {
                sinceClock = 0
                let now = MonotonicClock.now()
                if now >= deadline { isExhausted = true; return false }
                if let heartbeat, now &- beatAt > 20_000_000 {
                    heartbeat()
                    beatAt = now
                }
            }
            return true
        }

        /// Whether the deadline passed (checked now).
        func checkDeadline() -> Bool {
            if !isExhausted && MonotonicClock.now() >= deadline { isExhausted = true }
            return isExhausted
        }
    }

    let limits: Limits
    let policy: Policy
    let budget: Budget
    /// The references found so far.
    private(set) var references: [Reference] = []
    /// What held something the walk could not read (each once), each
    /// naming its hop (`Holder.onTap{closure}: a generic closure's captures`).
    private(set) var unsearched: Set<String> = []
    /// The object being read, as a hop names it.
    private var objectName = ""

    init(policy: Policy, budget: Budget, limits: Limits = Limits()) {
        self.policy = policy
        self.budget = budget
        self.limits = limits
    }

    /// The strong references `object` holds in its stored properties
    /// (its superclasses' included).
    ///
    /// With `onlyFirstExcept`, a reference to any other object than that one
    /// is kept only the first time the object is met (a path needs one; a
    /// grid of a million references to one object gives one), while every
    /// reference to that one (the object searched for: each counts) is kept.
    static func references(of object: AnyObject, policy: Policy = .snapshot, budget: Budget = .unlimited,
                           limits: Limits = Limits(), onlyFirstExcept target: ObjectIdentifier? = nil)
        -> (references: [Reference], unsearched: Set<String>) {
        var walker = ReferenceWalker(policy: policy, budget: budget, limits: limits)
        walker.everyReferenceTo = target
        walker.walkFields(of: object)
        return (walker.references, walker.unsearched)
    }

    /// See ``references(of:policy:budget:limits:onlyFirstExcept:)``.
    private var everyReferenceTo: ObjectIdentifier?
    /// The objects met, when only the first reference to each is kept.
    private var met: Set<ObjectIdentifier> = []

    // MARK: - Objects

    private mutating func walkFields(of object: AnyObject) {
        let type: AnyClass = Swift.type(of: object)
        if Self.isSealed(type) { return }
        objectName = Self.name(type)
        let fields = RuntimeFields.fields(of: type)
        let readsVars = policy == .snapshot || Self.isMainActorIsolated(type)
        withExtendedLifetime(object) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            for field in fields where field.isStrong {
                if field.type == Void.self {
                    unsearched.insert("\(Self.name(type)).\(field.name) (a ~Copyable value such as a Mutex, which the runtime does not describe)")
                    continue
                }
                guard Self.mayHoldReferences(field.type) else { continue }
                if field.isVar && !readsVars {
                    unsearched.insert("the var fields of \(Self.name(type)) (another thread may change them; a snapshot reads them on macOS and Linux)")
                    continue
                }
                guard budget.spend() else { return }
                walk(RuntimeFields.load(field.type, from: base + field.offset), label: field.name, depth: 0, holder: nil)
            }
        }
    }

    // MARK: - Values

    /// Walks a value (a copy) held at `label`; `holder` is the heap slot
    /// (a buffer's element, a closure's capture) it was read from, if any.
    private mutating func walk(_ value: Any, label: String, depth: Int, holder: HeapSlot?) {
        guard depth < limits.depth else {
            unsearched.insert(hop(label) + ": values nested deeper than \(limits.depth) levels")
            return
        }
        let type: Any.Type = Swift.type(of: value)
        switch RuntimeFields.kind(of: type) {
        case .classInstance:
            let object = value as AnyObject
            if let target = everyReferenceTo {
                let id = ObjectIdentifier(object)
                guard id == target || met.insert(id).inserted else { return }
            }
            references.append(Reference(label: label, object: object, holder: holder))
        case .optional, .enumeration, .tuple:
            if RuntimeFields.isTrivial(type) { return }
            for (index, child) in ValueReflection.children(of: value).enumerated() {
                guard budget.spend() else { return }
                let name: String
                switch RuntimeFields.kind(of: type) {
                case .optional: name = ""
                case .tuple: name = "." + (child.label.flatMap { $0.hasPrefix(".") ? nil : $0 } ?? "\(index)")
                case .enumeration: name = "." + (child.label ?? "payload")
                case .classInstance, .structure, .function, .existential, .other: name = ""
                }
                walk(child.value, label: label + name, depth: depth + 1, holder: holder?.appending(name))
            }
        case .structure:
            walkStructure(value, type: type, label: label, depth: depth, holder: holder)
        case .function:
            guard RuntimeFields.isThickSwiftFunction(type) else { return }
            let (context, captures) = ClosureCaptures.captures(of: value)
            // `value` holds the context, and the context every closure it captured.
            withExtendedLifetime(value) {
                walkCaptures(captures, of: context, label: label + "{closure}", depth: depth + 1, holder: holder)
            }
        case .existential, .other:
            break
        }
    }

    /// Walks what a closure context captured (a closure it captured, its
    /// own captures, under the same label: `onTap{closure}`).
    private mutating func walkCaptures(_ captures: [ClosureCaptures.Capture], of context: UnsafeRawPointer?,
                                       label: String, depth: Int, holder: HeapSlot?) {
        guard depth < limits.depth else {
            unsearched.insert(hop(label) + ": values nested deeper than \(limits.depth) levels")
            return
        }
        for (index, capture) in captures.enumerated() {
            guard budget.spend() else { return }
            let slot = context.map { HeapSlot(heap: UInt(bitPattern: $0), path: "{\(index)}") } ?? holder
            switch capture {
            case .value(let captured):
                walk(captured, label: label, depth: depth, holder: slot)
            case .unsearched(let what):
                unsearched.insert(hop(label) + ": " + what)
            case .closureContext(let inner):
                walkCaptures(ClosureCaptures.captures(ofContext: inner), of: inner, label: label, depth: depth + 1, holder: slot)
            }
        }
    }

    /// Walks a struct: a standard collection element by element, anything
    /// else field by field (so its `weak` fields stay unread).
    private mutating func walkStructure(_ value: Any, type: Any.Type, label: String, depth: Int, holder: HeapSlot?) {
        if RuntimeFields.isTrivial(type) || Self.isLeaf(type) { return }
        if Self.isStandardCollection(type), let collection = value as? any WalkableCollection {
            guard Swift.type(of: collection).elementsMayHoldReferences else { return }
            let heap = collection.storageIdentity
            collection.forEachElement { index, key, element in
                guard budget.spend() else { return false }
                let position = key.map { "[\(Self.keyText($0, index: index))]" } ?? "[\(index)]"
                walk(element, label: label + position, depth: depth + 1, holder: HeapSlot(heap: heap, path: position))
                if let key {
                    walk(key, label: label + ".keys" + position, depth: depth + 1, holder: HeapSlot(heap: heap, path: ".keys" + position))
                }
                return !budget.isExhausted
            }
            return
        }
        // Opened through the dynamic type, not the value: a value loaded
        // from a field of existential type is boxed as that existential,
        // and opening it would give the existential, not the struct.
        func fields<T>(_: T.Type) {
            guard let concrete = value as? T else { return }
            withUnsafePointer(to: concrete) { pointer in
                let base = UnsafeRawPointer(pointer)
                for field in RuntimeFields.fields(of: T.self) where field.isStrong {
                    if field.type == Void.self {
                        unsearched.insert("\(Self.name(type)).\(field.name) (a ~Copyable value such as a Mutex, which the runtime does not describe)")
                        continue
                    }
                    guard Self.mayHoldReferences(field.type), budget.spend() else { continue }
                    walk(RuntimeFields.load(field.type, from: base + field.offset), label: label + "." + field.name,
                         depth: depth + 1, holder: holder?.appending("." + field.name))
                }
            }
        }
        fields(type)
    }

    /// `Holder.state.items[3]`, at most 80 characters.
    private func hop(_ label: String) -> String {
        let text = objectName + "." + label
        return text.count > 80 ? String(text.prefix(79)) + "…" : text
    }

    // MARK: - What needs no reading

    /// Classes whose state the walk must not read: napkin's own machinery
    /// (NapkinTrace's tracer, detector and locks; Napkin's
    /// `InteractorLifecycle`), whose state is guarded by locks the walk does
    /// not take and holds nothing of the app's but tasks, and every
    /// `ManagedBuffer` subclass (a lock's storage, a hand-made buffer: its
    /// header is read through a pointer, under whatever guards it). Decided
    /// once per class.
    static func isSealed(_ type: AnyClass) -> Bool {
        classFact(type, cache: sealed) { name in
            name.hasPrefix("NapkinTrace.") || name == "Napkin.InteractorLifecycle" || name.hasPrefix("Swift.ManagedBuffer<")
        }
    }

    /// Whether instances of `type` are isolated to the main actor by
    /// construction: a subclass of napkin's `Router` or `Presenter` (both
    /// `@MainActor`), or of UIKit's `UIResponder` or AppKit's
    /// `NSResponder`. Only these have their `var` fields read in the
    /// app's process (``Policy/inPlace``).
    static func isMainActorIsolated(_ type: AnyClass) -> Bool {
        classFact(type, cache: mainActorClasses) { name in
            name.hasPrefix("Napkin.Router<") || name.hasPrefix("Napkin.Presenter<")
                || name == "UIResponder" || name == "__C.UIResponder" || name == "NSResponder" || name == "__C.NSResponder"
        }
    }

    /// Whether `type` or a superclass has a name `matches` accepts, cached.
    private static func classFact(_ type: AnyClass, cache: Locked<[ObjectIdentifier: Bool]>,
                                  matches: (String) -> Bool) -> Bool {
        let key = ObjectIdentifier(type)
        if !SnapshotChild.isCurrent, let known = cache.withLock({ $0[key] }) { return known }
        var result = false
        var current: AnyClass? = type
        while let each = current, !result {
            result = matches(_typeName(each, qualified: true))
            current = _getSuperclass(each)
        }
        if !SnapshotChild.isCurrent { cache.withLock { $0[key] = result } }
        return result
    }

    private static let sealed = Locked<[ObjectIdentifier: Bool]>([:])
    private static let mainActorClasses = Locked<[ObjectIdentifier: Bool]>([:])

    /// The standard library's collections, read element by element (their
    /// storage is a buffer the field metadata does not describe). Named by
    /// type, not by `Mirror.displayStyle`, which an app's own
    /// `CustomReflectable` type may claim with children it does not hold.
    ///
    /// Told by the struct's type descriptor (the same for every element
    /// type), not by its name: naming a type takes a lock of the runtime's
    /// that another thread of the app may have held when a snapshot was
    /// copied.
    private static func isStandardCollection(_ type: Any.Type) -> Bool {
        guard let descriptor = RuntimeFields.structDescriptor(of: type) else { return false }
        return standardCollections.contains(descriptor)
    }

    /// The type descriptors of the standard library's collections (made
    /// before any snapshot is copied: ``prepare()``).
    private static let standardCollections: Set<UInt> = Set(
        ([[Int].self, ContiguousArray<Int>.self, ArraySlice<Int>.self, Set<Int>.self, [Int: Int].self] as [Any.Type])
            .compactMap { RuntimeFields.structDescriptor(of: $0) })

    /// Makes, in the app's process, what a snapshot's reader must not make
    /// itself (a lazily made value takes a lock the app may hold at the copy).
    static func prepare() {
        _ = standardCollections
    }

    /// Whether a value of `type` can hold a reference at all (numbers,
    /// strings and other leaf values cannot, as far as the app is concerned;
    /// neither can a trivial type, whose copy is a copy of its bytes).
    static func mayHoldReferences(_ type: Any.Type) -> Bool {
        switch RuntimeFields.kind(of: type) {
        case .classInstance, .function, .existential: return true
        case .optional, .enumeration, .tuple: return !RuntimeFields.isTrivial(type)
        case .structure:
            if RuntimeFields.isTrivial(type) || isLeaf(type) { return false }
            if isStandardCollection(type), let collection = type as? any WalkableCollection.Type {
                return collection.elementsMayHoldReferences
            }
            return true
        case .other: return false
        }
    }

    /// Standard library values that hold no reference of the app's.
    private static func isLeaf(_ type: Any.Type) -> Bool {
        type == String.self || type == Substring.self || type == Character.self || type == StaticString.self
    }

    /// A dictionary key as a path shows it: a string quoted, a number or a
    /// Boolean as written, anything else by its position (its own
    /// `description` would be the app's code).
    private static func keyText(_ key: Any, index: Int) -> String {
        let text: String
        switch key {
        case let string as String: text = "\"\(string)\""
        case let string as Substring: text = "\"\(string)\""
        case let number as Int: text = String(number)
        case let number as Int64: text = String(number)
        case let number as Int32: text = String(number)
        case let number as UInt: text = String(number)
        case let number as UInt64: text = String(number)
        case let flag as Bool: text = flag ? "true" : "false"
        default: return "#\(index)"
        }
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }

    /// A type's name as a note shows it.
    static func name(_ type: Any.Type) -> String {
        _typeName(type, qualified: false)
    }
}

/// A place on the heap that holds a reference: a buffer or closure context
/// (its address) and the position in it. References through one slot count
/// once, however many fields reach the buffer or context.
struct HeapSlot: Hashable, Sendable {
    /// The buffer's or context's address.
    var heap: UInt
    /// The position in it (`[3]`, `{0}.items[2]`).
    var path: String

    /// The slot of a value nested deeper in this one.
    func appending(_ suffix: String) -> HeapSlot {
        HeapSlot(heap: heap, path: path + suffix)
    }
}
