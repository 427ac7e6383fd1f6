/// A sink that keeps nothing: the process-wide tracer's sink when the
/// in-app detector is on and no trace destination is set, so that events
/// still reach the detector through the tracer's writer thread. `package`
/// so that the benchmarks and tests run detection exactly as an app does.
package struct DiscardingSink: TraceSink {
    /// A sink that drops every batch.
    package init() {}
    /// Drops the batch.
    package func write(_ events: [TraceEvent]) throws {}
    /// Nothing to release.
    package func close() {}
}
