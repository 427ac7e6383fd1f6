@testable import NapkinTrace
import Testing

/// ``RuleSet`` calls each rule through a switch on its index; these checks
/// catch a rule added to the registry but not to the switches (or at a
/// different index), and an event kind with no counter.
@Suite("Rule set and kind counts")
struct RuleSetTests {
    @Test("the switches' rule at each index is the registry's rule at that index, and there is none beyond")
    func switchesAgreeWithRegistry() {
        for (index, type) in RuleSet.types.enumerated() {
            let switched = RuleSet.type(at: index)
            #expect(switched.map { ObjectIdentifier($0) } == ObjectIdentifier(type), "index \(index): \(type) in the registry, \(String(describing: switched)) in the switches")
        }
        #expect(RuleSet.type(at: RuleSet.types.count) == nil)
    }

    @Test("there is a counter for every event kind, and each kind counts on its own")
    func kindCountsHoldEveryKind() {
        #expect(KindCounts.capacity >= TraceEvent.Name.allCases.count)
        var counts = KindCounts()
        for (n, name) in TraceEvent.Name.allCases.enumerated() {
            for _ in 0...n { counts.count(name) }
        }
        for (n, name) in TraceEvent.Name.allCases.enumerated() {
            #expect(counts[name] == n + 1, "\(name)")
        }
    }
}
