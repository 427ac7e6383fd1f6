/// A hash table keyed by trace ids (never 0), for the model's hot path.
///
/// Swift's `Dictionary` hashes with seeded SipHash, which dominated the cost
/// of folding a trace. Trace ids are small, mostly increasing integers, so a
/// multiplicative hash with linear probing (and backward-shift deletion, no
/// tombstones) is both much faster and well distributed.
struct NodeTable<Value>: Sendable where Value: Sendable {
    private var keys: [UInt64]
    private var values: [Value?]
    private(set) var count = 0
    private var mask: Int

    init() {
        keys = Array(repeating: 0, count: 16)
        values = Array(repeating: nil, count: 16)
        mask = 15
    }

    @inline(__always)
    private func slot(for key: UInt64) -> Int {
        Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
    }

    @inline(__always)
    private func find(_ key: UInt64) -> Int? {
        var i = slot(for: key)
        while true {
            let k = keys[i]
            if k == key { return i }
            if k == 0 { return nil }
            i = (i + 1) & mask
        }
    }

    /// The value for `key`; assigning `nil` removes it.
    subscript(key: UInt64) -> Value? {
        @inline(__always) get {
            guard key != 0, let i = find(key) else { return nil }
            return values[i]
        }
        set {
            // Id 0 is never a node; an event that names it is ignored.
            guard key != 0 else { return }
            if let i = find(key) {
                if let newValue { values[i] = newValue } else { removeSlot(i) }
            } else if let newValue {
                insert(key, newValue)
            }
        }
    }

    /// Mutates the value for `key` in place, if present (no copy of the value,
    /// no coroutine frame). Returns whether it was present.
    @inline(__always) @discardableResult
    mutating func update(_ key: UInt64, _ body: (inout Value) -> Void) -> Bool {
        guard key != 0, let i = find(key) else { return false }
        body(&values[i]!)
        return true
    }

    /// Reads part of the value for `key` without copying the whole value.
    @inline(__always)
    func with<R>(_ key: UInt64, _ body: (Value) -> R) -> R? {
        guard key != 0, let i = find(key) else { return nil }
        return body(values[i]!)
    }

    func contains(_ key: UInt64) -> Bool { key != 0 && find(key) != nil }

    @discardableResult
    mutating func removeValue(forKey key: UInt64) -> Value? {
        guard key != 0, let i = find(key) else { return nil }
        let value = values[i]
        removeSlot(i)
        return value
    }

    /// Every key and value, in no particular order.
    var entries: [(key: UInt64, value: Value)] {
        var result: [(UInt64, Value)] = []
        result.reserveCapacity(count)
        for i in 0..<keys.count where keys[i] != 0 {
            result.append((keys[i], values[i]!))
        }
        return result
    }

    private mutating func insert(_ key: UInt64, _ value: Value) {
        if (count + 1) * 4 > keys.count * 3 { grow() }
        var i = slot(for: key)
        while keys[i] != 0 { i = (i + 1) & mask }
        keys[i] = key
        values[i] = value
        count += 1
    }

    /// Removes slot `i`, shifting later entries of the probe run back.
    private mutating func removeSlot(_ i: Int) {
        var hole = i
        var j = i
        keys[hole] = 0
        values[hole] = nil
        count -= 1
        while true {
            j = (j + 1) & mask
            let k = keys[j]
            if k == 0 { return }
            let home = slot(for: k)
            // Move k back into the hole if its home is not in (hole, j].
            let between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
            if !between {
                keys[hole] = k
                values[hole] = values[j].take()
                keys[j] = 0
                hole = j
            }
        }
    }

    private mutating func grow() {
        let oldKeys = keys
        var oldValues = values
        keys = Array(repeating: 0, count: oldKeys.count * 2)
        values = Array(repeating: nil, count: oldKeys.count * 2)
        mask = keys.count - 1
        count = 0
        for i in 0..<oldKeys.count where oldKeys[i] != 0 {
            insert(oldKeys[i], oldValues[i].take()!)
        }
    }
}
