/// The strong references one object holds, each named by how it is held:
/// a stored property (`store`), a property of a struct in one (`state.items`),
/// an element (`screens[0]`, `handlers["pit"]`), an enum payload
/// (`state.showing`), or a value a stored closure captured
/// (`onTap{closure}`).
///
/// Layout facts come from `RuntimeFields` (which fields are strong, where
/// they are) and `ClosureCaptures`; values are read as typed copies of
/// fields of an object the caller holds, in the isolation that guards it
/// (`RetainerSearch` decides which). `weak`, `unowned` and
/// `unowned(unsafe)` fields are never read, not even copied. Collections,
/// optionals, enums and tuples are read through `Mirror` on a copy, whose
/// children cannot be weak (an element, a payload and a tuple element are
/// always strong).
struct ReferenceWalker {
    /// One strong reference found.
    struct Reference {
        /// How it is held, relative to the object (`store`, `screens[0]`).
        let label: String
        /// The object held.
        let object: AnyObject
        /// The closure context that holds it, for a captured value: two
        /// stored closures sharing a context hold it once.
        var holder: UInt? = nil
    }

    /// How much one object's walk may read: nesting depth of values, and
    /// elements read per collection.
    struct Limits {
        var depth = 24
        var elementsPerCollection = 10_000
    }

    let limits: Limits
    /// The references found so far.
    private(set) var references: [Reference] = []
    /// What held something the walk could not read (each once).
    private(set) var unsearched: Set<String> = []

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    /// The strong references `object` holds in its stored properties
    /// (its superclasses' included).
    static func references(of object: AnyObject, limits: Limits = Limits()) -> (references: [Reference], unsearched: Set<String>) {
        var walker = ReferenceWalker(limits: limits)
        walker.walkFields(of: object)
        return (walker.references, walker.unsearched)
    }

    // MARK: - Objects

    private mutating func walkFields(of object: AnyObject) {
        let type: AnyClass = Swift.type(of: object)
        if Self.isSealed(type) { return }
        let fields = RuntimeFields.fields(of: type)
        withExtendedLifetime(object) {
            let base = UnsafeRawPointer(Unmanaged.passUnretained(object).toOpaque())
            for field in fields where field.isStrong && Self.mayHoldReferences(field.type) {
                walk(RuntimeFields.load(field.type, from: base + field.offset), label: field.name, depth: 0)
            }
        }
    }

    // MARK: - Values

    /// Walks a value (a copy) held at `label`; `holder` is the closure
    /// context it was captured in, if it was.
    private mutating func walk(_ value: Any, label: String, depth: Int, holder: UInt? = nil) {
        guard depth < limits.depth else {
            unsearched.insert("values nested deeper than \(limits.depth) levels")
            return
        }
        let type: Any.Type = Swift.type(of: value)
        switch RuntimeFields.kind(of: type) {
        case .classInstance:
            references.append(Reference(label: label, object: value as AnyObject, holder: holder))
        case .optional:
            if let wrapped = Mirror(reflecting: value).children.first?.value {
                walk(wrapped, label: label, depth: depth + 1, holder: holder)
            }
        case .enumeration:
            if Self.isIndirectOrPayloadless(type) { return }
            for child in Mirror(reflecting: value).children {
                walk(child.value, label: label + "." + (child.label ?? "payload"), depth: depth + 1)
            }
        case .tuple:
            for (index, child) in Mirror(reflecting: value).children.enumerated() {
                let name = child.label.flatMap { $0.hasPrefix(".") ? nil : $0 } ?? "\(index)"
                walk(child.value, label: label + "." + name, depth: depth + 1)
            }
        case .structure:
            walkStructure(value, type: type, label: label, depth: depth)
        case .function:
            guard RuntimeFields.isThickSwiftFunction(type) else { return }
            let (context, captures) = ClosureCaptures.captures(of: value)
            let contextHolder = context.map { UInt(bitPattern: $0) }
            for capture in captures {
                switch capture {
                case .value(let captured): walk(captured, label: label + "{closure}", depth: depth + 1, holder: contextHolder ?? holder)
                case .unsearched(let what): unsearched.insert(what)
                }
            }
        case .existential, .other:
            break
        }
    }

