@testable import NapkinTrace
import Testing

/// The model's hand-written hash table behaves like a Dictionary keyed by id,
/// including removal in the middle of probe runs and copy-on-write.
@Suite("NodeTable")
struct NodeTableTests {
    struct Value: Sendable, Equatable {
        var number: Int
        var text: String
    }

    @Test("random inserts, updates and removals agree with a Dictionary")
    func agreesWithDictionary() {
        var table = NodeTable<Value>()
        var reference: [UInt64: Value] = [:]
        var generator = SystemRandomNumberGenerator()
        for step in 0..<20_000 {
            // Small key space: many collisions, long probe runs, many removals.
            let key = UInt64.random(in: 1...600, using: &generator)
            switch Int.random(in: 0..<4, using: &generator) {
            case 0, 1:
                let value = Value(number: step, text: "v\(step)")
                table[key] = value
                reference[key] = value
            case 2:
                #expect(table.removeValue(forKey: key) == reference.removeValue(forKey: key))
            default:
                let updated = table.update(key) { $0.number += 1 }
                #expect(updated == (reference[key] != nil))
                reference[key]?.number += 1
            }
            if step % 997 == 0 {
                #expect(table.count == reference.count)
                for (k, v) in reference { #expect(table[k] == v) }
            }
        }
        #expect(table.count == reference.count)
        #expect(Dictionary(uniqueKeysWithValues: table.entries.map { ($0.key, $0.value) }) == reference)
        for k in UInt64(1)...600 {
            #expect(table.contains(k) == (reference[k] != nil))
            #expect(table.with(k) { $0.pointee.text } == reference[k]?.text)
        }
    }

    @Test("a copy is independent of the original (copy-on-write)")
    func copyOnWrite() {
        var original = NodeTable<Value>()
        for k in UInt64(1)...100 { original[k] = Value(number: Int(k), text: "\(k)") }
        var copy = original
        copy.update(5) { $0.number = -1 }
        copy.removeValue(forKey: 6)
        copy[200] = Value(number: 200, text: "new")
        #expect(original[5]?.number == 5)
        #expect(original[6] != nil)
        #expect(original[200] == nil)
        #expect(original.count == 100)
        #expect(copy[5]?.number == -1)
        #expect(copy.count == 100)
    }

    @Test("id 0 is never stored and never found")
    func zeroIsIgnored() {
        var table = NodeTable<Value>()
        table[0] = Value(number: 1, text: "x")
        #expect(table.count == 0)
        #expect(table[0] == nil)
        #expect(!table.update(0) { $0.number = 2 })
        #expect(table.removeValue(forKey: 0) == nil)
    }
}
