/// What the Swift runtime says about a type's layout: its kind, its stored
/// fields (name, offset, type, whether the field holds a strong
/// reference and whether it is a `var`), and a function type's calling
/// convention. The retainer
/// search's only source of layout facts.
///
/// Unsafe code, and why it is sound:
/// - The fields come from the runtime's own reflection entry points
///   (`swift_reflectionMirror_recursiveCount`, `…ChildMetadata`,
///   `…ChildOffset`), the ones `Mirror` and the standard library's
///   `_forEachField` use. They are exported by the runtime on every
///   platform (`nm -D libswiftCore.so` here; the same names on Darwin), and
///   `…ChildMetadata` also fills `isStrong`, false for `weak`, `unowned`
///   and `unowned(unsafe)` fields, and `isVar` (the field record's flag),
///   which `_forEachField` does not pass on. A `~Copyable` field is given
///   the type `()` (the runtime will not copy one): the walk names it as
///   not read.
///   A class's list includes its superclasses' fields.
/// - The metadata kind comes from `swift_getMetadataKind`, which reads the
///   first word of any metadata record (for a class: any value above the
///   last kind, an isa pointer on Darwin, counts as class).
/// - A function type's flags word follows the kind word in every function
///   metadata record (`TargetFunctionTypeMetadata`: kind, then flags, the
///   convention in bits 16 to 23; 0 is a Swift thick function). It is read
///   only for metadata whose kind is function.
///
/// Nothing here reads an instance: offsets are used by
/// `ReferenceWalker`, on objects it holds.
enum RuntimeFields {
    /// A stored field of a class, struct or tuple.
    struct Field: Sendable {
        /// Its name (`.0` style for tuple elements).
        let name: String
        /// Its offset from the start of the instance (for a class: from
        /// the object's address, the header included).
        let offset: Int
        /// Its declared type.
        let type: Any.Type
        /// False for `weak`, `unowned` and `unowned(unsafe)`.
        let isStrong: Bool
        /// A `var` (false for a `let`, which never changes after `init`).
        let isVar: Bool
    }

    /// The kinds of metadata the walk tells apart (`MetadataKind` in the
    /// runtime's `MetadataKind.def`).
    enum Kind: Equatable {
        case classInstance, structure, enumeration, optional, tuple, function, existential, other
    }

    /// The kind of `type`.
    static func kind(of type: Any.Type) -> Kind {
        switch metadataKind(type) {
        case 0x200: .structure
        case 0x201: .enumeration
        case 0x202: .optional
        case 0x301: .tuple
        case 0x302: .function
        case 0x303: .existential
        case let raw where raw == 0 || raw > 0x7FF: .classInstance
        default: .other // foreign classes, opaque (Builtin) types, metatypes, heap boxes, tasks
        }
    }

    /// Whether values of function type `type` are Swift thick functions (a
    /// function pointer and a context that may hold captures).
    static func isThickSwiftFunction(_ type: Any.Type) -> Bool {
        guard kind(of: type) == .function else { return false }
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        let flags = metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UInt.self)
        let convention = (flags >> 16) & 0xFF
        return convention == 0 && size(of: type) == 2 * MemoryLayout<Int>.size
    }

    /// The stored fields of a class (its superclasses' included), struct or
    /// tuple, in declaration order; computed once per type.
    static func fields(of type: Any.Type) -> [Field] {
        let key = ObjectIdentifier(type)
        if !SnapshotChild.isCurrent, let known = cache.withLock({ $0[key] }) { return known }
        var fields: [Field] = []
        let count = recursiveCount(type)
        fields.reserveCapacity(max(count, 0))
        for index in 0..<max(count, 0) {
            var metadata = FieldReflectionMetadata()
            let fieldType = recursiveChildMetadata(type, index: index, fieldMetadata: &metadata)
            let name = metadata.name.map { String(cString: $0) } ?? ".\(index)"
            metadata.freeFunc?(metadata.name)
            fields.append(Field(name: name, offset: recursiveChildOffset(type, index: index),
                                type: fieldType, isStrong: metadata.isStrong, isVar: metadata.isVar))
        }
        if !SnapshotChild.isCurrent { cache.withLock { $0[key] = fields } }
        return fields
    }

    /// The address of a struct type's nominal type descriptor (the second
    /// word of struct metadata, `TargetStructMetadata::Description`), which
    /// every specialization of a generic struct shares; nil for anything
    /// but a struct.
    static func structDescriptor(of type: Any.Type) -> UInt? {
        guard kind(of: type) == .structure else { return nil }
        let metadata = unsafeBitCast(type, to: UnsafeRawPointer.self)
        return metadata.load(fromByteOffset: MemoryLayout<Int>.size, as: UInt.self)
    }

    /// The size of a value of `type`.
    static func size(of type: Any.Type) -> Int {
        func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
        return size(type)
    }

    /// Whether a value of `type` is a copy of its bytes (no reference in
    /// it, nothing to retain): it holds no object.
    static func isTrivial(_ type: Any.Type) -> Bool {
        func trivial<T>(_: T.Type) -> Bool { _isPOD(T.self) }
        return trivial(type)
    }

    /// The alignment of a value of `type`.
    static func alignment(of type: Any.Type) -> Int {
        func alignment<T>(_: T.Type) -> Int { MemoryLayout<T>.alignment }
        return alignment(type)
    }

    /// A copy of the value of type `type` at `address` (which must hold an
    /// initialised one), as `Any`.
    static func load(_ type: Any.Type, from address: UnsafeRawPointer) -> Any {
        func load<T>(_: T.Type) -> Any { address.assumingMemoryBound(to: T.self).pointee }
        return load(type)
    }

    // MARK: - The runtime's entry points

    /// Field lists already read.
    private static let cache = Locked<[ObjectIdentifier: [Field]]>([:])


}

// Free functions, not static methods: a static method passes its metatype as
// an extra `self` argument, which these runtime functions do not take.

@_silgen_name("swift_getMetadataKind")
private func metadataKind(_ type: Any.Type) -> UInt

@_silgen_name("swift_reflectionMirror_recursiveCount")
private func recursiveCount(_ type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_recursiveChildMetadata")
private func recursiveChildMetadata(_ type: Any.Type, index: Int,
                                    fieldMetadata: UnsafeMutablePointer<FieldReflectionMetadata>) -> Any.Type

@_silgen_name("swift_reflectionMirror_recursiveChildOffset")
private func recursiveChildOffset(_ type: Any.Type, index: Int) -> Int

/// The runtime's `FieldReflectionMetadata` (ReflectionMirror.cpp): the
/// field's name and how to free it, and its ownership.
private struct FieldReflectionMetadata {
    var name: UnsafePointer<CChar>? = nil
    var freeFunc: (@convention(c) (UnsafePointer<CChar>?) -> Void)? = nil
    var isStrong = false
    var isVar = false
}
