/// A hash table keyed by trace ids (never 0), for the model's hot path.
///
/// Swift's `Dictionary` hashes with seeded SipHash and an array of optionals
/// copies a value to read one field; both dominated the cost of folding a
/// trace. Trace ids are small, mostly increasing integers, so this table uses
/// a multiplicative hash with linear probing (backward-shift deletion, no
/// tombstones) over manually managed storage, so that ``with(_:_:)`` reads
/// and ``update(_:_:)`` mutates a value in place. Copy-on-write keeps value
/// semantics.
/// The per-process seed of ``NodeTable``'s hash.
private let hashSeed = UInt64.random(in: 1...UInt64.max)

struct NodeTable<Value>: @unchecked Sendable where Value: Sendable {
    // @unchecked Sendable: `storage` is never mutated while shared (every
    // mutation first makes it unique, copy-on-write), so a copy sent to
    // another thread is never written through the original.

    // MARK: - Storage

    private final class Storage {
        let capacity: Int
        /// The process's hash seed, kept here so a lookup reads no global.
        let seed = hashSeed
        let keys: UnsafeMutablePointer<UInt64>
        let values: UnsafeMutablePointer<Value>
        var count = 0

        init(capacity: Int) {
            self.capacity = capacity
            keys = .allocate(capacity: capacity)
            keys.initialize(repeating: 0, count: capacity)
            values = .allocate(capacity: capacity)
        }

        func copy(capacity newCapacity: Int) -> Storage {
            let copy = Storage(capacity: newCapacity)
            for i in 0..<capacity where keys[i] != 0 {
                copy.insertNew(keys[i], values[i])
            }
            return copy
        }

        @inline(__always)
        func slot(for key: UInt64) -> Int {
            var x = key ^ seed
            x = (x ^ (x >> 30)) &* 0xBF58_476D_1CE4_E5B9
            x = (x ^ (x >> 27)) &* 0x94D0_49BB_1331_11EB
            x ^= x >> 31
            return Int(truncatingIfNeeded: x) & (capacity - 1)
        }

        @inline(__always)
        func find(_ key: UInt64) -> Int? {
            var i = slot(for: key)
            while true {
                let k = keys[i]
                if k == key { return i }
                if k == 0 { return nil }
                i = (i + 1) & (capacity - 1)
            }
        }

        /// Inserts a key known to be absent (capacity must allow it).
        func insertNew(_ key: UInt64, _ value: consuming Value) {
            var i = slot(for: key)
            while keys[i] != 0 { i = (i + 1) & (capacity - 1) }
            keys[i] = key
            (values + i).initialize(to: consume value)
            count += 1
        }

        /// Removes slot `i` (returning its value), shifting later entries of the probe run back.
        func remove(at i: Int) -> Value {
            let removed = (values + i).move()
            keys[i] = 0
            count -= 1
            var hole = i
            var j = i
            while true {
                j = (j + 1) & (capacity - 1)
                let k = keys[j]
                if k == 0 { return removed }
                let home = slot(for: k)
                let between = hole <= j ? (home > hole && home <= j) : (home > hole || home <= j)
                if !between {
                    keys[hole] = k
                    (values + hole).moveInitialize(from: values + j, count: 1)
                    keys[j] = 0
                    hole = j
                }
            }
        }

        deinit {
            for i in 0..<capacity where keys[i] != 0 {
                (values + i).deinitialize(count: 1)
            }
            keys.deallocate()
            values.deallocate()
        }
    }

    // MARK: - The table

    private var storage = Storage(capacity: 16)

    init() {}

    /// How many entries the table holds.
    var count: Int { storage.count }

    private mutating func makeUnique(reserving extra: Int = 0) {
        let needed = (storage.count + extra) * 4 > storage.capacity * 3
        if !isKnownUniquelyReferenced(&storage) || needed {
            storage = storage.copy(capacity: needed ? storage.capacity * 2 : storage.capacity)
        }
    }

    // MARK: - Reading and writing entries

    /// The value for `key` (a copy); assigning `nil` removes it.
    subscript(key: UInt64) -> Value? {
        get {
            guard key != 0, let i = storage.find(key) else { return nil }
            return storage.values[i]
        }
        set {
            // Id 0 is never a node; an event that names it is ignored.
            guard key != 0 else { return }
            if let newValue {
                makeUnique(reserving: 1)
                if let i = storage.find(key) {
                    storage.values[i] = newValue
                } else {
                    storage.insertNew(key, newValue)
                }
            } else {
                removeValue(forKey: key)
            }
        }
    }

    /// Inserts `value` for `key` unless the key has a value; returns whether it inserted.
    @discardableResult
    mutating func insertIfAbsent(_ key: UInt64, _ value: consuming Value) -> Bool {
        guard key != 0 else { return false }
        makeUnique(reserving: 1)
        guard storage.find(key) == nil else { return false }
        storage.insertNew(key, consume value)
        return true
    }

    /// Mutates the value for `key` in place, if present. Returns whether it was present.
    @inline(__always) @discardableResult
    mutating func update(_ key: UInt64, _ body: (inout Value) -> Void) -> Bool {
        guard key != 0, var i = storage.find(key) else { return false }
        if !isKnownUniquelyReferenced(&storage) {
            storage = storage.copy(capacity: storage.capacity)
            i = storage.find(key)!
        }
        body(&storage.values[i])
        return true
    }

    /// Mutates the value for `key` in place, adding `value` first if the key
    /// has none (key 0, never an id, is never stored: `body` then mutates a
    /// temporary).
    @inline(__always)
    mutating func update(_ key: UInt64, inserting value: @autoclosure () -> Value, _ body: (inout Value) -> Void) {
        guard key != 0 else {
            var temporary = value()
            body(&temporary)
            return
        }
        if !update(key, body) {
            insertIfAbsent(key, value())
            update(key, body)
        }
    }

    /// Reads part of the value for `key` in place: `body` gets a pointer to
    /// it, valid for the call, so that reading one field does not copy the
    /// whole value (a node's strings and lists would be retained and
    /// released for every lookup).
    @inline(__always)
    func with<R>(_ key: UInt64, _ body: (UnsafePointer<Value>) -> R) -> R? {
        guard key != 0, let i = storage.find(key) else { return nil }
        return withExtendedLifetime(storage) { body(UnsafePointer(storage.values + i)) }
    }

    /// Whether `key` has a value.
    @inline(__always)
    func contains(_ key: UInt64) -> Bool { key != 0 && storage.find(key) != nil }

    /// Removes and returns the value for `key` (moved out, not copied).
    @discardableResult
    mutating func removeValue(forKey key: UInt64) -> Value? {
        guard key != 0, storage.find(key) != nil else { return nil }
        makeUnique()
        return storage.remove(at: storage.find(key)!)
    }

    // MARK: - Walking entries

    /// Calls `body` with every key and value, in no particular order, without copying the values.
    func forEach(_ body: (UInt64, borrowing Value) -> Void) {
        for i in 0..<storage.capacity where storage.keys[i] != 0 {
            body(storage.keys[i], storage.values[i])
        }
    }

    /// Every key and value, in no particular order.
    var entries: [(key: UInt64, value: Value)] {
        var result: [(UInt64, Value)] = []
        result.reserveCapacity(storage.count)
        for i in 0..<storage.capacity where storage.keys[i] != 0 {
            result.append((storage.keys[i], storage.values[i]))
        }
        return result
    }
}
