import Foundation
import NapkinTrace
import Synchronization
import Testing
import TestSupport

/// Sequence numbers strictly increase and agree with causality, even when many
/// tasks attach and detach at once and bound tasks start, get cancelled and end
/// on other threads.
@Suite("Trace ordering under concurrency")
struct TraceOrderingTests {
    /// Attaches and detaches `child` `cycles` times, yielding now and then.
    @MainActor
    private static func churn(_ child: TraceTestRouter, of root: TraceTestRootRouter, cycles: Int, racer: Int) async {
        for cycle in 0..<cycles {
            await root.attachChild(child)
            if (cycle + racer) % 3 == 0 { await Task.yield() }
            await root.detachChild(child)
        }
    }

    @Test("many tasks attaching and detaching: every event is in causal order",
          .routerMisuseWarns) // racing churns attach twice and detach non-children on purpose
    @MainActor
    func concurrentChurn() async throws {
        let recorder = TraceRecorder()
        let childCount = 12, cycles = 30, workers = 4, marksPerWorker = 500

        let (root, children) = await recorder.record { () -> (TraceTestRootRouter, [TraceTestRouter]) in
            let root = TraceTestRootRouter()
            await root.launch()
            // Each child keeps a grandchild; both bind a task while active.
            let children = (0..<childCount).map { _ in
                let child = TraceTestRouter(bindsTask: true)
                child.attachOnLoad = [TraceTestRouter(bindsTask: true)]
                return child
            }
            return (root, children)
        }

        await recorder.record {
            await withTaskGroup(of: Void.self) { group in
                // Two tasks per child race each other attaching and detaching it.
                for child in children {
                    for racer in 0..<2 {
                        group.addTask { await Self.churn(child, of: root, cycles: cycles, racer: racer) }
                    }
                }
                // Meanwhile, tasks on the cooperative pool write marks.
                for worker in 0..<workers {
                    group.addTask {
                        for i in 0..<marksPerWorker {
                            NapkinTrace.mark("w\(worker) \(i)")
                            if i % 50 == 0 { await Task.yield() }
                        }
                    }
                }
            }
        }
        // Leave everything detached, then let every bound task finish.
        for child in children { await root.detachChild(child) }
        let settled = await waitUntil {
            let events = recorder.eventsAsRecorded
            return events.count { if case .taskStart = $0.kind { true } else { false } }
                == events.count { if case .taskEnd = $0.kind { true } else { false } }
        }
        try #require(settled, "bound tasks did not all end")
        let events = recorder.eventsAsRecorded

        // Strictly increasing by one (the recorder never drops), time never goes back.
        #expect(events.map(\.seq) == Array(1...UInt64(events.count)))
        #expect(zip(events, events.dropFirst()).allSatisfy { $0.time <= $1.time })

        let rootID = root.traceID
        let childIDs = children.map(\.traceID)
        // For each interactor below the root: the top-level child whose attach/detach drives it.
        var driver: [NodeID: NodeID] = [:]
        for child in children {
            driver[child.interactor.lifecycle.traceID] = child.traceID
            for grandchild in child.children { driver[grandchild.interactable.lifecycle.traceID] = child.traceID }
        }
        #expect(driver.count == 2 * childCount)

        // Walk the trace once, checking each causal rule as of that point.
        var attaches: [NodeID: Int] = [:], detaches: [NodeID: Int] = [:]
        var activates: [NodeID: Int] = [:], deactivates: [NodeID: Int] = [:]
        var active: Set<NodeID> = []
        var taskOwner: [NodeID: NodeID] = [:]
        var startedSinceDeactivate: [NodeID: [NodeID]] = [:]
        var deactivatedSinceStart: Set<NodeID> = []
        var cancelled: Set<NodeID> = [], ended: [NodeID: TaskOutcome] = [:]
        var lastMark: [String: Int] = [:]
        var violations: [String] = []

        for event in events {
            switch event.kind {
            case .attach(let parent, let child) where parent == rootID:
                attaches[child, default: 0] += 1
            case .detach(let parent, let child) where parent == rootID:
                detaches[child, default: 0] += 1
            case .activate(let id):
                if active.contains(id) { violations.append("#\(event.seq): activate of active \(id)") }
                active.insert(id)
                activates[id, default: 0] += 1
                if let top = driver[id], activates[id]! > attaches[top, default: 0] {
                    violations.append("#\(event.seq): activate of \(id) before an attach of \(top)")
                }
            case .deactivate(let id):
                if !active.contains(id) { violations.append("#\(event.seq): deactivate of inactive \(id)") }
                active.remove(id)
                deactivates[id, default: 0] += 1
                if let top = driver[id], deactivates[id]! > detaches[top, default: 0] {
                    violations.append("#\(event.seq): deactivate of \(id) before a detach of \(top)")
                }
                deactivatedSinceStart.formUnion(startedSinceDeactivate.removeValue(forKey: id) ?? [])
            case .taskStart(let task, let owner, _):
                if taskOwner[task] != nil { violations.append("#\(event.seq): task \(task) started twice") }
                if !active.contains(owner) { violations.append("#\(event.seq): task \(task) started by inactive \(owner)") }
                taskOwner[task] = owner
                startedSinceDeactivate[owner, default: []].append(task)
            case .taskCancel(let task):
                if taskOwner[task] == nil { violations.append("#\(event.seq): cancel of unstarted task \(task)") }
                if !deactivatedSinceStart.contains(task) {
                    violations.append("#\(event.seq): task \(task) cancelled before its owner deactivated")
                }
                if ended[task] != nil { violations.append("#\(event.seq): cancel of ended task \(task)") }
                cancelled.insert(task)
            case .taskEnd(let task, let outcome):
                if taskOwner[task] == nil { violations.append("#\(event.seq): end of unstarted task \(task)") }
                if ended[task] != nil { violations.append("#\(event.seq): task \(task) ended twice") }
                ended[task] = outcome
            case .mark(let text):
                let parts = text.split(separator: " ")
                let worker = String(parts[0]), index = Int(parts[1])!
                if index != lastMark[worker, default: -1] + 1 {
                    violations.append("#\(event.seq): mark \(text) after \(lastMark[worker, default: -1])")
                }
                lastMark[worker] = index
            default:
                break
            }
        }
        #expect(violations.isEmpty, "\(violations.prefix(20))")

        // The churn really happened, and everything ended detached and inactive.
        for child in childIDs {
            #expect(attaches[child, default: 0] == 2 * cycles)
            #expect(detaches[child, default: 0] == 2 * cycles + 1)
        }
        #expect(active == [root.interactor.lifecycle.traceID])
        #expect(taskOwner.count >= 2 * childCount, "every child and grandchild ran at least one task")
        // Every bound task was cancelled by a deactivation and ended cancelled.
        #expect(Set(ended.keys) == Set(taskOwner.keys))
        #expect(cancelled == Set(taskOwner.keys))
        #expect(ended.values.allSatisfy { $0 == .cancelled })
        #expect(lastMark.count == workers && lastMark.values.allSatisfy { $0 == marksPerWorker - 1 })
    }

