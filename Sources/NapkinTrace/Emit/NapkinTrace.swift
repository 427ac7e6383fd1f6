/// Switches tracing on and annotates a running trace.
///
/// Tracing is off unless one of these turns it on:
/// - the environment variable `NAPKIN_TRACE` (`stdout`, `stderr`, `fd:N`, a
///   file path, a directory path ending in `/`, or an inspector listening at
///   `tcp:HOST:PORT` or `unix:PATH`), read once, the first time the process
///   creates a napkin router or interactor;
/// - ``bootstrap(_:bufferCapacity:)``, once, before the tree is built;
/// - a ``TraceRecorder`` scope, for tests.
///
/// Objects decide where they report when they are created, so switch tracing
/// on before building the tree. A normal process exit writes every queued
/// event and a session-end record; nothing needs to be called.
public enum NapkinTrace {
    /// Sends the whole process's trace to `sink`, like swift-log's
    /// `LoggingSystem.bootstrap`. Call it once, before building the napkin tree;
    /// it takes precedence over `NAPKIN_TRACE`. A second call is a programming
    /// error and stops the process.
    ///
    /// - Parameters:
    ///   - sink: where events go, e.g. ``NDJSONTraceSink/standardError``.
    ///   - bufferCapacity: how many events may wait for the writer before new
    ///     ones are dropped (and counted).
    public static func bootstrap(_ sink: some TraceSink, bufferCapacity: Int = 65_536) {
        TraceContext.bootstrap { signposts in Tracer(sink: sink, capacity: bufferCapacity, signposts: signposts) }
    }

    /// Whether objects created now by this task would be traced.
    public static var isEnabled: Bool {
        TraceContext.current() != nil
    }

    /// Writes a free-text annotation into the trace (e.g. `"user tapped login"`),
    /// shown by `napkin-inspect timeline` and `stats`. Costs one atomic load when tracing is off.
    public static func mark(_ text: String) {
        TraceContext.current()?.emit(.mark(text: text))
    }

    /// Blocks until every event queued so far by the process-wide tracer is written.
    /// Not needed before exit; useful before handing the trace file to another tool.
    public static func flush() {
        TraceContext.globalTracer?.flush()
    }

    /// Ends the process-wide trace now: writes a session-end record and closes
    /// the sink. Later events are ignored. Normal exit does this by itself.
    public static func shutdown() {
        TraceContext.globalTracer?.shutdown(reason: "shutdown")
    }
}
