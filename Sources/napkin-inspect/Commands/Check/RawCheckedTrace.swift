import NapkinTrace

/// One trace file read and analysed as `check` does, on whichever thread
/// (`check --jobs`): what `check` keeps of it (the findings and counts, never
/// the model), before the allow-list and the baseline set theirs apart, and
/// the lines its reading had for standard error, to be written in the order
/// of the files so that the output is the same on any number of threads.
///
/// Named for what sets it apart: a ``CheckedTrace`` still raw (before the allow-list and the baseline), its standard-error lines held back.
struct RawCheckedTrace: Sendable {
    /// The lines for standard error, in order (without the program name): the
    /// reader's diagnostics, the damage it found, and why a file is unusable.
    var errorLines: [String]
    /// The result, every finding in ``CheckedTrace/findings``; for a file that
    /// cannot be read as a trace, a trace with that one trace problem.
    var trace: CheckedTrace

    /// Reads and analyses the trace at `path` with `options`, reading a
    /// large file ahead on a second thread if `readAhead` (see ``TraceInput/readAhead``).
    init(reading path: String, options: TraceAnalyzer.Options, readAhead: Bool = true) {
        // The reader calls back on this thread only, before `init` returns.
        var lines: [String] = []
        do {
            trace = try CheckedTrace(analysing: path, options: options, readAhead: readAhead) { lines.append($0) }
        } catch {
            lines.append(error.message)
            trace = CheckedTrace(unreadable: path, problem: error.message)
        }
        errorLines = lines
    }
}
