import Foundation
import NapkinTrace

/// `check --repeat N -- COMMAND`: runs the command N times, each run with a
/// trace directory of its own, checks each run's traces, and reports each
/// distinct finding (``Finding/fingerprint``) once, with how many runs had it
/// (``FindingRate``): a leak that shows in 3 runs of 10 is flaky, not fixed.
struct RepeatedRuns {
    /// The most runs `--repeat` takes.
    static let maxRuns = 1_000

    /// One run of the command.
    struct Run {
        /// Its number, from 1.
        var number: Int
        /// The command's exit status.
        var status: Int32
        /// Its traces, checked (allow-list and baseline applied).
        var traces: [CheckedTrace]
    }

    /// The command run.
    let command: [String]
    /// How many runs `--repeat` asked for.
    let requested: Int
    /// The runs made, in order: fewer than asked when one was interrupted (Ctrl-C).
    private(set) var runs: [Run] = []

    /// Runs `command` `count` times, one after the other, checking each
    /// run's traces with `checker`. Run K writes into `run-K` (zero-padded)
    /// under `--trace-dir` (kept) or a temporary directory (removed). A run
    /// ended by SIGINT (Ctrl-C) ends the repetition; a run that wrote no
    /// trace is named on standard error and is a trace problem of the report.
    /// With `stdoutToStderr`, the command's standard output goes to standard error.
    /// Each run's traces go to `report` as well, when there is one.
    init(_ command: [String], count: Int, traceDirectory: String?, stdoutToStderr: Bool,
         checker: inout TraceChecker, report: CheckReportCollector?) throws(CommandFailure) {
        self.command = command
        requested = count
        let base: String
        var temporary: String?
        if let traceDirectory {
            base = try TraceFiles.prepareKeptDirectory(traceDirectory)
        } else {
            base = try TraceFiles.makeTemporaryDirectory()
            temporary = base
        }
        defer { if let temporary { try? FileManager.default.removeItem(atPath: temporary) } }
        // Every run's directory is ready (and empty) before the first run starts.
        let width = String(count).count
        var directories: [String] = []
        for number in 1...count {
            let digits = String(number)
            directories.append(try TraceFiles.prepareKeptDirectory(base + "/run-" + String(repeating: "0", count: width - digits.count) + digits))
        }
        for (index, directory) in directories.enumerated() {
            let run = try CommandRun(command, tracingInto: directory, temporary: temporary != nil, stdoutToStderr: stdoutToStderr,
                                     checker: &checker, report: report)
            if run.traces.isEmpty { Output.error("run \(index + 1): " + CommandRun.noTraceMessage(command)) }
            runs.append(Run(number: index + 1, status: run.status, traces: run.traces))
            if run.status == 128 + SIGINT { break }
        }
    }

    /// The first run whose command failed, if one did.
    var firstFailure: Run? { runs.first { $0.status != 0 } }

    /// Every trace of every run.
    var traces: [CheckedTrace] { runs.flatMap(\.traces) }

    /// `3 runs of rib-house --bug retain-cycle`: what the report names.
    var title: String {
        "\(runs.count) run\(runs.count == 1 ? "" : "s") of \(command.joined(separator: " "))"
    }

    /// The report on every run as one trace: each distinct finding once (as
    /// first seen) with its rate, the allowed and known findings once each,
    /// every run's trace problems (naming the run), and the counts summed.
    var report: CheckedTrace {
        var findings: [Finding] = [], allowed: [Finding] = [], known: [Finding] = []
        var rates: [String: FindingRate] = [:]
        var seen: Set<String> = []
        var problems: [String] = []
        var overview = TraceOverview(combining: title)
        var undecided = 0, notKept = 0
        for run in runs {
            if run.traces.isEmpty { problems.append("run \(run.number): the command wrote no trace") }
            var inThisRun: Set<String> = []
            for trace in run.traces {
                for finding in trace.findings {
                    let fingerprint = finding.fingerprint
                    var rate = rates[fingerprint] ?? FindingRate(runs: 0, of: runs.count, count: 0, firstRun: run.number)
                    if rate.count == 0 { findings.append(finding) }
                    rate.count += 1
                    if inThisRun.insert(fingerprint).inserted { rate.runs += 1 }
                    rates[fingerprint] = rate
                }
                allowed += trace.allowed.filter { seen.insert("allowed " + $0.fingerprint).inserted }
                known += trace.known.filter { seen.insert("known " + $0.fingerprint).inserted }
                problems += trace.traceProblems.map { "run \(run.number), \(trace.path): \($0)" }
                overview.add(trace.overview)
                undecided += trace.undecided
                notKept += trace.findingsNotKept
            }
        }
        if runs.allSatisfy({ $0.traces.isEmpty }) { overview.endedCleanly = false }
        return CheckedTrace(overview: overview, undecided: undecided, findings: findings, allowed: allowed, known: known,
                            findingsNotKept: notKept, traceProblems: problems, rates: rates)
    }

    /// The `repeat` object of `check --format json`.
    var json: CheckJSONReport.Repetition {
        CheckJSONReport.Repetition(runs: runs.count, requested: requested, failedRuns: runs.filter { $0.status != 0 }.count,
                                   statuses: runs.map(\.status))
    }

    /// `note: the command failed in 2 of 10 runs (first in run 4, exit status 3)`, and whether
    /// the repetition was interrupted; nil when there is nothing to say.
    var note: String? {
        var parts: [String] = []
        if let failure = firstFailure {
            let failed = runs.filter { $0.status != 0 }.count
            parts.append("the command failed in \(failed) of \(runs.count) run\(runs.count == 1 ? "" : "s") "
                         + "(first in run \(failure.number), exit status \(failure.status))")
        }
        if runs.count < requested { parts.append("interrupted after run \(runs.count) of \(requested)") }
        return parts.isEmpty ? nil : "note: " + parts.joined(separator: "; ")
    }
}

extension TraceOverview {
    /// The overview of several traces together, named `path`: no session,
    /// their events and dropped events summed, ended cleanly when all did,
    /// as long as the longest. Starts empty; ``add(_:)`` each trace.
    init(combining path: String) {
        self.init(unreadable: path)
        endedCleanly = true
    }

    /// Adds `other` to a combined overview.
    mutating func add(_ other: TraceOverview) {
        events += other.events
        endedCleanly = endedCleanly && other.endedCleanly
        let (sum, overflow) = droppedEvents.addingReportingOverflow(other.droppedEvents)
        droppedEvents = overflow ? .max : sum
        durationNs = max(durationNs, other.durationNs)
    }
}
