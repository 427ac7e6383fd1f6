import NapkinTrace

/// Checks trace files as `check` does: reads and analyses each one, sets
/// apart the findings the allow-list allows, then those the baseline knows.
/// It remembers, over every file it checks, which allow-list entries and
/// baseline entries matched something.
struct TraceChecker {
    /// `--grace`, `--view-grace`, `--expect-teardown`.
    var analysis: TraceAnalyzer.Options
    /// `--allow`: applied first.
    var allowList: AllowList
    /// `--baseline`: applied to what the allow-list leaves.
    var baseline: Baseline?

    /// The results for `files`, in order. A file that cannot be read is named
    /// in one line on standard error and becomes a trace with a trace problem
    /// (a JSON reader must not see a clean run). With `namingProcesses`, a
    /// trace is named after the process that wrote it (its file is temporary).
    mutating func check(_ files: [String], namingProcesses: Bool) -> [CheckedTrace] {
        var checked: [CheckedTrace] = []
        for file in files {
            do {
                var result = try CheckedTrace(checking: file, options: analysis, allowList: &allowList)
                baseline?.setApartKnown(in: &result)
                if namingProcesses, let session = result.overview.session { result.path = session.heading }
                checked.append(result)
            } catch {
                Output.error(error.message)
                checked.append(CheckedTrace(unreadable: file, problem: error.message))
            }
        }
        return checked
    }
}
