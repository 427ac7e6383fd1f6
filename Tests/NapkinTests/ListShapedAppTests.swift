import Napkin
import NapkinTrace
import Testing

/// A legitimate app shape gives no finding: many parents, each holding
/// several children of one type (the rows of a list, tabs), attached in a
/// loop and detached cleanly, again and again; rows added later to a list.
@Suite("A list-shaped app")
@MainActor
struct ListShapedAppTests {
    @Test("20 lists of 4 rows each, shown and torn down 5 times, rows added later: no finding at all")
    func listsOfRows() async throws {
        let recorder = TraceRecorder(app: "lists")
        var root: ListRootRouter?
        await recorder.record {
            root = ListRootRouter(interactor: ListInteractor(), viewController: ListView())
            await root!.launch()
        }
        for _ in 0..<5 {
            var lists: [ListRouter] = []
            for _ in 0..<20 {
                let list = ListRouter(interactor: ListInteractor())
                await root!.attachChild(list)
                for _ in 0..<4 { await list.attachChild(RowRouter(interactor: RowInteractor())) }
                lists.append(list)
            }
            // A step later, the user adds a row to the first list.
            NapkinTrace.mark("add a row")
            await lists[0].attachChild(RowRouter(interactor: RowInteractor()))
            // Each list is let go as soon as it is detached (the app keeps no reference).
            while let list = lists.popLast() {
                for row in list.children { await list.detachChild(row) }
                await root!.detachChild(list)
            }
        }
        // Everything detached is gone (the framework releases it on the main actor).
        var report = await recorder.analyzeOnOwnThread(grace: .seconds(1))
        for _ in 0..<100 where !report.isClean || report.undecided > 0 {
            try await Task.sleep(for: .milliseconds(50))
            report = await recorder.analyzeOnOwnThread(grace: .seconds(1))
        }
        #expect(report.isClean, "\(report)")
        let rows = recorder.eventsAsRecorded.filter { if case .routerCreated(_, "RowRouter", _, _) = $0.kind { true } else { false } }
        #expect(rows.count == 5 * (20 * 4 + 1))
        root = nil
    }
}

final actor ListInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
}

/// A row that watches its item while it is shown.
final actor RowInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()

    func didBecomeActive() async {
        task(named: "watch-item") { try? await Task.sleep(for: .seconds(3600)) }
    }
}

@MainActor final class ListView: HeadlessViewControllable {}
@MainActor final class ListRootRouter: LaunchRouter<ListInteractor, ListView> {}
@MainActor final class ListRouter: Router<ListInteractor> {}
@MainActor final class RowRouter: Router<RowInteractor> {}
