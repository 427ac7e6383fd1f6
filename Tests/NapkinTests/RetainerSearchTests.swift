import Foundation
import Napkin
import StrippedReflection
@testable import NapkinTrace
import Testing
import TestSupport

/// Who retains a leaked router, found in the process where it lives
/// (``TraceRecorder/findRetainers(in:)``): one leak per kind of holding
/// reference, written as apps write them, each explained by its path; weak
/// references are never retainers; a reference the walk cannot reach says
/// what was searched.
///
/// Each test records a launched root with a host interactor, attaches a
/// child, lets the bug hold it, detaches and drops it, waits for the
/// `not-deallocated` finding, runs the search, and breaks the bug so that
/// nothing outlives the test.
@Suite("Retainers: who holds a leaked router", .disabled(if: runsUnderThreadSanitizer, "a reader forked from a process under the thread sanitizer can hang in the sanitizer's own runtime: the plain run covers the searches"))
@MainActor
struct RetainerSearchTests {
    static let grace: Duration = .milliseconds(300)

    @Test("a retain cycle: the interactor keeps its router")
    func cycle() async throws {
        let (finding, ids) = try await leak { child, _ in await child.interactor.hold(child) } release: { child, _ in
            await child.interactor.release()
        }
        let retainers = try #require(finding.retainers)
        #expect(retainers.paths == ["LeakyRouter#\(ids.child).interactor → LeakyInteractor#\(ids.childInteractor).router (suspect) → LeakyRouter#\(ids.child) (cycle)"], "\(retainers)")
        #expect(retainers.tally == "1 of 1 strong reference found")
        #expect(retainers.note == nil)
        #expect(retainers.key == "LeakyInteractor.router")
    }

    @Test("a store an attached interactor keeps: the element of its array")
    func store() async throws {
        let (finding, ids) = try await leak { child, host in await host.interactor.keep(child) } release: { _, host in
            await host.interactor.clearStore()
        }
        let retainers = try #require(finding.retainers)
        #expect(retainers.paths == ["HoldingInteractor#\(ids.hostInteractor).store (suspect) → ScreenShelf.screens[0] → LeakyRouter#\(ids.child)"], "\(retainers)")
        #expect(retainers.tally == "1 of 1 strong reference found")
        #expect(retainers.key == "HoldingInteractor.store")
    }

    @Test("a stored closure that captured the router, named by its property")
    func closure() async throws {
        let (finding, ids) = try await leak { child, host in await host.interactor.onEvent { _ = child } } release: { _, host in
            await host.interactor.onEvent(nil)
        }
        let retainers = try #require(finding.retainers)
        #expect(retainers.paths == ["HoldingInteractor#\(ids.hostInteractor).onEvent{closure} (suspect) → LeakyRouter#\(ids.child)"], "\(retainers)")
        #expect(retainers.tally == "1 of 1 strong reference found")
    }

