import NapkinTrace
import Testing
import TestSupport

/// A real tree, built, changed and torn down under a TraceRecorder, produces
/// exactly the expected events: kinds, ids and order.
@Suite("Trace of a real tree")
struct TraceLifecycleSequenceTests {
    private func has(_ recorder: TraceRecorder, _ kind: TraceEvent.Kind) -> Bool {
        recorder.eventsAsRecorded.contains { $0.kind == kind }
    }

    @Test("root, child, grandchild with a bound task; detach, re-attach, release")
    @MainActor
    func exactSequence() async throws {
        let recorder = TraceRecorder(app: "sequence")
        var root: TraceTestRootRouter?

        try await recorder.record {
            root = TraceTestRootRouter()                        // interactor 1, router 2
            await root!.launch()
            var child: TraceTestRouter? = TraceTestRouter()     // interactor 3, router 4
            do {
                let grandchild = TraceTestRouter(bindsTask: true) // interactor 5, router 6; its task: 7, then 8
                child!.attachOnLoad = [grandchild]
            }
            await root!.attachChild(child!)
            NapkinTrace.mark("tree built")

            await root!.detachChild(child!)
            try #require(await waitUntil { has(recorder, .taskEnd(task: 7, outcome: .cancelled)) })

            await root!.attachChild(child!)                     // re-attach: the subtree re-activates, no second load
            await root!.detachChild(child!)
            try #require(await waitUntil { has(recorder, .taskEnd(task: 8, outcome: .cancelled)) })

            child = nil                                         // the last reference: child and grandchild go away
            try #require(await waitUntil { has(recorder, .deallocated(id: 5)) })
            NapkinTrace.mark("child released")

            root = nil                                          // still active: its deinit deactivates the interactor
            try #require(await waitUntil { has(recorder, .deallocated(id: 1)) })
        }
        recorder.finish()

        let events = recorder.eventsAsRecorded
        guard case .sessionStart(let info)? = events.first?.kind else {
            Issue.record("no session record first: \(events.first.map { "\($0)" } ?? "empty")")
            return
        }
        #expect(info.app == "sequence")
        #expect(info.version == 1)
        #expect(info.revision == TraceFormat.revision && info.recordsHookEnds)

        let expected: [TraceEvent.Kind] = [
            .interactorCreated(id: 1, type: "TraceTestInteractor"),
            .routerCreated(id: 2, type: "TraceTestRootRouter", interactor: 1, interactorType: "TraceTestInteractor"),
            .launch(router: 2),
            .activate(interactor: 1),
            .hookEnd(interactor: 1),                            // didBecomeActive returned
            .load(router: 2),
            .interactorCreated(id: 3, type: "TraceTestInteractor"),
            .routerCreated(id: 4, type: "TraceTestRouter", interactor: 3, interactorType: "TraceTestInteractor"),
            .interactorCreated(id: 5, type: "TraceTestInteractor"),
            .routerCreated(id: 6, type: "TraceTestRouter", interactor: 5, interactorType: "TraceTestInteractor"),
            // attach: append, activate, then load (which attaches the grandchild)
            .attach(parent: 2, child: 4),
            .activate(interactor: 3),
            .hookEnd(interactor: 3),
            .attach(parent: 4, child: 6),
            .activate(interactor: 5),
            .taskStart(task: 7, owner: 5, label: "watch"),      // started inside didBecomeActive, before its end
            .hookEnd(interactor: 5),
            .load(router: 6),
            .load(router: 4),
            .mark(text: "tree built"),
            // detach: remove, then deactivate the subtree root first; tasks are cancelled after willResignActive
            .detach(parent: 2, child: 4),
            .deactivate(interactor: 3),
            .hookEnd(interactor: 3),
            .deactivate(interactor: 5),
            .hookEnd(interactor: 5),
            .taskCancel(task: 7),
            .taskEnd(task: 7, outcome: .cancelled),
            // re-attach: the kept subtree re-activates; nothing is loaded twice
            .attach(parent: 2, child: 4),
            .activate(interactor: 3),
            .hookEnd(interactor: 3),
            .activate(interactor: 5),
            .taskStart(task: 8, owner: 5, label: "watch"),
            .hookEnd(interactor: 5),
            .detach(parent: 2, child: 4),
            .deactivate(interactor: 3),
            .hookEnd(interactor: 3),
            .deactivate(interactor: 5),
            .hookEnd(interactor: 5),
            .taskCancel(task: 8),
            .taskEnd(task: 8, outcome: .cancelled),
            // release: each router, then its interactor, then its children
            .deallocated(id: 4),
            .deallocated(id: 3),
            .deallocated(id: 6),
            .deallocated(id: 5),
            .mark(text: "child released"),
            // the root goes away while active: deinit, then its interactor resigns and goes
            .deallocated(id: 2),
            .deactivate(interactor: 1),
            .hookEnd(interactor: 1),
            .deallocated(id: 1),
            .sessionEnd(reason: "finished"),
        ]
        let actual = events.dropFirst().map(\.kind)
        #expect(actual == expected, "\(diff(actual, expected))")
        #expect(events.map(\.seq) == Array(1...UInt64(events.count)))
    }

    /// The first position where two sequences differ, for a readable failure.
    private func diff(_ actual: [TraceEvent.Kind], _ expected: [TraceEvent.Kind]) -> String {
        let index = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
            ?? min(actual.count, expected.count)
        let show = { (list: [TraceEvent.Kind]) in
            list[index..<min(list.count, index + 4)].map { "\($0)" }.joined(separator: "\n    ")
        }
        return "first difference at event \(index + 2) (seq):\n  actual:\n    \(show(actual))\n  expected:\n    \(show(expected))"
    }
}
