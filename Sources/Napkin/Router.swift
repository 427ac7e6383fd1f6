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
/// The order of attaching, detaching and deinit, and which trace a router
/// reports to (adoption by a traced parent): docs/lifecycle.md, sections 3,
/// 4 and 7. Attaching and detaching children are in `RouterChildren.swift`.
@MainActor
open class Router<InteractorType>: Routing {
    // MARK: - State

    /// The interactor, with its own type.
    public let interactor: InteractorType

    /// The interactor as an ``Interactable``.
    public let interactable: Interactable

    /// The attached child routers, in attach order.
    public internal(set) final var children: [Routing] = []

    /// Where the router is in its one load: not started, ``didLoad()`` running, or returned.
    private enum LoadState { case idle, loading, loaded }
    /// Where the router is in its load.
    private var loadState = LoadState.idle
    /// The callers of ``loaded()`` waiting for ``didLoad()`` to return.
    private var loadWaiters: [CheckedContinuation<Void, Never>] = []
    /// The task running ``didLoad()`` while `loadState` is `.loading`, nil
    /// otherwise: ``loaded()`` called from it returns at once. Only compared
    /// with the current task, and only while that load is under way, so the
    /// task it names is alive (it is suspended inside ``load()``).
    private var loadingTask: UnsafeCurrentTask?

    /// Where this router's transitions are traced; `nil` while untraced
    /// (tracing was off at creation and no traced parent has adopted it).
    package var tracer: Tracer? { traced(storedTracer) }
    /// Set once: at creation, or when a traced parent adopts this router.
    private var storedTracer: Tracer?
    /// The router that lists this one as a child (see ``ParentTracked``).
    var attachedParent: AttachedParent?
    /// This router's id in the trace (0 while untraced).
    package private(set) var traceID: NodeID = 0
    /// The view this router listed for appearance reports (see
    /// ``ViewableRouter``); taken out of the list at deinit.
    var reportedView: ObjectIdentifier?

    // MARK: - Creation and tracing

    /// Creates a router for `interactor`, which must conform to ``Interactable``.
    ///
    /// Created traced, the router records where it was made: the first line
    /// of the app's code on the call stack outside Napkin and outside this
    /// router's own initializers (the builder's line), whatever its class's
    /// initializers look like (see `CreationSite`). Passing `file` and `line`
    /// (a factory naming its own caller) records them instead; line 0 means
    /// unknown. With tracing and detection off nothing is captured.
    public init(interactor: InteractorType, file: StaticString? = nil, line: UInt? = nil) {
        self.interactor = interactor
        self.interactable = Self.interactable(interactor)
        if let tracer = tracerForNewObject() {
            enterTrace(tracer, createdAt: creationLocation(file: file, line: line))
        }
    }

    /// Creates a router for `interactor`: napkin 2.x's initializer, kept so
    /// that subclasses overriding it compile. It records where the router
    /// was made exactly as the one above does.
    @_disfavoredOverload
    public init(interactor: InteractorType) {
        self.interactor = interactor
        self.interactable = Self.interactable(interactor)
        if let tracer = tracerForNewObject() { enterTrace(tracer, createdAt: creationLocation(file: nil, line: nil)) }
    }

    /// Where this router, being created traced, was made: `file:line` when
    /// given, else the call stack's builder line.
    @inline(never)
    private func creationLocation(file: StaticString?, line: UInt?) -> CodeLocation? {
        if let file, let line { return line == 0 ? nil : CodeLocation(fileID: file, line: line) }
        return CreationSite.location(skippingInitializersOf: type(of: self))
    }

    /// `interactor` as an ``Interactable``; stops the process if it is not one.
    private static func interactable(_ interactor: InteractorType) -> Interactable {
        guard let interactable = interactor as? Interactable else {
            fatalError("\(InteractorType.self) must conform to Interactable to be a router's interactor")
        }
        return interactable
    }

    /// Starts reporting to `tracer`: takes an id and writes the creation
    /// records of the interactor (adopting it if it is untraced, see
    /// `InteractorLifecycle.enterTrace`) and of this router (with `location`,
    /// where it was created, when known: not for an adopted router).
    private func enterTrace(_ tracer: Tracer, createdAt location: CodeLocation? = nil) {
        storedTracer = tracer
        let interactorType = type(of: interactable)
        let routerName = traceName(of: type(of: self))
        let interactorName = traceName(of: interactorType)
        interactable.lifecycle.enterTrace(tracer, ownerType: interactorType) { interactorID in
            traceID = tracer.nextID()
            tracer.emit(.routerCreated(id: traceID, type: routerName, interactor: interactorID, interactorType: interactorName), at: location)
            // For the retainer search (weakly; nothing kept unless a search can run).
            tracer.liveObjects.register(self, id: traceID, type: routerName, kind: .router)
            if interactorID != 0 { tracer.liveObjects.register(interactable, id: interactorID, type: interactorName, kind: .interactor) }
        }
        didEnterTrace(tracer)
    }

    /// Called once this router reports to `tracer` (created traced, or
    /// adopted), after its creation record: a viewable router lists its view.
    func didEnterTrace(_ tracer: Tracer) {}

    // MARK: - Loading

    /// Runs ``didLoad()`` the first time it is called; later calls (including
    /// one made from inside `didLoad`) return at once. Use ``loaded()`` to wait.
    public final func load() async {
        guard loadState == .idle else { return }
        loadState = .loading
        // One read of the current task: no allocation, no lock.
        loadingTask = withUnsafeCurrentTask { $0 }
        await didLoad()
        loadingTask = nil
        loadState = .loaded
        tracer?.emit(.load(router: traceID))
        let waiters = loadWaiters
        loadWaiters.removeAll()
        for waiter in waiters { waiter.resume() }
    }

