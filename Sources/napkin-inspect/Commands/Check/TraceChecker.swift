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
    /// `--jobs`: how many files are read and analysed at once.
    var jobs: Int = OrderedParallelWork.defaultJobs

    /// The results for `files`, in order. A file that cannot be read is named
    /// in one line on standard error and becomes a trace with a trace problem
    /// (a JSON reader must not see a clean run). With `namingProcesses`, a
    /// trace is named after the process that wrote it (its file is temporary).
    ///
    /// Up to ``jobs`` files are read and analysed at once, each on a thread of
    /// its own; their lines for standard error, the allow-list, the baseline
    /// and the results are then taken file by file in order, on this thread,
    /// so that everything written and returned is what one after the other gives.
    mutating func check(_ files: [String], namingProcesses: Bool) -> [CheckedTrace] {
        let options = analysis
        var checked: [CheckedTrace] = []
        checked.reserveCapacity(files.count)
        // `--jobs N` is a bound on busy threads: a trace is read ahead on a
        // thread of its own only when every trace analysed at once can have one.
        let readAhead = 2 * min(jobs, files.count) <= jobs
        OrderedParallelWork.run(count: files.count, jobs: jobs, work: {
            RawCheckedTrace(reading: files[$0], options: options, readAhead: readAhead)
        }) { _, analysed in
            for line in analysed.errorLines { Output.error(line) }
            var result = analysed.trace
            allowList.setApartAllowed(in: &result)
            baseline?.setApartKnown(in: &result)
            if namingProcesses, let session = result.overview.session { result.path = session.heading }
            checked.append(result)
        }
        return checked
    }
}