    @Test("held by two references: two paths")
    func twoPaths() async throws {
        let (finding, ids) = try await leak { child, host in
            await host.interactor.keep(child)
            await host.interactor.onEvent { _ = child }
        } release: { _, host in
            await host.interactor.clearStore()
            await host.interactor.onEvent(nil)
        }
        let retainers = try #require(finding.retainers)
        #expect(retainers.paths == ["HoldingInteractor#\(ids.hostInteractor).onEvent{closure} (suspect) → LeakyRouter#\(ids.child)",
                                    "HoldingInteractor#\(ids.hostInteractor).store (suspect) → ScreenShelf.screens[0] → LeakyRouter#\(ids.child)"])
        #expect(retainers.tally == "2 of 2 strong references found")
    }

    @Test("a singleton the app names as a root")
    func namedRoot() async throws {
        NapkinTrace.retainerRoot(HandlerRegistry.shared, named: "HandlerRegistry.shared")
        defer { NapkinTrace.removeRetainerRoot(named: "HandlerRegistry.shared") }
        let (finding, ids) = try await leak { child, _ in HandlerRegistry.shared.handlers.append(child) } release: { child, _ in
            HandlerRegistry.shared.handlers.removeAll { $0 === child }
        }
        let retainers = try #require(finding.retainers)
        #expect(retainers.paths == ["HandlerRegistry.shared.handlers[0] (suspect) → LeakyRouter#\(ids.child)"], "\(retainers)")
        #expect(retainers.note == nil)
    }

    @Test("held only by a global nobody named: not found, and the note says what was searched and what could hold it")
    func globalOnly() async throws {
        let (finding, _) = try await leak { child, _ in GlobalHold.router = child } release: { _, _ in GlobalHold.router = nil }
        let retainers = try #require(finding.retainers)
        #expect(retainers.paths.isEmpty)
        #expect(retainers.tally == "0 of 1 strong reference found")
        let note = try #require(retainers.note)
        #expect(note.hasPrefix("Searched "))
        #expect(note.contains("no strong reference to it found; it can still be held by a global or static variable"))
    }

    @Test("a view that keeps its interactor as a strong listener while the interactor keeps it as presenter")
    func strongListener() async throws {
        let recorder = TraceRecorder(app: "listener")
        weak var weakInteractor: ListeningInteractor?
        let ids: (router: NodeID, interactor: NodeID) = recorder.record {
            let view = ListeningView()
            let interactor = ListeningInteractor(presenter: view)
            view.listener = interactor // the bug: `var listener`, not `weak var`
            weakInteractor = interactor
            let router = ListeningRouter(interactor: interactor)
            return (router.traceID, router.interactable.lifecycle.traceID)
        }
        try #require(await eventually { await !recorder.analyzeOnOwnThread(grace: Self.grace).findings(.notDeallocated).isEmpty })
        let report = await recorder.findRetainers(in: recorder.analyze(grace: Self.grace))
        let finding = try #require(report.findings.first { $0.rule == .notDeallocated && $0.id == ids.interactor })
        let retainers = try #require(finding.retainers)
        #expect(retainers.paths == ["ListeningInteractor#\(ids.interactor).presenter → ListeningView.listener (suspect) → ListeningInteractor#\(ids.interactor) (cycle)"], "\(retainers)")
        weakInteractor?.presenter.listener = nil
        #expect(await waitUntil { weakInteractor == nil })
    }

    @Test("only weak references: no finding, no path")
    func weakOnly() async throws {
        let recorder = TraceRecorder(app: "weak")
        var root: HoldingRootRouter?
        weak var weakChild: LeakyRouter?
        await recorder.record {
            root = HoldingRootRouter()
            await root!.launch()
            let child = LeakyRouter()
            weakChild = child
            await child.interactor.holdWeakly(child)
            await root!.attachChild(child)
            await root!.detachChild(child)
        }
        #expect(await waitUntil { weakChild == nil })
        try await Task.sleep(for: Self.grace * 2)
        let report = await recorder.findRetainers(in: recorder.analyze(grace: Self.grace))
        #expect(report.findings.isEmpty, "\(report)")
        #expect(!(await recorder.ndjsonWithLines()).contains("\"retained\""))
        root = nil
    }

    @Test("held by a running task that captured it: no path, and the note names the task with its owner and label")
    func heldByATask() async throws {
        let gate = TaskGate()
        let (finding, ids) = try await leak { child, _ in await child.interactor.holdInTask(child, until: gate) } release: { _, _ in
            gate.open()
        }
        let retainers = try #require(finding.retainers)
        #expect(retainers.paths.isEmpty, "\(retainers)")
        #expect(retainers.note?.contains("still running: LeakyInteractor#\(ids.childInteractor) 'holder'") == true, "\(retainers)")
    }

    @Test("held by a module built without reflection metadata: no path; the tally shows what is unaccounted for and the note says what else to suspect")
    func strippedReflectionMetadata() async throws {
        let holder = StrippedHolder()
        NapkinTrace.retainerRoot(holder, named: "StrippedHolder.shared")
        defer { NapkinTrace.removeRetainerRoot(named: "StrippedHolder.shared") }
        let (finding, _) = try await leak { child, _ in holder.hold(child) } release: { _, _ in holder.release() }
        let retainers = try #require(finding.retainers)
        #expect(retainers.paths.isEmpty, "\(retainers)")
        #expect(retainers.tally == "0 of 2 strong references found", "\(retainers)")
        #expect(retainers.note?.contains("no strong reference to it found") == true, "\(retainers)")
    }

    @Test("an object gone before the search: nothing to explain")
    func goneBeforeTheSearch() async {
        let objects = LiveObjects(enabled: true)
        do {
            let object = LeakyInteractor()
            objects.register(object, id: 7, type: "LeakyInteractor", kind: .interactor)
        }
        #expect(await RetainerSearch.run(target: 7, in: objects, context: .init()) == nil)
    }

    @Test("searches while the main actor and an actor change what the walk reads (the host router's and the host interactor's state): only real paths")
    func concurrentMutation() async throws {
        let (finding, ids) = try await leak { child, host in
            await host.interactor.keep(child)
            for _ in 0..<5 {
                // The main actor and the host's actor change what the search reads: the
                // host router's `churned` and the host interactor's `scratch`, both traced seeds.
                let churn = Task { @MainActor in
                    for round in 0..<200 {
                        if round % 2 == 0 { host.churned.append(LeakyInteractor()) } else { host.churned.removeAll() }
                        await Task.yield()
                    }
                }
                let actorChurn = Task {
                    for _ in 0..<200 { await host.interactor.churn() }
                }
                let id = child.traceID
                let searched = await RetainerSearch.run(target: id, in: TraceContext.recording!.liveObjects,
                                                        context: .init(expectedAlive: [host.interactor.lifecycle.traceID]))
                await churn.value
                await actorChurn.value
                guard let retainers = searched else {
                    Issue.record("no result while the router was held")
                    continue
                }
                // Still attached while the searches run: its parent's `children` holds it too.
                let hostInteractor = host.interactable.lifecycle.traceID
                let expected: Set = ["HoldingRootRouter#\(host.traceID).children[0] → LeakyRouter#\(id)",
                                     "HoldingInteractor#\(hostInteractor).store (suspect) → ScreenShelf.screens[0] → LeakyRouter#\(id)"]
                #expect(Set(retainers.paths) == expected, "\(retainers)")
                #expect(retainers.found <= (retainers.total ?? 0), "\(retainers)")
            }
        } release: { _, host in
            await host.interactor.clearStore()
            host.churned.removeAll()
        }
        #expect(finding.retainers?.paths == ["HoldingInteractor#\(ids.hostInteractor).store (suspect) → ScreenShelf.screens[0] → LeakyRouter#\(ids.child)"])
    }

    @Test("an object let go while its search runs: no result, or the path that held it at the copy's moment; never a crash")
    func letGoDuringTheSearch() async throws {
        let objects = LiveObjects(enabled: true)
        let holder = Shelf()
        objects.register(holder, id: 1, type: "Shelf", kind: .interactor)
        for round in 0..<20 {
            let id = NodeID(100 + round)
            do {
                let object = LeakyInteractor()
                objects.register(object, id: id, type: "LeakyInteractor", kind: .interactor)
                await holder.keep(object)
            }
            // Held only by the shelf: found with its path.
            let before = try #require(await RetainerSearch.run(target: id, in: objects, context: .init()))
            #expect(before.paths == ["Shelf#1.items[0] (suspect) → LeakyInteractor#\(id)"], "\(before)")
            #expect(before.tally == "1 of 1 strong reference found", "\(before)")
            // Let go while a search runs: either it was copied before (the path), or after (gone).
            let search = Task { await RetainerSearch.run(target: id, in: objects, context: .init()) }
            await holder.clear()
            let during = await search.value
            #expect(during == nil || during?.paths == ["Shelf#1.items[0] (suspect) → LeakyInteractor#\(id)"], "\(String(describing: during))")
            #expect(await RetainerSearch.run(target: id, in: objects, context: .init()) == nil)
        }
    }

    @Test("a large graph: the search stops at its limit of objects and says so")
    func boundedByObjects() async throws {
        let objects = LiveObjects(enabled: true)
        let roots = (0..<10).map { _ in Chain(length: 300) }
        for (index, root) in roots.enumerated() { objects.register(root, id: NodeID(index + 1), type: "Chain", kind: .router) }
        let target = LeakyInteractor()
        objects.register(target, id: 99, type: "LeakyInteractor", kind: .interactor)
        roots[9].last?.held = target
        let cut = try #require(await RetainerSearch.run(target: 99, in: objects, context: .init(), limits: .init(objects: 500)))
        #expect(cut.paths.isEmpty)
        #expect(cut.note?.contains("the search stopped at its limit") == true, "\(cut)")
        let whole = try #require(await RetainerSearch.run(target: 99, in: objects, context: .init(), limits: .init(objects: 30_000, time: .seconds(30))))
        #expect(whole.found == 1)
        let path = try #require(whole.paths.first)
        #expect(path.hasPrefix("Chain#10.first (suspect) → Link.next → Link.next"), "\(path)")
        #expect(path.hasSuffix("Link.held → LeakyInteractor#99"), "\(path)")
        // 302 hops (first, 299 links, held, the object): the first 6 and the last 8 shown, the rest counted.
        #expect(path.components(separatedBy: " → ").count == 15, "\(path)")
        #expect(path.contains(" → … 288 hops … → "), "\(path)")
        withExtendedLifetime((roots, target)) {}
    }

    // MARK: - The flow

    struct IDs { var child: NodeID; var childInteractor: NodeID; var hostInteractor: NodeID }

    /// Records a launched host with a child that `hold` keeps after it is
    /// detached and dropped; returns the child's `not-deallocated` finding,
    /// explained, then runs `release` and waits until the child is gone.
    private func leak(hold: @MainActor (LeakyRouter, HoldingRootRouter) async -> Void,
                      release: @MainActor (LeakyRouter, HoldingRootRouter) async -> Void,
                      sourceLocation: SourceLocation = #_sourceLocation) async throws -> (Finding, IDs) {
        let recorder = TraceRecorder(app: "retainers")
        var host: HoldingRootRouter?
        weak var weakChild: LeakyRouter?
        let ids: IDs = await recorder.record {
            host = HoldingRootRouter()
            await host!.launch()
            let child = LeakyRouter()
            weakChild = child
            await host!.attachChild(child)
            await hold(child, host!)
            await host!.detachChild(child)
            return IDs(child: child.traceID, childInteractor: child.interactable.lifecycle.traceID,
                       hostInteractor: host!.interactable.lifecycle.traceID)
        }
        try #require(await eventually { await !recorder.analyzeOnOwnThread(grace: Self.grace).findings(.notDeallocated).isEmpty },
                     sourceLocation: sourceLocation)
        let report = await recorder.findRetainers(in: recorder.analyze(grace: Self.grace))
        let finding = try #require(report.findings.first { $0.rule == .notDeallocated && $0.id == ids.child },
                                   "\(report)", sourceLocation: sourceLocation)
        if let child = weakChild { await release(child, host!) }
        #expect(await waitUntil { weakChild == nil }, "the test's leak was not undone", sourceLocation: sourceLocation)
        host = nil
        return (finding, ids)
    }
}

