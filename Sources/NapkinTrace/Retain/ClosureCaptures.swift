/// What a Swift closure captured: the values in its context, read through
/// the capture descriptor the compiler emits for it, so a stored closure
/// that captured an object (the most common Swift retain cycle) is seen.
///
/// Unsafe code, and why it is sound:
/// - A Swift thick function value is two words, the entry point and its
///   context: nil, or a heap object the value holds strongly. It is read
///   from a copy of the value the caller holds, so the context is alive
///   while it is read (`RuntimeFields.isThickSwiftFunction` proved the
///   layout from the function type's metadata).
/// - A context is either an object (a method reference, `object.method`:
///   the context is the object itself) or a closure context, whose metadata
///   kind is `HeapLocalVariable` (0x400). Anything else (a generic box, a
///   block) is left alone.
/// - A closure context's metadata (`HeapLocalVariableMetadata`) holds, after
///   the kind word, `OffsetToFirstCapture` (32 bits) and a pointer to its
///   `CaptureDescriptor` (nil when reflection metadata was stripped). The
///   descriptor counts capture types, metadata sources and bindings (three
///   32-bit words), then lists each capture type as a relative pointer to
///   its mangled name. Only closures with no bindings and no metadata
///   sources (not generic) are read: for those the captures are laid out
///   one after the other from `OffsetToFirstCapture`, each at its type's
///   alignment. A capture whose type the runtime cannot resolve ends the
///   reading (the offsets after it are unknown), except a box (a captured
///   `var`), which is one pointer: it is skipped and reported.
/// - A mangled name's ownership is its last operator: `Xw` weak, `Xo`
///   unowned, `Xu` unowned(unsafe). The runtime's lookup drops it (a weak
///   capture resolves to `Optional<T>`), so it is read from the name,
///   skipping symbolic references (a byte 1 to 0x17 and 4 bytes, a byte
///   0x18 to 0x1F and a pointer) whose bytes are not characters.
enum ClosureCaptures {
    /// One capture of a closure.
    enum Capture {
        /// A strongly held value (a copy).
        case value(Any)
        /// Something held that the search cannot read, and why.
        case unsearched(String)
        /// A captured closure whose type the runtime cannot name (a lowered
        /// function type: a closure capturing a closure, the thunk around a
        /// closure stored in a collection or as `Any`): its context, alive
        /// as long as the value being read is, to read with
        /// ``captures(ofContext:)``.
        case closureContext(UnsafeRawPointer)
    }

    /// What the closure `function` (a value of a thick Swift function type)
    /// holds strongly, and the closure context that holds it (nil for a
    /// method reference, whose context is the object itself): two closures
    /// may share one context, which holds each capture once.
    static func captures(of function: Any) -> (context: UnsafeRawPointer?, captures: [Capture]) {
        // Through the dynamic type (a function type of two words, which the
        // caller checked), never the value's static one: a closure stored in
        // a field of type `Any` is boxed as `Any`, whose bytes are not a
        // function's.
        let type: Any.Type = Swift.type(of: function)
        guard RuntimeFields.isThickSwiftFunction(type) else { return (nil, []) }
        func context<T>(_: T.Type) -> UnsafeRawPointer? {
            guard let value = function as? T else { return nil }
            return withUnsafeBytes(of: value) { $0.load(fromByteOffset: MemoryLayout<Int>.size, as: UnsafeRawPointer?.self) }
        }
        guard let context = context(type) else { return (nil, []) }
        // `function` holds the context for as long as this runs.
        return withExtendedLifetime(function) {
            let found = captures(inContext: context)
            let isObject = RuntimeFields.kind(of: unsafeBitCast(context.load(as: UnsafeRawPointer.self), to: Any.Type.self)) == .classInstance
            return (isObject ? nil : context, found)
        }
    }

    /// The captures of the live closure context at `context` (from a
    /// ``Capture/closureContext(_:)``).
    static func captures(ofContext context: UnsafeRawPointer) -> [Capture] {
        captures(inContext: context)
    }

