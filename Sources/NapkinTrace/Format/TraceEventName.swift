extension TraceEvent {
    /// The name of an event kind: its `ev` value in format v1.
    ///
    /// ``spelling`` is the one place every name is spelled: the raw value,
    /// the encoder, both paths of the parser (the fast path's literals are
    /// made from it), the model's counters and `stats` all derive from this
    /// enum. Its cases are in lifecycle order (the order `stats` lists them in).
    ///
    /// To add an event kind, add a case here and to ``TraceEvent/Kind``; the
    /// compiler then points at every switch that must handle it
    /// (`docs/contributing.md` lists them).
    public enum Name: CaseIterable, Sendable, Hashable {
        /// The first record of every session.
        case session
        /// An interactor enters the trace.
        case interactor
        /// A router is created.
        case router
        /// A router becomes the root of a tree.
        case launch
        /// A child router is attached.
        case attach
        /// An interactor becomes active.
        case activate
        /// The interactor's `didBecomeActive()` or `willResignActive()` returned.
        case hookEnd
        /// A router finished `didLoad()`.
        case load
        /// A router's view appeared or disappeared.
        case view
        /// A child router is detached.
        case detach
        /// An interactor resigns.
        case deactivate
        /// A bound task starts.
        case taskStart
        /// The framework asked a bound task to cancel.
        case taskCancel
        /// A bound task returned.
        case taskEnd
        /// A router or interactor was deallocated.
        case deallocated
        /// A retainer search in the app found what holds a router or interactor.
        case retained
        /// Free text from the app.
        case mark
        /// Events the sink could not keep up with.
        case dropped
        /// The session ended cleanly.
        case end

        /// The value of the `ev` field: the one place each name is spelled.
        ///
        /// Transparent, so that for a constant name the optimizer sees the
        /// bytes (the fast path's literals are constants made from them).
        @_transparent @usableFromInline package var spelling: StaticString {
            switch self {
            case .session: "session"
            case .interactor: "interactor"
            case .router: "router"
            case .launch: "launch"
            case .attach: "attach"
            case .activate: "activate"
            case .hookEnd: "hook_end"
            case .load: "load"
            case .view: "view"
            case .detach: "detach"
            case .deactivate: "deactivate"
            case .taskStart: "task_start"
            case .taskCancel: "task_cancel"
            case .taskEnd: "task_end"
            case .deallocated: "deinit"
            case .retained: "retained"
            case .mark: "mark"
            case .dropped: "dropped"
            case .end: "end"
            }
        }

        /// The value of the `ev` field.
        public var wireName: String { rawValue }

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

// Not `RawRepresentable`: its default `==` and `hash(into:)` would go
// through the raw value (a string) instead of the case.
extension TraceEvent.Name {
    /// The value of the `ev` field (``wireName``).
    public var rawValue: String { spelling.description }

    /// The name whose `ev` value is `rawValue`, if any.
    public init?(rawValue: String) {
        var copy = rawValue
        guard let name = copy.withUTF8({ Self.lookup($0) }) else { return nil }
        self = name
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
        case .retained: .retained
        case .mark: .mark
        case .dropped: .dropped
        case .sessionEnd: .end
        }
    }

    /// The value of the `ev` field for this kind.
    public var wireName: String { name.rawValue }
}
