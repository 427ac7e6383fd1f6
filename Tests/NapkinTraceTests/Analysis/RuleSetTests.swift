@testable import NapkinTrace
import Testing

/// ``RuleSet`` calls each rule through an exhaustive switch over ``RuleID``
/// (the compiler catches a rule missing from a switch); these checks catch
/// a stored rule under another case's name or of another type, and more
/// rules than a rule bit set holds.
@Suite("Rule set")
struct RuleSetTests {
    @Test("the rule set stores one rule per RuleID, in order, named like its case and of its type")
    func storedRulesAgreeWithRegistry() {
        let stored = Mirror(reflecting: RuleSet()).children.map { ($0.label ?? "?", "\(type(of: $0.value))") }
        let registry = RuleID.allCases.map { ("\($0)", "\($0.type)") }
        #expect(stored.map(\.0) == registry.map(\.0), "RuleSet's stored rules are not named like RuleID's cases, in order")
        for ((name, type), (id, expected)) in zip(stored, registry) {
            #expect(type == expected, "RuleSet.\(name) is a \(type), RuleID.\(id).type a \(expected)")
        }
    }

    @Test("each RuleID case is named like its rule's id (not-deallocated: .notDeallocated) and the ids are unique")
    func casesNamedLikeRules() {
        for id in RuleID.allCases {
            let words = id.rule.rawValue.split(separator: "-")
            let name = words.first.map(String.init)! + words.dropFirst().map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            #expect("\(id)" == name, "RuleID.\(id) holds \(id.type), whose rule is \(id.rule.rawValue)")
        }
        #expect(Set(RuleID.allCases.map(\.rule.rawValue)).count == RuleID.allCases.count)
    }

    @Test("every rule has a bit in a rule set, and RuleID.lowest finds each")
    func ruleBits() {
        #expect(RuleID.allCases.count <= UInt32.bitWidth)
        for rule in RuleID.allCases {
            #expect(RuleID.lowest(in: rule.bit) == rule)
            #expect(RuleID.lowest(in: rule.bit | RuleID.allCases.last!.bit) == rule)
        }
        #expect(RuleID.lowest(in: 0) == nil)
    }
}
