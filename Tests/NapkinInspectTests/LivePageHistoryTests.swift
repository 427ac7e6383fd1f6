import Foundation
import NapkinTrace
import Testing
@testable import napkin_inspect

/// What a session keeps for the page of `live --web` (``LivePageHistory``):
/// bounded over a long run of short-lived routers, every live node kept
/// whatever their number, and a snapshot that says what it forgot.
@Suite("live --web: the page's history stays bounded")
struct LivePageHistoryTests {
    /// Folds `kinds` as events one ms apart, after a session record, into a page history.
    static func fold(_ count: Int, _ kind: (Int) -> [TraceEvent.Kind]) -> LivePageHistory {
        var page = LivePageHistory(TraceAnalyzer.Options())
        var seq: UInt64 = 1
        page.after(TraceEvent(seq: seq, time: 0, kind: .sessionStart(SessionInfo(app: "t", pid: 1, wallClock: 0))))
        for i in 0..<count {
            for k in kind(i) {
                seq += 1
                let event = TraceEvent(seq: seq, time: seq * 1_000_000, kind: k)
                page.before(event, PopulationCounts())
                page.after(event)
            }
        }
        return page
    }

    @Test("a million events of routers that come and go: the rows stay under the bound, the newest are there, the cut is said")
    func shortLivedRouters() {
        // Each round: a router (id 2i+3, interactor 2i+2) created, attached to the root, detached, deallocated.
        let page = Self.fold(1 + 200_000) { i in
            if i == 0 { return [.interactorCreated(id: 1, type: "RootInteractor"), .routerCreated(id: 2, type: "RootRouter", interactor: 1, interactorType: "RootInteractor"), .launch(router: 2)] }
            let router = NodeID(2 * i + 3), interactor = NodeID(2 * i + 2)
            return [.interactorCreated(id: interactor, type: "ItemInteractor"),
                    .routerCreated(id: router, type: "ItemRouter", interactor: interactor, interactorType: "ItemInteractor"),
                    .attach(parent: 2, child: router), .detach(parent: 2, child: router), .deallocated(id: router), .deallocated(id: interactor)]
        }
        #expect(page.history.nodes.count <= LivePageHistory.maxNodes, "\(page.history.nodes.count) rows")
        #expect(page.history.forgottenBefore > 0)
        #expect(page.history.life(of: 2) != nil, "the root, alive all along, is kept")
        #expect(page.history.life(of: NodeID(2 * 200_000 + 3)) != nil, "the newest router is kept")
        #expect(page.history.links.count <= 2 * LivePageHistory.maxEvents)
    }

    @Test("forty thousand routers alive at once: all kept (the bound rises), none forgotten")
    func manyAlive() {
        let page = Self.fold(40_000) { i in
            let router = NodeID(2 * i + 3), interactor = NodeID(2 * i + 2)
            return [.interactorCreated(id: interactor, type: "ItemInteractor"),
                    .routerCreated(id: router, type: "ItemRouter", interactor: interactor, interactorType: "ItemInteractor")]
        }
        #expect(page.history.nodes.count == 40_000)
    }
}
