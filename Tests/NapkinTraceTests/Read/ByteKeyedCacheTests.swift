@testable import NapkinTrace
@testable import NapkinTraceReader
import Testing
import TestSupport

/// The fast path's cache of values made from short byte strings: it returns
/// what was stored for the same bytes, never for other bytes (even with the
/// same hash), keeps nothing too long, and stays the same size however many
/// keys it sees.
@Suite("Byte-keyed cache")
struct ByteKeyedCacheTests {
    private func value(_ cache: inout ByteKeyedCache<String>, _ key: String, hash: UInt64) -> String? {
        var copy = key
        return copy.withUTF8 { cache.value(for: $0, hash: hash) }
    }

    private func insert(_ cache: inout ByteKeyedCache<String>, _ key: String, hash: UInt64) {
        var copy = key
        copy.withUTF8 { cache.insert(key.uppercased(), for: $0, hash: hash) }
    }

    @Test("a key finds its value; other bytes with the same hash do not")
    func hitsAndCollisions() {
        var cache = ByteKeyedCache<String>()
        #expect(value(&cache, "HomeRouter", hash: 1) == nil)
        insert(&cache, "HomeRouter", hash: 1)
        #expect(value(&cache, "HomeRouter", hash: 1) == "HOMEROUTER")
        #expect(value(&cache, "HomeRoutes", hash: 1) == nil, "same hash and length, other bytes")
        #expect(value(&cache, "HomeRoute", hash: 1) == nil, "same hash, other length")
        #expect(value(&cache, "", hash: 1) == nil)
        insert(&cache, "", hash: 5)
        #expect(value(&cache, "", hash: 5) == "")
    }

    @Test("two keys of one set are both kept; a third replaces the less recently used")
    func twoWays() {
        var cache = ByteKeyedCache<String>()
        // One set: the same top bits of the hash.
        let a: UInt64 = 3 << 57 | 1, b: UInt64 = 3 << 57 | 2, c: UInt64 = 3 << 57 | 3
        insert(&cache, "alpha", hash: a)
        insert(&cache, "beta", hash: b)
        #expect(value(&cache, "alpha", hash: a) == "ALPHA")   // alpha used last
        #expect(value(&cache, "beta", hash: b) == "BETA")     // beta used last
        insert(&cache, "gamma", hash: c)                        // replaces alpha
        #expect(value(&cache, "alpha", hash: a) == nil)
        #expect(value(&cache, "beta", hash: b) == "BETA")
        #expect(value(&cache, "gamma", hash: c) == "GAMMA")
    }

    @Test("keys longer than the limit are not kept; any number of keys fits")
    func bounded() {
        var cache = ByteKeyedCache<String>()
        let long = String(repeating: "x", count: ByteKeyedCache<String>.maxKeyLength + 1)
        insert(&cache, long, hash: 9)
        #expect(value(&cache, long, hash: 9) == nil)
        let exact = String(repeating: "y", count: ByteKeyedCache<String>.maxKeyLength)
        insert(&cache, exact, hash: 9)
        #expect(value(&cache, exact, hash: 9) == exact.uppercased())
        var random = SplitMix(seed: 3)
        for k in 0..<10_000 { insert(&cache, "type\(k)", hash: random.next()) }
        var found = 0
        random = SplitMix(seed: 3)
        for k in 0..<10_000 where value(&cache, "type\(k)", hash: random.next()) != nil { found += 1 }
        #expect(found <= 2 * ByteKeyedCache<String>.setCount)
        #expect(found > 0)
    }
}