// MARK: - Fixtures

final actor LeakyInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    private var router: LeakyRouter?
    private weak var weakRouter: LeakyRouter?
    func hold(_ router: LeakyRouter) { self.router = router }
    func holdWeakly(_ router: LeakyRouter) { weakRouter = router }
    func release() { router = nil }
    /// A bound task that captures `router` and ignores cancellation until `gate` opens.
    func holdInTask(_ router: LeakyRouter, until gate: TaskGate) {
        task(named: "holder") {
            // An unstructured task: the bound task's cancellation does not reach it.
            await Task { while !gate.isOpen { try? await Task.sleep(for: .milliseconds(5)) } }.value
            withExtendedLifetime(router) {}
        }
    }
}

/// Opened once, from any thread.
final class TaskGate: Sendable {
    private let opened = Locked(false)
    var isOpen: Bool { opened.withLock { $0 } }
    func open() { opened.withLock { $0 = true } }
}

@MainActor final class LeakyRouter: Router<LeakyInteractor> {
    convenience init() { self.init(interactor: LeakyInteractor()) }
}

/// What a screen store an interactor owns keeps.
final class ScreenShelf {
    private var screens: [AnyObject] = []
    func keep(_ screen: AnyObject) { screens.append(screen) }
    func clear() { screens.removeAll() }
}