    /// The captures of the live context object at `context`.
    private static func captures(inContext context: UnsafeRawPointer) -> [Capture] {
        let metadata = context.load(as: UnsafeRawPointer.self)
        let type = unsafeBitCast(metadata, to: Any.Type.self)
        switch RuntimeFields.kind(of: type) {
        case .classInstance:
            return [.value(Unmanaged<AnyObject>.fromOpaque(context).takeUnretainedValue())]
        case .structure, .enumeration, .optional, .tuple, .function, .existential, .other:
            break
        }
        guard rawKind(metadata) == heapLocalVariableKind else {
            return [.unsearched("a closure context of an unknown kind")]
        }
        let firstCapture = Int(metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UInt32.self))
        guard let descriptor = metadata.load(fromByteOffset: 2 * MemoryLayout<Int>.size, as: UnsafeRawPointer?.self) else {
            return [.unsearched("a closure without capture metadata (reflection metadata stripped)")]
        }
        let typeCount = Int(descriptor.load(as: UInt32.self))
        let sourceCount = descriptor.load(fromByteOffset: 4, as: UInt32.self)
        let bindingCount = descriptor.load(fromByteOffset: 8, as: UInt32.self)
        guard sourceCount == 0, bindingCount == 0 else {
            return [.unsearched("a generic closure's captures")]
        }
        var found: [Capture] = []
        var offset = firstCapture
        for index in 0..<typeCount {
            let record = descriptor + 12 + 4 * index
            let name = (record + Int(record.load(as: Int32.self))).assumingMemoryBound(to: UInt8.self)
            let (length, ownership) = scan(name)
            guard let captureType = _getTypeByMangledNameInContext(name, UInt(length), genericContext: nil, genericArguments: nil) else {
                if ownership == .box {
                    offset = align(offset, MemoryLayout<Int>.alignment) + MemoryLayout<Int>.size
                    found.append(.unsearched("a captured var (kept in a box)"))
                    continue
                }
                if isThickFunction(name, length: length) {
                    // Two words, the entry point and the context (nil, or a heap object this one holds).
                    offset = align(offset, MemoryLayout<Int>.alignment)
                    if let inner = (context + offset + MemoryLayout<Int>.size).load(as: UnsafeRawPointer?.self) {
                        found.append(.closureContext(inner))
                    }
                    offset += 2 * MemoryLayout<Int>.size
                    continue
                }
                found.append(.unsearched(unnamedCapture))
                return found
            }
            offset = align(offset, RuntimeFields.alignment(of: captureType))
            if ownership == .strong {
                found.append(.value(RuntimeFields.load(captureType, from: context + offset)))
            }
            offset += RuntimeFields.size(of: captureType)
        }
        return found
    }

    /// What a capture the runtime cannot name is reported as.
    static let unnamedCapture = "a closure capture the runtime cannot name (a closure stored in a collection, as Any or as a generic value)"

    // MARK: - Mangled names

    /// How a capture holds its value.
    enum Ownership: Equatable { case strong, weak, unowned, unmanaged, box }

    /// The length of the mangled name at `name` and the ownership its last
    /// operator gives.
    static func scan(_ name: UnsafePointer<UInt8>) -> (length: Int, ownership: Ownership) {
        var index = 0
        var last: (UInt8, UInt8) = (0, 0)
        while true {
            let byte = name[index]
            switch byte {
            case 0:
                return (index, ownership(last))
            case 0x01...0x17:
                index += 5
                last = (0, 0)
            case 0x18...0x1F:
                index += 1 + MemoryLayout<Int>.size
                last = (0, 0)
            default:
                last = (last.1, byte)
                index += 1
            }
        }
    }

    /// Whether the mangled name at `name` is a lowered thick function type
    /// (`Ieg_`, `SiIegy_`, `IeghH_`: the impl-function operator `I`,
    /// optionally escaping `e`, then a guaranteed `g` or owned `x` callee,
    /// which is a context; `_` ends it). A thin (`t`), block (`B`) or C
    /// function is one word, and is not one of these.
    static func isThickFunction(_ name: UnsafePointer<UInt8>, length: Int) -> Bool {
        guard length >= 3, name[length - 1] == UInt8(ascii: "_") else { return false }
        var index = length - 2
        while index >= 0 {
            let byte = name[index]
            if byte < 0x20 { return false }
            if byte == UInt8(ascii: "I") {
                var next = index + 1
                if next < length, name[next] == UInt8(ascii: "e") { next += 1 }
                return next < length && (name[next] == UInt8(ascii: "g") || name[next] == UInt8(ascii: "x"))
            }
            index -= 1
        }
        return false
    }

    /// The ownership the last two characters of a name give.
    private static func ownership(_ last: (UInt8, UInt8)) -> Ownership {
        guard last.0 == UInt8(ascii: "X") else { return .strong }
        switch last.1 {
        case UInt8(ascii: "w"): return .weak
        case UInt8(ascii: "o"): return .unowned
        case UInt8(ascii: "u"): return .unmanaged
        case UInt8(ascii: "x"), UInt8(ascii: "b"), UInt8(ascii: "X"): return .box
        default: return .strong
        }
    }

    /// The kind word of the metadata at `metadata`.
    private static func rawKind(_ metadata: UnsafeRawPointer) -> UInt {
        metadata.load(as: UInt.self)
    }

    /// `MetadataKind::HeapLocalVariable`: a closure context.
    private static let heapLocalVariableKind: UInt = 0x400

    /// `offset` rounded up to a multiple of `alignment`.
    private static func align(_ offset: Int, _ alignment: Int) -> Int {
        (offset + alignment - 1) / alignment * alignment
    }
}
