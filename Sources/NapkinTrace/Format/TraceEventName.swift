extension TraceEvent {
    /// The name of an event kind: the `ev` value of format v1, the one place
    /// every name is spelled.
    ///
    /// The encoder, both paths of the parser, the model's counters and
    /// `stats` all derive from this enum. Its cases are in lifecycle order
    /// (the order `stats` lists them in); the raw value is the wire name.
    ///
    /// To add an event kind, add a case here and to ``TraceEvent/Kind``; the
    /// compiler then points at every switch that must handle it
    /// (`docs/contributing.md` lists them).
    public enum Name: String, CaseIterable, Sendable, Hashable {
        /// `session`: the first record of every session.
        case session
        /// `interactor`: an interactor enters the trace.
        case interactor
        /// `router`: a router is created.
        case router
        /// `launch`: a router becomes the root of a tree.
        case launch
        /// `attach`: a child router is attached.
        case attach
        /// `activate`: an interactor becomes active.
        case activate
        /// `hook_end`: the interactor's `didBecomeActive()` or `willResignActive()` returned.
        case hookEnd = "hook_end"
        /// `load`: a router finished `didLoad()`.
        case load
        /// `view`: a router's view appeared or disappeared.
        case view
        /// `detach`: a child router is detached.
        case detach
        /// `deactivate`: an interactor resigns.
        case deactivate
        /// `task_start`: a bound task starts.
        case taskStart = "task_start"
        /// `task_cancel`: the framework asked a bound task to cancel.
        case taskCancel = "task_cancel"
        /// `task_end`: a bound task returned.
        case taskEnd = "task_end"
        /// `deinit`: a router or interactor was deallocated.
        case deallocated = "deinit"
        /// `mark`: free text from the app.
        case mark
        /// `dropped`: events the sink could not keep up with.
        case dropped
        /// `end`: the session ended cleanly.
        case end

        /// The value of the `ev` field.
        @inlinable public var wireName: String { rawValue }

        /// The case's position in ``allCases`` (`0..<allCases.count`), for
        /// counting by kind without hashing.
        ///
        /// A payload-free enum is stored as its case's declaration index in
        /// one byte (Swift's stable enum layout), so this is a load, not a
        /// lookup; `TraceEventNameTests` checks it against `allCases`.
        @inline(__always) var index: Int {
            Int(unsafeBitCast(self, to: UInt8.self))
        }
    }
}

extension TraceEvent.Kind {
    /// The id a `deinit` names (0 for any other kind).
    @inline(__always)
    var deallocatedID: NodeID {
        if case .deallocated(let id) = self { return id }
        return 0
    }

    /// The name of this kind (its `ev` value).
    @inline(__always)
    public var name: TraceEvent.Name {
        switch self {
        case .sessionStart: .session
        case .interactorCreated: .interactor
        case .routerCreated: .router
        case .attach: .attach
        case .detach: .detach
        case .activate: .activate
        case .deactivate: .deactivate
        case .hookEnd: .hookEnd
        case .load: .load
        case .launch: .launch
        case .view: .view
        case .taskStart: .taskStart
        case .taskCancel: .taskCancel
        case .taskEnd: .taskEnd
        case .deallocated: .deallocated
        case .mark: .mark
        case .dropped: .dropped
        case .sessionEnd: .end
        }
    }

    /// The value of the `ev` field for this kind.
    public var wireName: String { name.rawValue }
}