    /// Returns once ``didLoad()`` has returned (at once if it has), except
    /// when the caller is part of that load: then it returns at once.
    ///
    /// "Part of the load" means running in the task that runs this router's
    /// `didLoad`, while it runs: `didLoad` itself and everything it awaits,
    /// at any depth, such as the children it attaches, their interactors'
    /// `didBecomeActive` and their own `didLoad`, and the grandchildren those
    /// attach. Waiting there would wait for itself (the ancestor's `didLoad`
    /// cannot return before the attach it awaits), so it returns instead, and
    /// the caller sees the router still loading: its `didLoad` has started and
    /// everything before it (the first activation) is done, and what its
    /// `didLoad` does after the awaited call has not happened yet.
    ///
    /// Every other caller waits for `didLoad` to return, including tasks
    /// started from inside the load (`Task {}`, bound tasks, `async let`,
    /// task groups): they run in tasks of their own. So a `didLoad` must not
    /// await such a task that awaits `loaded()` of a router whose load
    /// encloses it, nor may the code a router's first attach runs before its
    /// load (its interactor's `didBecomeActive`) await that router's
    /// `loaded()`: those still wait for themselves. See `docs/lifecycle.md`.
    public final func loaded() async {
        if loadState == .loaded { return }
        if let loadingTask, withUnsafeCurrentTask(body: { $0 == loadingTask }) { return }
        await withCheckedContinuation { loadWaiters.append($0) }
    }

    /// Called once, when the router is first loaded. Attach permanent children here.
    open func didLoad() async {}

    // MARK: - Trace hooks

    /// The trace hook of ``attachChild(_:)``, run once `child` is in
    /// ``children``. Tracing off (this router untraced): one nil check, no
    /// allocation, no lock, and never an adoption. On: the `attach` record
    /// (with `location`, the caller's code), after adopting `child` if it is
    /// untraced (its subtree is recorded after the record).
    @inline(__always)
    package func traceAttach(of child: Routing, from location: CodeLocation? = nil) {
        if let tracer { recordLink(to: child, in: tracer, from: location) }
    }

    /// Writes the `attach` record of the link from this router (traced by
    /// `tracer`) to `child`. An untraced child is adopted first, and its
    /// subtree is recorded after the record; a child that reports to another
    /// trace is not named (its id means nothing in this one).
    private func recordLink(to child: Routing, in tracer: Tracer, from location: CodeLocation? = nil) {
        guard let traced = child as? TracedRouter else { return }
        let (childID, adopted) = traced.join(tracer)
        if childID != 0 { tracer.emit(.attach(parent: traceID, child: childID), at: location) }
        if adopted { traced.recordAdoptedSubtree() }
    }

    // MARK: - Launching and going away

    /// Activates this router as the root of a tree, then loads it.
    func launchAsRoot() async {
        tracer?.emit(.launch(router: traceID))
        await RouterTree.settle(self, path: RouterTree.Path())
        await load()
    }

    /// Runs on the main actor, like everything else of the router: it reads
    /// `children` and the view it reported, and deactivates the subtree.
    ///
    /// `isolated deinit` is native from iOS 18.4 and macOS 15.4; below those,
    /// the compiler routes it through a back-deployment shim
    /// (`swift_task_deinitOnExecutorMainActorBackDeploy`) with crash reports
    /// upstream (swiftlang/swift#85663). The package therefore requires
    /// iOS 26 and macOS 26 (`Package.swift`), the versions napkin 2.x
    /// requires anyway, so no supported OS runs the shim. Lowering those
    /// platforms means revisiting this deinit first.
    isolated deinit {
        // Children that live on (app references, the task below) no longer have this parent.
        for child in children {
            if let tracked = child as? ParentTracked, tracked.attachedParent?.id == ObjectIdentifier(self) {
                tracked.attachedParent = nil
            }
        }
        if let reportedView { ViewReports.routerWillDeallocate(reportedView, router: traceID) }
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

/// A router that can be named in the trace and adopted by a traced parent.
@MainActor
protocol TracedRouter: AnyObject {
    /// Its id in the trace it reports to (0 while untraced).
    var traceID: NodeID { get }
    /// Its id in `tracer`'s trace: 0 if it reports to another trace or to none.
    func traceID(in tracer: Tracer) -> NodeID
    /// Its id in `tracer`'s trace, adopting it first if it reports to none
    /// (`adopted`: its creation records are written; the caller writes the
    /// link, then calls ``recordAdoptedSubtree()``). 0 if it reports elsewhere.
    func join(_ tracer: Tracer) -> (id: NodeID, adopted: Bool)
    /// For a router just adopted and linked: adopts and links its children,
    /// each subtree in turn, then records its load if it has loaded.
    func recordAdoptedSubtree()
}

extension Router: ParentTracked {}

extension Router: TracedRouter {
    func traceID(in tracer: Tracer) -> NodeID {
        storedTracer === tracer ? traceID : 0
    }

    func join(_ tracer: Tracer) -> (id: NodeID, adopted: Bool) {
        if let own = storedTracer { return (own === tracer ? traceID : 0, false) }
        enterTrace(tracer)
        return (traceID, true)
    }

    func recordAdoptedSubtree() {
        guard let tracer = storedTracer else { return }
        for child in children { recordLink(to: child, in: tracer) }
        if loadState == .loaded { tracer.emit(.load(router: traceID)) }
    }
}
