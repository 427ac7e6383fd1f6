import NapkinTrace

/// The base class of a napkin's router: owns the interactor, keeps the
/// children and drives their lifecycles.
///
/// ```swift
/// final class HomeRouter: Router<HomeInteractor>, HomeRouting {
///     private var profile: Routing?
///
///     func routeToProfile() async {
///         guard profile == nil else { return }
///         let router = await profileBuilder.build(withListener: interactor)
///         profile = router
///         await attachChild(router)
///     }
///
///     func routeBackFromProfile() async {
///         guard let router = profile else { return }
///         profile = nil
///         await detachChild(router)
///     }
/// }
/// ```
///
/// Ordering guarantees (all on the main actor; see `docs/lifecycle.md`):
/// - ``attachChild(_:)`` appends the child, activates its interactor (then
///   its retained subtree, root first), then loads it.
/// - ``detachChild(_:)`` removes the child, then deactivates its interactor
///   and its whole subtree, root first.
/// - Deinit deactivates the interactors it still holds (its own and its
///   subtree's), root first, in one task. The framework never retains a
///   router: it lives exactly as long as your references and its parent's
///   `children` keep it (a released router's children live on until that
///   task has deactivated them).
@MainActor
open class Router<InteractorType>: Routing {
    /// The interactor, with its own type.
    public let interactor: InteractorType

    /// The interactor as an ``Interactable``.
    public let interactable: Interactable

    /// The attached child routers, in attach order.
    public private(set) final var children: [Routing] = []

    private enum LoadState { case idle, loading, loaded }
    private var loadState = LoadState.idle
    private var loadWaiters: [CheckedContinuation<Void, Never>] = []

    /// Where this router's transitions are traced; `nil` when tracing was off at creation.
    package var tracer: Tracer? { traced(storedTracer) }
    private let storedTracer: Tracer?
    /// This router's id in the trace (0 when untraced).
    package let traceID: NodeID

    /// Creates a router for `interactor`, which must conform to ``Interactable``.
    public init(interactor: InteractorType) {
        self.interactor = interactor
        guard let interactable = interactor as? Interactable else {
            fatalError("\(InteractorType.self) must conform to Interactable to be a router's interactor")
        }
        self.interactable = interactable
        let tracer = tracerForNewObject()
        self.storedTracer = tracer
        self.traceID = tracer?.nextID() ?? 0
        if let tracer {
            let lifecycle = interactable.lifecycle
            let interactorType = type(of: interactable)
            lifecycle.announce(interactorType)
            tracer.emit(.routerCreated(id: traceID, type: traceName(of: type(of: self)),
                                       interactor: lifecycle.traceID,
                                       interactorType: traceName(of: interactorType)))
        }
    }

    /// Runs ``didLoad()`` the first time it is called; later calls (including
    /// one made from inside `didLoad`) return at once. Use ``loaded()`` to wait.
    public final func load() async {
        guard loadState == .idle else { return }
        loadState = .loading
        await didLoad()
        loadState = .loaded
        tracer?.emit(.load(router: traceID))
        let waiters = loadWaiters
        loadWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``didLoad()`` has finished (at once if it has). Do not
    /// call it from inside `didLoad`: it would wait for itself.
    public final func loaded() async {
        if loadState == .loaded { return }
        await withCheckedContinuation { loadWaiters.append($0) }
    }

    /// Called once, when the router is first loaded. Attach permanent children here.
    open func didLoad() async {}

    /// Appends `child` to ``children``, activates its interactor (and the
    /// subtree it kept from an earlier attach), then loads it.
    ///
    /// Attaching a router that is already a child changes nothing (the trace
    /// records the misuse).
    public final func attachChild(_ child: Routing) async {
        // The cast runs only when tracing is on: off, the hook stays a nil check.
        let childID = tracer == nil ? 0 : (child as? TracedRouter)?.traceID ?? 0
        if children.contains(where: { $0 === child }) {
            if childID != 0 { tracer?.emit(.attach(parent: traceID, child: childID)) }
            return
        }
        children.append(child)
        if childID != 0 { tracer?.emit(.attach(parent: traceID, child: childID)) }
        await RouterTree.settle(child, path: [RouterTree.Link(parent: self, child: child)])
        await child.load()
    }

    /// Removes `child` from ``children`` and deactivates its interactor and
    /// its whole subtree, root first. Detaching a router that is not a child
    /// changes nothing (the trace records the misuse).
    public final func detachChild(_ child: Routing) async {
        let childID = tracer == nil ? 0 : (child as? TracedRouter)?.traceID ?? 0
        guard let index = children.firstIndex(where: { $0 === child }) else {
            if childID != 0 { tracer?.emit(.detach(parent: traceID, child: childID)) }
            return
        }
        children.remove(at: index)
        if childID != 0 { tracer?.emit(.detach(parent: traceID, child: childID)) }
        await RouterTree.settle(child, path: [RouterTree.Link(parent: self, child: child)])
    }

    /// Activates this router as the root of a tree, then loads it.
    func launchAsRoot() async {
        tracer?.emit(.launch(router: traceID))
        await RouterTree.settle(self, path: [])
        await load()
    }

    isolated deinit {
        tracer?.emit(.deallocated(id: traceID))
        let active = RouterTree.activeInteractors(of: self)
        if !active.isEmpty {
            // The task keeps the children until it has deactivated the
            // subtree: released with this router, their own deinits would
            // otherwise spawn tasks that race this one and break root-first order.
            let children = self.children
            Task {
                for interactable in active { await interactable.deactivate() }
                withExtendedLifetime(children) {}
            }
        }
    }
}

/// A router that can be named in the trace.
@MainActor
protocol TracedRouter: AnyObject {
    var traceID: NodeID { get }
}

extension Router: TracedRouter {}
