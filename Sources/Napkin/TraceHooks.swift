import NapkinTrace

/// The tracer a router or interactor created now reports to, or nil.
///
/// Every trace hook of the framework goes through this function or through a
/// `tracer` property built like ``traced(_:)``. Building with
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
