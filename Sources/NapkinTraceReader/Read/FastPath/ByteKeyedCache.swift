import NapkinTrace

/// Values made from short byte strings, kept so that the next occurrence of
/// the same bytes reuses the value instead of building it again: a trace
/// names the same few type names, task labels and code locations over and
/// over (`"type":"LoggedInInteractor"` at every login), and a `String` of
/// more than 15 bytes is an allocation.
///
/// Two-way set-associative, of fixed size: ``setCount`` sets of two slots,
/// keys of at most ``maxKeyLength`` bytes (longer ones are not kept). A new
/// key replaces the older-used slot of its set, so memory never grows
/// (about 25 KiB, allocated at the first insertion) and a trace that names
/// something new in every record only makes the cache miss. A hit compares
/// the bytes, so a hash collision never returns the wrong value.
struct ByteKeyedCache<Value: Sendable>: Sendable {
    /// How many sets of two slots.
    static var setCount: Int { 128 }
    /// The longest key kept.
    static var maxKeyLength: Int { 64 }

    private var hashes: [UInt64] = []
    /// The key's length, or -1 for an empty slot.
    private var lengths: [Int32] = []
    /// Each slot's key bytes, at `slot * maxKeyLength`.
    private var keys: [UInt8] = []
    private var values: [Value?] = []
    /// Per set: which of its two slots was used last (0 or 1).
    private var recent: [UInt8] = []

    init() {}

    /// The value kept for `key` (whose hash is `hash`), if any.
    @inline(__always)
    mutating func value(for key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Value? {
        guard !hashes.isEmpty else { return nil }
        let set = Int(truncatingIfNeeded: hash &>> 57) & (Self.setCount - 1)
        for way in 0..<2 {
            let slot = set &* 2 &+ way
            if hashes[slot] == hash && Int(lengths[slot]) == key.count && matches(slot, key) {
                if recent[set] != UInt8(way) { recent[set] = UInt8(way) }
                return values[slot]
            }
        }
        return nil
    }

    /// Keeps `value` for `key` (unless the key is too long), in place of the
    /// less recently used entry of its set.
    mutating func insert(_ value: Value, for key: UnsafeBufferPointer<UInt8>, hash: UInt64) {
        guard key.count <= Self.maxKeyLength else { return }
        if hashes.isEmpty { allocate() }
        let set = Int(truncatingIfNeeded: hash &>> 57) & (Self.setCount - 1)
        let way = 1 &- Int(recent[set])
        let slot = set &* 2 &+ way
        hashes[slot] = hash
        lengths[slot] = Int32(key.count)
        keys.withUnsafeMutableBufferPointer { buffer in
            if let base = key.baseAddress, key.count > 0 {
                (buffer.baseAddress! + slot * Self.maxKeyLength).update(from: base, count: key.count)
            }
        }
        values[slot] = value
        recent[set] = UInt8(way)
    }

    private mutating func allocate() {
        let slots = Self.setCount * 2
        hashes = [UInt64](repeating: 0, count: slots)
        lengths = [Int32](repeating: -1, count: slots)
        keys = [UInt8](repeating: 0, count: slots * Self.maxKeyLength)
        values = [Value?](repeating: nil, count: slots)
        recent = [UInt8](repeating: 1, count: Self.setCount)
    }

    /// Whether slot `slot` holds `key`'s bytes (its length already matched),
    /// compared a word at a time.
    @inline(__always)
    private func matches(_ slot: Int, _ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = key.baseAddress else { return true }
        return keys.withUnsafeBufferPointer { buffer in
            let stored = UnsafeRawPointer(buffer.baseAddress! + slot * Self.maxKeyLength)
            let given = UnsafeRawPointer(base)
            var k = 0
            while k &+ 8 <= key.count {
                if stored.loadUnaligned(fromByteOffset: k, as: UInt64.self) != given.loadUnaligned(fromByteOffset: k, as: UInt64.self) {
                    return false
                }
                k &+= 8
            }
            while k < key.count {
                if stored.load(fromByteOffset: k, as: UInt8.self) != given.load(fromByteOffset: k, as: UInt8.self) { return false }
                k &+= 1
            }
            return true
        }
    }
}
