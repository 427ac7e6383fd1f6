/// The children of an enum, optional or tuple value (its case's payload, or
/// its elements), read through the Swift runtime's own reflection entry
/// points, never through `Mirror`: `Mirror(reflecting:)` calls a
/// `CustomReflectable` type's `customMirror`, which is the app's code (it
/// can trap off its actor, or name children the value does not hold). The
/// runtime's entry points read the value's layout only.
///
/// Unsafe code, and why it is sound:
/// - `swift_reflectionMirror_count` and `swift_reflectionMirror_subscript`
///   are the functions the standard library's `Mirror(internalReflecting:)`
///   calls (exported by the runtime on every platform: `nm -D
///   libswiftCore.so` here, the same names on Darwin). They take the value
///   indirectly with its static type's metadata (a generic parameter, as the
///   standard library declares them) and the dynamic type; an `Any` is
///   unwrapped by the runtime.
/// - For an enum, the runtime copies the value and projects its payload out
///   of the copy (indirect cases included); the payload comes back as an
///   owned `Any`. The caller's value is a copy it holds, so nothing of the
///   app's memory is written.
/// - Only used for values whose metadata kind is enum, optional or tuple
///   (`RuntimeFields.kind`): classes and structs are read through their
///   field records (weak fields stay unread), collections element by
///   element (`StandardCollections`).
enum ValueReflection {
    /// The children of `value` (an enum, optional or tuple), with their
    /// labels (a case name, a tuple label; nil when there is none).
    static func children(of value: Any) -> [(label: String?, value: Any)] {
        let type: Any.Type = Swift.type(of: value)
        let count = reflectionCount(value, type: type)
        guard count > 0 else { return [] }
        var children: [(label: String?, value: Any)] = []
        children.reserveCapacity(count)
        for index in 0..<count {
            var name: UnsafePointer<CChar>? = nil
            var free: NameFreeFunction? = nil
            let child = reflectionChild(of: value, type: type, index: index, outName: &name, outFreeFunc: &free)
            let label = name.flatMap { $0.pointee == 0 ? nil : String(cString: $0) }
            free?(name)
            children.append((label, child))
        }
        return children
    }
}

/// How the runtime frees a name it returns.
private typealias NameFreeFunction = @convention(c) (UnsafePointer<CChar>?) -> Void

// Free functions: a static method would pass its metatype as an extra argument.

@_silgen_name("swift_reflectionMirror_count")
private func reflectionCount<T>(_ value: T, type: Any.Type) -> Int

@_silgen_name("swift_reflectionMirror_subscript")
private func reflectionChild<T>(of value: T, type: Any.Type, index: Int,
                                outName: UnsafeMutablePointer<UnsafePointer<CChar>?>,
                                outFreeFunc: UnsafeMutablePointer<NameFreeFunction?>) -> Any
