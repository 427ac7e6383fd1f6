/// The standard library's collections, read element by element without
/// `Mirror` and without calling any of the app's code: iterating an array,
/// a set or a dictionary neither hashes nor compares its elements, and the
/// element types come from the collection's generic arguments, so a
/// collection whose elements cannot hold a reference (`[Double]`,
/// `[String: Int]`) is skipped without reading one.
///
/// Each collection is one heap buffer (its storage), named by its first
/// word: two fields that share a buffer share its references, and a
/// reference the buffer holds counts once however many fields reach it.
protocol WalkableCollection {
    /// Whether an element (or a key, or a value) can hold a reference.
    static var elementsMayHoldReferences: Bool { get }
    /// Calls `body` with each element's position, key (dictionaries) and
    /// value, in the collection's order, until it returns false.
    func forEachElement(_ body: (Int, Any?, Any) -> Bool)
}

extension WalkableCollection {
    /// The storage the collection's first word points at, as a number (its
    /// identity; zero for an empty singleton is harmless: it holds nothing).
    var storageIdentity: UInt {
        withUnsafeBytes(of: self) { $0.count >= MemoryLayout<UInt>.size ? $0.load(as: UInt.self) : 0 }
    }
}

extension Array: WalkableCollection {
    static var elementsMayHoldReferences: Bool { ReferenceWalker.mayHoldReferences(Element.self) }
    func forEachElement(_ body: (Int, Any?, Any) -> Bool) {
        for (index, element) in enumerated() where !body(index, nil, element) { return }
    }
}

extension ContiguousArray: WalkableCollection {
    static var elementsMayHoldReferences: Bool { ReferenceWalker.mayHoldReferences(Element.self) }
    func forEachElement(_ body: (Int, Any?, Any) -> Bool) {
        for (index, element) in enumerated() where !body(index, nil, element) { return }
    }
}

extension ArraySlice: WalkableCollection {
    static var elementsMayHoldReferences: Bool { ReferenceWalker.mayHoldReferences(Element.self) }
    /// Positions in the buffer (a slice shares its array's), not in the slice.
    func forEachElement(_ body: (Int, Any?, Any) -> Bool) {
        for (index, element) in zip(indices, self) where !body(index, nil, element) { return }
    }
}

extension Set: WalkableCollection {
    static var elementsMayHoldReferences: Bool { ReferenceWalker.mayHoldReferences(Element.self) }
    func forEachElement(_ body: (Int, Any?, Any) -> Bool) {
        for (index, element) in enumerated() where !body(index, nil, element) { return }
    }
}

extension Dictionary: WalkableCollection {
    static var elementsMayHoldReferences: Bool {
        ReferenceWalker.mayHoldReferences(Key.self) || ReferenceWalker.mayHoldReferences(Value.self)
    }
    func forEachElement(_ body: (Int, Any?, Any) -> Bool) {
        for (index, pair) in enumerated() where !body(index, pair.key, pair.value) { return }
    }
}