final actor HoldingInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    private let store = ScreenShelf()
    func keep(_ screen: LeakyRouter) { store.keep(screen) }
    func clearStore() { store.clear() }
    private var onEvent: (@Sendable () -> Void)?
    func onEvent(_ handler: (@Sendable () -> Void)?) { onEvent = handler }
    /// Changes the interactor's state while a search may read it.
    private var scratch: [LeakyInteractor] = []
    func churn() { if scratch.count > 3 { scratch.removeAll() } else { scratch.append(LeakyInteractor()) } }
}

@MainActor final class HoldingView: HeadlessViewControllable {}

@MainActor final class HoldingRootRouter: LaunchRouter<HoldingInteractor, HoldingView> {
    convenience init() { self.init(interactor: HoldingInteractor(), viewController: HoldingView()) }
    /// Changed on the main actor while a search may read it.
    var churned: [LeakyInteractor] = []
}

/// A chain of `length` links (a long path).
@MainActor final class Chain {
    final class Link { var next: Link?; var held: AnyObject? }
    let first = Link()
    /// Weak: the only strong way to the last link is the chain.
    private(set) weak var last: Link?
    init(length: Int) {
        var end = first
        for _ in 1..<length { let link = Link(); end.next = link; end = link }
        last = end
    }
}

/// An actor that shelves objects.
final actor Shelf {
    private var items: [LeakyInteractor] = []
    func keep(_ item: LeakyInteractor) { items.append(item) }
    func clear() { items.removeAll() }
}

/// An app-wide registry, reachable from no router: named as a root.
@MainActor final class HandlerRegistry {
    static let shared = HandlerRegistry()
    var handlers: [AnyObject] = []
}

/// A global nobody named.
@MainActor enum GlobalHold {
    static var router: LeakyRouter?
}

@MainActor final class ListeningView {
    var listener: ListeningInteractor?
}

final actor ListeningInteractor: Interactable {
    nonisolated let lifecycle = InteractorLifecycle()
    nonisolated let presenter: ListeningView
    init(presenter: ListeningView) { self.presenter = presenter }
}

@MainActor final class ListeningRouter: Router<ListeningInteractor> {}
