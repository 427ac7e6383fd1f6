import NapkinTrace
/// A read-only view of an interactor's active state.
public protocol InteractorScope: AnyObject, Sendable {
    /// Whether the interactor is active: attached to an active tree (or
    /// launched) and not yet resigned.
    var isActive: Bool { get async }

    /// A stream that yields the current state first, then every change.
    var isActiveStream: AsyncStream<Bool> { get }
}

/// The business logic of a napkin: an actor whose active scope is driven by
/// its router.
///
/// Conform a `final actor` and store a lifecycle; everything else has a default:
///
/// ```swift
/// final actor HomeInteractor: Interactable {
///     nonisolated let lifecycle = InteractorLifecycle()
///     weak var listener: HomeListener?
///
///     func didBecomeActive() async {
///         task(named: "announcements") { [service] in
///             for await text in service.announcements { await self.show(text) }
///         }
///     }
/// }
/// ```
///
/// The router calls ``activate()`` when the napkin is attached (or launched)
/// and ``deactivate()`` when it is detached or its router goes away; app code
/// does not call them. Both are idempotent.
public protocol Interactable: Actor, InteractorScope {
    /// The interactor's lifecycle state.
    nonisolated var lifecycle: InteractorLifecycle { get }

    /// Makes the interactor active and runs ``didBecomeActive()``.
    func activate() async

    /// Runs ``willResignActive()``, makes the interactor inactive and cancels
    /// the tasks bound with ``task(priority:_:)``.
    ///
    /// It reaches this interactor only, not the interactors of its router's
    /// children (unlike Uber RIBs, where a loaded router follows its
    /// interactor's state with its whole subtree). The subtree follows router
    /// operations: to deactivate a napkin with everything under it, detach
    /// its router (`detachChild`), which deactivates its interactor, then its
    /// subtree's, root first; attaching it again re-activates them. See
    /// `docs/lifecycle.md`, "A direct request".
    func deactivate() async

    /// Called when the interactor becomes active. Start observation here.
    func didBecomeActive() async

    /// Called when the interactor is about to become inactive, while it is
    /// still active. Bound tasks are cancelled right after it returns.
    func willResignActive() async
}

/// An interactor that talks to a view through a presenter.
public protocol PresentableInteractable: Interactable {
    /// The type of the presenter (usually a `Presentable` protocol).
    associatedtype PresenterType
    /// The presenter the interactor sends view state to.
    nonisolated var presenter: PresenterType { get }
}

extension Interactable {
    /// Whether the interactor is active.
    public var isActive: Bool {
        get async { lifecycle.isActiveNow }
    }

    /// A stream that yields the current state first, then every change.
    public nonisolated var isActiveStream: AsyncStream<Bool> {
        lifecycle.isActiveStream
    }

    /// Activates the interactor (idempotent). Called by routers.
    public func activate() async {
        DefaultHooks.note(.activate, for: Self.self)
        await lifecycle.converge(to: true, ownerType: Self.self,
                                 didBecomeActive: { await self.didBecomeActive() },
                                 willResignActive: { await self.willResignActive() })
    }

    /// Deactivates the interactor (idempotent). Called by routers.
    public func deactivate() async {
        DefaultHooks.note(.deactivate, for: Self.self)
        await lifecycle.converge(to: false, ownerType: Self.self,
                                 didBecomeActive: { await self.didBecomeActive() },
                                 willResignActive: { await self.willResignActive() })
    }

    /// Does nothing; implement it to start work when the interactor becomes active.
    public func didBecomeActive() async {
        DefaultHooks.note(.didBecomeActive, for: Self.self)
    }

    /// Does nothing; implement it to flush state before the interactor resigns.
    public func willResignActive() async {
        DefaultHooks.note(.willResignActive, for: Self.self)
    }

    /// Starts `work` in a task bound to the active scope: it is cancelled when
    /// the interactor deactivates. napkin's replacement for RIBs' `disposeOnDeactivate`.
    /// `file` and `line` name the calling code for the trace (the defaults
    /// capture the caller's; nothing is kept when tracing is off).
    @discardableResult
    public func task(priority: TaskPriority? = nil, file: StaticString = #fileID, line: UInt = #line,
                     filePath: StaticString = #filePath,
                     _ work: @Sendable @escaping () async -> Void) -> Task<Void, Never> {
        if lifecycle.traceID != 0 { SourcePaths.note(file, filePath) }
        return lifecycle.register(label: nil, ownerType: Self.self, priority: priority,
                           from: CodeLocation(fileID: file, line: line), work)
    }

    /// Starts `work` in a task bound to the active scope, named `label` in the trace.
    @discardableResult
    public func task(named label: String, priority: TaskPriority? = nil, file: StaticString = #fileID, line: UInt = #line,
                     filePath: StaticString = #filePath,
                     _ work: @Sendable @escaping () async -> Void) -> Task<Void, Never> {
        if lifecycle.traceID != 0 { SourcePaths.note(file, filePath) }
        return lifecycle.register(label: label, ownerType: Self.self, priority: priority,
                           from: CodeLocation(fileID: file, line: line), work)
    }
}