    /// Walks a struct: a collection element by element, anything else
    /// field by field (so its `weak` fields stay unread).
    private mutating func walkStructure(_ value: Any, type: Any.Type, label: String, depth: Int) {
        if Self.isLeaf(type) { return }
        let kind = Self.collectionKind(type)
        switch kind {
        case .sequence, .dictionary:
            for (index, child) in Mirror(reflecting: value).children.enumerated() {
                guard index < limits.elementsPerCollection else {
                    unsearched.insert("elements past the first \(limits.elementsPerCollection) of a collection")
                    break
                }
                guard kind == .dictionary else {
                    walk(child.value, label: label + "[\(index)]", depth: depth + 1)
                    continue
                }
                let pair = Array(Mirror(reflecting: child.value).children)
                guard pair.count == 2 else { continue }
                let key = Self.keyText(pair[0].value)
                walk(pair[1].value, label: label + "[\(key)]", depth: depth + 1)
                walk(pair[0].value, label: label + ".keys[\(key)]", depth: depth + 1)
            }
            return
        case .none:
            break
        }
        // Opened through the dynamic type, not the value: a value loaded
        // from a field of existential type is boxed as that existential,
        // and opening it would give the existential, not the struct.
        func fields<T>(_: T.Type) {
            guard let concrete = value as? T else { return }
            withUnsafePointer(to: concrete) { pointer in
                let base = UnsafeRawPointer(pointer)
                for field in RuntimeFields.fields(of: T.self) where field.isStrong && Self.mayHoldReferences(field.type) {
                    walk(RuntimeFields.load(field.type, from: base + field.offset), label: label + "." + field.name, depth: depth + 1)
                }
            }
        }
        fields(type)
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
        let key = ObjectIdentifier(type)
        if let known = sealed.withLock({ $0[key] }) { return known }
        var result = false
        var current: AnyClass? = type
        while let each = current, !result {
            let name = _typeName(each, qualified: true)
            result = name.hasPrefix("NapkinTrace.") || name == "Napkin.InteractorLifecycle" || name.hasPrefix("Swift.ManagedBuffer<")
            current = _getSuperclass(each)
        }
        sealed.withLock { $0[key] = result }
        return result
    }

    private static let sealed = Locked<[ObjectIdentifier: Bool]>([:])

    /// The standard library's collections, read element by element (their
    /// storage is a buffer the field metadata does not describe). Named by
    /// type, not by `Mirror.displayStyle`, which an app's own
    /// `CustomReflectable` type may claim with children it does not hold.
    private enum CollectionKind { case sequence, dictionary, none }

    private static func collectionKind(_ type: Any.Type) -> CollectionKind {
        let name = _typeName(type, qualified: true)
        for prefix in ["Swift.Array<", "Swift.ContiguousArray<", "Swift.ArraySlice<", "Swift.Set<"] where name.hasPrefix(prefix) {
            return .sequence
        }
        return name.hasPrefix("Swift.Dictionary<") ? .dictionary : .none
    }

    /// Whether a field of `type` can hold a reference at all (numbers,
    /// strings and other leaf values cannot, as far as the app is concerned).
    private static func mayHoldReferences(_ type: Any.Type) -> Bool {
        switch RuntimeFields.kind(of: type) {
        case .classInstance, .optional, .enumeration, .tuple, .function, .existential: return true
        case .structure: return !isLeaf(type)
        case .other: return false
        }
    }

    /// Standard library values that hold no reference of the app's.
    private static func isLeaf(_ type: Any.Type) -> Bool {
        type == String.self || type == Substring.self || type == Character.self || type == StaticString.self
            || type == Int.self || type == UInt.self || type == Double.self || type == Float.self || type == Bool.self
            || type == Int64.self || type == UInt64.self || type == Int32.self || type == UInt32.self
            || type == Int16.self || type == UInt16.self || type == Int8.self || type == UInt8.self
            || type == Duration.self || type == ObjectIdentifier.self
    }

    /// Enums with no payload hold nothing. (`Mirror` of any other enum
    /// returns its case's payload, indirect ones included.)
    private static func isIndirectOrPayloadless(_ type: Any.Type) -> Bool {
        RuntimeFields.size(of: type) <= 1
    }

    /// A dictionary key as a path shows it: a string quoted, anything else
    /// as it describes itself, at most 40 characters.
    private static func keyText(_ key: Any) -> String {
        let text = key is String || key is Substring ? "\"\(key)\"" : String(describing: key)
        return text.count > 40 ? String(text.prefix(39)) + "…" : text
    }
}
