/// How many events of each kind were applied, by ``TraceEvent/Name/index``,
/// in fixed inline storage: counting an event is one add, with no array
/// bounds or uniqueness check.
struct KindCounts: Sendable {
    /// One counter per kind (at least as many as ``TraceEvent/Name/allCases``; `RuleSetTests` checks it).
    private var counts: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// How many counters there are.
    static let capacity = MemoryLayout<KindCounts>.size / MemoryLayout<Int>.stride

    /// The count of events of kind `name`.
    subscript(name: TraceEvent.Name) -> Int {
        get {
            withUnsafeBytes(of: counts) { $0.load(fromByteOffset: name.index * MemoryLayout<Int>.stride, as: Int.self) }
        }
        set {
            withUnsafeMutableBytes(of: &counts) { $0.storeBytes(of: newValue, toByteOffset: name.index * MemoryLayout<Int>.stride, as: Int.self) }
        }
    }

    /// Counts one event of kind `name`, in place.
    @inline(__always)
    mutating func count(_ name: TraceEvent.Name) {
        assert(name.index < Self.capacity, "KindCounts has no counter for \(name): add one to its tuple")
        withUnsafeMutableBytes(of: &counts) { raw in
            let offset = name.index * MemoryLayout<Int>.stride
            raw.storeBytes(of: raw.load(fromByteOffset: offset, as: Int.self) &+ 1, toByteOffset: offset, as: Int.self)
        }
    }
}
