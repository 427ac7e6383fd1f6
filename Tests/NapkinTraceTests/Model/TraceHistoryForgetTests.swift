import Foundation
import NapkinTrace
import Testing
import TestSupport

/// ``TraceHistory/forget(endedBefore:)``, which keeps the live page's history
/// bounded over hours: what stays reads as it did at every moment from the
/// cut on, for every fixture, cut at its middle, and events folded after the
/// cut (detaches, task ends, deinits of nodes kept) still land.
@Suite("Trace history: forgetting what ended")
struct TraceHistoryForgetTests {
    /// What a page shows of node `life` at `t`, as the report's tree.js works
    /// it out: nil when not alive; else its parent, whether it is active,
    /// whether it was ever attached, its view and its running tasks.
    static func state(_ life: TraceHistory.NodeLife, at t: UInt64) -> String? {
        if life.created > t { return nil }
        if let gone = life.deallocated, gone <= t { return nil }
        func holds(_ span: TraceHistory.Interval) -> Bool { span.start <= t && (span.end.map { $0 > t } ?? true) }
        let parent = life.attached.last { holds($0.span) }.map { $0.parent.map { "\($0)" } ?? "root" } ?? "none"
        let active = life.active.contains(where: holds)
        let everAttached = life.attached.contains { $0.span.start <= t }
        var view = "never"
        if life.shown.contains(where: holds) {
            view = "shown"
        } else {
            let lastEnd = life.shown.compactMap(\.end).filter { $0 <= t }.max()
            if life.viewRemoved.contains(where: { $0.time <= t && $0.time >= (lastEnd ?? 0) }) { view = "gone" } else if lastEnd != nil { view = "covered" }
        }
        let tasks = life.tasks.filter { $0.start <= t && ($0.end.map { $0 > t } ?? true) }.map { "\($0.id)" }
        return "parent \(parent) active \(active) attached-ever \(everAttached) view \(view) tasks \(tasks)"
    }

    @Test("every fixture, cut at its middle event: the nodes kept read the same at every later event; the ones alive then are all kept")
    func fixturesCutInTheMiddle() throws {
        var cutSomething = false
        for name in try Fixtures.allNames() {
            let events = try Fixtures.events(name)
            guard events.count > 4 else { continue }
            let middle = events.count / 2
            let cut = events[middle].time
            var whole = TraceHistory(), forgetful = TraceHistory()
            for (index, event) in events.enumerated() {
                whole.apply(event)
                if index == middle { forgetful.forget(endedBefore: cut) }
                forgetful.apply(event)
            }
            #expect(forgetful.forgottenBefore == (cut > 0 ? cut : 0), "\(name)")
            if forgetful.nodes.count < whole.nodes.count { cutSomething = true }
            let moments = Set(events[middle...].map(\.time)).sorted()
            for life in whole.nodes {
                let kept = forgetful.nodes.first { $0.id == life.id && $0.kind == life.kind }
                // Alive at the cut or made after it: kept.
                if life.deallocated.map({ $0 >= cut }) ?? true {
                    #expect(kept != nil, "\(name): \(life.name) is alive from t=\(cut) on but was forgotten")
                }
                guard let kept else { continue }
                for t in moments {
                    #expect(Self.state(kept, at: t) == Self.state(life, at: t), "\(name): \(life.name) at t=\(t)")
                }
            }
            #expect(forgetful.marks.allSatisfy { $0.time >= cut } && forgetful.links.allSatisfy { $0.at.time >= cut }, "\(name)")
            #expect(forgetful.endTime == whole.endTime, "\(name)")
        }
        #expect(cutSomething, "no fixture had a node to forget: the test proves nothing")
    }

    @Test("a router attached and detached a hundred thousand times keeps a few spans, not all")
    func churnStaysSmall() {
        var history = TraceHistory()
        var builder = TraceBuilder()
        builder.root(2)
        builder.router(4, "Child")
        var folded = 0
        for round in 0..<100_000 {
            builder.attach(4, to: 2)
            builder.detach(4, from: 2)
            if round % 10_000 == 9_999 {
                for event in builder.events[folded...] { history.apply(event) }
                folded = builder.events.count
                history.forget(endedBefore: builder.time)
            }
        }
        let life = history.life(of: 4)
        #expect(life != nil)
        #expect((life?.attached.count ?? .max) <= 2, "\(life?.attached.count ?? -1) attached spans kept")
        #expect((life?.active.count ?? .max) <= 2, "\(life?.active.count ?? -1) active spans kept")
        #expect(history.links.count < 100)
        // Still reads as detached (ever attached), not as never attached.
        #expect(life.flatMap { Self.state($0, at: builder.time) }?.contains("attached-ever true") == true)
    }
}
