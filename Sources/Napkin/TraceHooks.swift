import NapkinTrace

/// The tracer a router or interactor created now reports to, or nil.
///
/// Every trace hook of the framework goes through this function or through a
/// `tracer` property built like ``traced(_:)`` (an interactor lifecycle's
/// `trace`, likewise). Building with
/// `-Xswiftc -DNAPKIN_NO_TRACE_HOOKS` makes both constant `nil`, which
/// removes every hook at compile time: the baseline the framework benchmark
/// compares "tracing off" against (`Benchmarks/framework.sh`).
@inline(__always)
func tracerForNewObject() -> Tracer? {
    #if NAPKIN_NO_TRACE_HOOKS
    return nil
    #else
    return TraceContext.current()
    #endif
}

/// `stored`, or constant nil when hooks are compiled out.
@inline(__always)
func traced(_ stored: Tracer?) -> Tracer? {
    #if NAPKIN_NO_TRACE_HOOKS
    return nil
    #else
    return stored
    #endif
}

/// Where a traced interactor reports: the tracer and its id there.
///
/// A value read from an `InteractorLifecycle`'s binding (its tracer
/// reference and id, set once when it is created traced or adopted, never
/// changed); building one allocates nothing.
struct TraceBinding: Sendable {
    /// The session the interactor reports to.
    let tracer: Tracer
    /// The interactor's id in that session.
    let id: NodeID
}

/// The name the trace gives `type`, computed once per type: a router and its
/// interactor name their types every time one is created.
func traceName(of type: Any.Type) -> String {
    let key = ObjectIdentifier(type)
    if let name = typeNames.withLock({ $0[key] }) { return name }
    let name = String(describing: type)
    typeNames.withLock { $0[key] = name }
    return name
}

/// Type names already computed; only used while tracing is on.
private let typeNames = Locked<[ObjectIdentifier: String]>([:])