    final class StopFlag: Sendable {
        private let value = Atomic<Bool>(false)
        var isSet: Bool { value.load(ordering: .relaxed) }
        func set() { value.store(true, ordering: .relaxed) }
    }

    /// A sink that keeps what it is given.
    final class CollectingSink: TraceSink {
        private let written = Locked<[TraceEvent]>([])
        func write(_ events: [TraceEvent]) throws { written.withLock { $0.append(contentsOf: events) } }
        func close() {}
        var events: [TraceEvent] { written.withLock { $0 } }
    }

    @Test("shutdown while other threads emit: the end record is last, sequence numbers still increase")
    func shutdownUnderFire() async throws {
        for _ in 0..<100 {
            let sink = CollectingSink()
            // No background writer and a small queue: events pile up and get
            // dropped, so the final drain also writes a dropped record.
            let tracer = Tracer(sink: sink, capacity: 16, startWriter: false)
            let stop = StopFlag()
            let emitters = (0..<2).map { n in
                Task.detached {
                    var i = 0
                    while !stop.isSet {
                        tracer.emit(.mark(text: "t\(n) \(i)"))
                        i += 1
                        if i % 64 == 0 { await Task.yield() }
                    }
                }
            }
            try #require(await waitUntil { tracer.droppedCount > 0 })
            tracer.shutdown(reason: "test")
            stop.set()
            for emitter in emitters { await emitter.value }

            let events = sink.events
            #expect(zip(events, events.dropFirst()).allSatisfy { $0.seq < $1.seq && $0.time <= $1.time },
                    "\(events.suffix(4).map { "\($0.seq) \($0.kind)" })")
            #expect(events.last?.kind == .sessionEnd(reason: "test"), "\(events.suffix(3).map { "\($0.seq) \($0.kind)" })")
            // Written and dropped together account for every sequence number up to the end.
            var covered = Set(events.map(\.seq))
            for event in events {
                if case .dropped(let count, let first, let last) = event.kind {
                    #expect(count == last - first + 1)
                    covered.formUnion(first...last)
                }
            }
            let end = try #require(events.last?.seq)
            let missing = Set(1...end).subtracting(covered)
            #expect(missing.isEmpty, "unaccounted sequence numbers: \(missing.sorted().prefix(10))")
            #expect(covered.max() == end, "records after the end record")
        }
    }
}
