@testable import NapkinTrace
import Testing
import TestSupport

/// `duplicate-child` (`Analysis/Rules/DuplicateChildRule.swift`): a parent
/// with two attached children of the same type.
@Suite("Rule duplicate-child")
struct DuplicateChildRuleTests {
    @Test("children of one type attached one step at a time: each older one is flagged once, when the next comes")
    func separateSteps() {
        var b = TraceBuilder()
        b.root(2)
        for id: NodeID in [4, 6, 8] {
            b.wait(2_000_000_000)   // a person navigating: seconds between the steps
            b.child(id, "Item", of: 2)
        }
        let report = TraceAnalyzer.analyze(b.events)
        #expect(report.ruleAndSubject == ["duplicate-child ItemRouter#4", "duplicate-child ItemRouter#6"], "\(report)")
        // Children of different types are fine.
        var mixed = TraceBuilder()
        mixed.root(2)
        mixed.child(4, "Home", of: 2)
        mixed.wait(2_000_000_000)
        mixed.child(6, "Menu", of: 2)
        #expect(TraceAnalyzer.analyze(mixed.events).isClean)
    }

    @Test("a group (a list, tabs, pages) attached in one go is a collection: nothing, now or when it grows later")
    func groups() {
        var b = TraceBuilder()
        b.root(2)
        for id: NodeID in [4, 6, 8, 10] { b.child(id, "Row", of: 2) }   // a loop of attachChild
        b.wait(3_000_000_000)
        b.child(12, "Row", of: 2)                                       // the user adds a row
        #expect(TraceAnalyzer.analyze(b.events).isClean)
        // A list shown, torn down and shown again, many times, with other parents doing the same.
        var lists = TraceBuilder()
        lists.root(2)
        var next: NodeID = 4
        for _ in 0..<50 {
            let parent = next
            lists.child(parent, "List", of: 2)
            next += 2
            var rows: [NodeID] = []
            for _ in 0..<4 {
                lists.child(next, "Row", of: parent)
                rows.append(next)
                next += 2
            }
            lists.wait(1_500_000_000)
            for row in rows { lists.detach(row, from: parent); lists.release(row) }
            lists.detach(parent, from: 2)
            lists.release(parent)
        }
        #expect(TraceAnalyzer.analyze(lists.events).isClean)
    }

    @Test("the group window: a same-type attach 300 ms after the previous one loaded is a separate step")
    func groupWindow() {
        var b = TraceBuilder()
        b.root(2)
        b.child(4, "Item", of: 2)
        b.wait(DuplicateChildRule.groupWindow - 10_000_000)
        b.child(6, "Item", of: 2)
        #expect(TraceAnalyzer.analyze(b.events).isClean)
        var late = TraceBuilder()
        late.root(2)
        late.child(4, "Item", of: 2)
        late.wait(DuplicateChildRule.groupWindow + 50_000_000)
        late.child(6, "Item", of: 2)
        #expect(TraceAnalyzer.analyze(late.events).ruleAndSubject == ["duplicate-child ItemRouter#4"])
        // A mark in between (the app saying a step happened) also makes it a separate step.
        var marked = TraceBuilder()
        marked.root(2)
        marked.child(4, "Item", of: 2)
        marked.add(.mark(text: "back"))
        marked.child(6, "Item", of: 2)
        #expect(TraceAnalyzer.analyze(marked.events).ruleAndSubject == ["duplicate-child ItemRouter#4"])
    }

    @Test("an older child whose view was removed is left to view-gone-still-attached; without view events, or with its view only covered, it is reported here")
    func olderChildViewRemoved() {
        /// Item #4 attached, then (after `appearance`, if any, at 2 s) a second Item attached at 2.5 s.
        func secondItem(after appearance: ViewAppearance?) -> AnalysisReport {
            var b = TraceBuilder()
            b.root(2)
            b.child(4, "Item", of: 2)
            b.add(.view(router: 4, appearance: .shown), at: 100_000_000)
            if let appearance { b.add(.view(router: 4, appearance: appearance), at: 2 * .second) }
            b.add(.mark(text: "open item"), at: 2_400_000_000)
            b.wait(100_000_000)
            b.child(6, "Item", of: 2)
            b.add(.mark(text: "idle"), at: 5 * .second)
            return TraceAnalyzer.analyze(b.events)
        }
        // Popped without a detach: reported once, when the screen went, not as a duplicate.
        #expect(secondItem(after: .removed).ruleAndSubject == ["view-gone-still-attached ItemRouter#4"])
        #expect(secondItem(after: .covered).ruleAndSubject == ["duplicate-child ItemRouter#4"])
        #expect(secondItem(after: nil).ruleAndSubject == ["duplicate-child ItemRouter#4"])
        // Outside the live tree view-gone-still-attached does not look: this rule still does.
        var detached = TraceBuilder()
        detached.root(2)
        detached.child(4, "List", of: 2)
        detached.child(6, "Item", of: 4)
        detached.add(.detach(parent: 2, child: 4), at: .second)
        detached.add(.view(router: 6, appearance: .removed))
        detached.add(.mark(text: "open item"), at: 2 * .second)
        detached.child(8, "Item", of: 4)
        #expect(TraceAnalyzer.analyze(detached.events).findings(.duplicateChild).map(\.subjectName) == ["ItemRouter#6"])
    }

    @Test("its fixtures yield exactly their findings; the clean twin nothing, with and without expect-teardown",
          arguments: try ExpectedFindings.load().cases(writtenFor: .duplicateChild))
    func fixture(_ c: ExpectedFindings.Case) throws { try c.check() }
}
