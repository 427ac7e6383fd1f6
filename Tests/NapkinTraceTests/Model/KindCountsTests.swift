@testable import NapkinTrace
import Testing

/// ``KindCounts``: one counter per event kind, each on its own.
@Suite("Kind counts")
struct KindCountsTests {
    @Test("there is a counter for every event kind, and each kind counts on its own")
    func everyKindCountsOnItsOwn() {
        var counts = KindCounts()
        for (n, name) in TraceEvent.Name.allCases.enumerated() {
            for _ in 0...n { counts.count(name) }
        }
        for (n, name) in TraceEvent.Name.allCases.enumerated() {
            #expect(counts[name] == n + 1, "\(name)")
        }
        counts[.mark] = 7
        #expect(counts[.mark] == 7 && counts[.end] == TraceEvent.Name.allCases.count)
    }

    @Test("a copy counts on its own")
    func copiesAreValues() {
        var counts = KindCounts()
        counts.count(.attach)
        var copy = counts
        copy.count(.attach)
        #expect(counts[.attach] == 1 && copy[.attach] == 2)
    }
}
