import Dispatch
import Foundation

/// Reports the detector's findings: once per fingerprint, through a bounded
/// queue, on a thread of its own, so that a handler that throws, blocks or
/// is slow (or a standard error nobody reads) holds up neither the app nor
/// the analysis. What does not fit is counted (``NapkinDetector/Statistics``).
package final class FindingDelivery: Sendable {
    /// Findings waiting for the reporting thread, at most.
    static let queueCapacity = 64
    /// Findings reported at once, at most, then ``refillPerSecond`` more each second.
    static let burst = 50
    static let refillPerSecond = 10
    /// Fingerprints remembered, at most (the code's distinct bugs; beyond
    /// it, new ones are counted as dropped).
    static let maxFingerprints = 10_000

    private let settings: DetectorSettings
    private let state = Locked(State())
    private let wake = DispatchSemaphore(value: 0)
    /// The tracer whose objects a search looks at (weak: the tracer owns the detector).
    private let tracer = Locked<WeakReference?>(nil)

    /// A finding to report, and the context of its retainer search, if one runs.
    package struct Item: Sendable {
        var finding: Finding
        var search: RetainerSearch.Context? = nil
        /// A repeat of a reported fingerprint: searched and recorded in the
        /// trace (every leaked object gets its path there), not reported.
        var searchOnly = false

        /// A finding to report, searched when `search` is given.
        package init(finding: Finding, search: RetainerSearch.Context? = nil) {
            self.finding = finding
            self.search = search
        }
    }

    /// Repeats searched (``Item/searchOnly``) per process, at most.
    static let maxRepeatSearches = 100

    private struct State {
        var queue: [Item] = []
        var repeatSearches = 0
        var fingerprints: Set<String> = []
        var statistics = NapkinDetector.Statistics()
        var tokens = FindingDelivery.burst
        var refilledAt = MonotonicClock.now()
        /// A finding is being reported (the handler may be running).
        var busy = false
        var thrown = false

        /// Adds the tokens earned since the last refill: one every
        /// 1/``FindingDelivery/refillPerSecond`` s, up to the burst.
        mutating func refill() {
            let period = 1_000_000_000 / UInt64(FindingDelivery.refillPerSecond)
            let earned = (MonotonicClock.now() &- refilledAt) / period
            guard earned > 0 else { return }
            tokens = Int(min(UInt64(FindingDelivery.burst), UInt64(tokens) + earned))
            refilledAt &+= earned * period
        }
    }

    package init(settings: DetectorSettings) {
        self.settings = settings
        let thread = Thread { [self] in self.run() }
        thread.name = "napkin-detector"
        thread.qualityOfService = .utility
        thread.start()
    }

    /// Searches in `tracer`'s live objects and records there from now on.
    package func bind(to tracer: Tracer) {
        self.tracer.withLock { $0 = WeakReference(tracer) }
    }

    /// What was reported and counted so far.
    package var statistics: NapkinDetector.Statistics {
        state.withLock { $0.statistics }
    }

    /// Queues `findings` (new fingerprints only); never waits.
    package func report(_ findings: [Item]) {
        guard !findings.isEmpty else { return }
        let queued = state.withLock { s -> Bool in
            s.refill()
            var queued = false
            for item in findings {
                let finding = item.finding
                s.statistics.findings += 1
                let fingerprint = finding.fingerprint
                if s.fingerprints.contains(fingerprint) {
                    s.statistics.repeats += 1
                    if item.search != nil && s.repeatSearches < Self.maxRepeatSearches && s.queue.count < Self.queueCapacity {
                        s.repeatSearches += 1
                        var again = item
                        again.searchOnly = true
                        s.queue.append(again)
                        queued = true
                    }
                } else if s.fingerprints.count >= Self.maxFingerprints || s.queue.count >= Self.queueCapacity || s.tokens == 0 {
                    s.statistics.dropped += 1
                } else {
                    s.fingerprints.insert(fingerprint)
                    s.tokens -= 1
                    s.queue.append(item)
                    queued = true
                }
            }
            return queued
        }
        if queued { wake.signal() }
    }

    /// Waits until every queued finding is reported, at most `timeoutMS`
    /// (the process is exiting; a blocked handler is left behind). Writes a
    /// line with the count of findings not reported, if any.
    package func drain(timeoutMS: Int) {
        waitForReports(timeoutMS: timeoutMS)
        let (statistics, left) = state.withLock { ($0.statistics, $0.queue.count) }
        let missed = statistics.dropped + left
        if missed > 0 && settings.mode != .quiet {
            DeveloperNotice.report("napkin detect: \(missed) finding(s) not reported (reporting fell behind; see NapkinDetector.statistics)")
        }
    }

    /// Waits until every queued finding is reported, at most `timeoutMS`
    /// (the app goes to the background, where it may be suspended or
    /// killed; nothing is written about what is left: the app may run on).
    package func waitForReports(timeoutMS: Int) {
        let deadline = MonotonicClock.now() &+ UInt64(max(timeoutMS, 0)) * 1_000_000
        while state.withLock({ !$0.queue.isEmpty || $0.busy }) && MonotonicClock.now() < deadline {
            Platform.sleep(microseconds: 2_000)
        }
    }

    /// Writes `line` on standard error unless the mode is quiet (after the
    /// reports: what the end of a session left undecided).
    package func note(_ line: String) {
        if settings.mode != .quiet { DeveloperNotice.report(line) }
    }

    // MARK: - The reporting thread

    private func run() {
        while true {
            wake.wait()
            while let item = next() {
                report(item)
                state.withLock { s in
                    s.busy = false
                    if !item.searchOnly { s.statistics.reported += 1 }
                }
            }
        }
    }

    /// Reports `item` in two steps: the finding as soon as it is decided
    /// (its line, the handler), then, when a search was asked for, what
    /// holds its object (a second line with the same fingerprint, the
    /// handler again with ``Finding/retainers`` set, the trace's
    /// `retained` record). A long search never holds back the first line;
    /// an exit cuts it short (``SearchCutShort``), and the second line
    /// says so. In assert mode the trap comes last, after the trace has
    /// what was found.
    private func report(_ item: Item) {
        if !item.searchOnly { deliver(item.finding) }
        if let explained = explained(item), !item.searchOnly { deliver(explained, path: true) }
        if !item.searchOnly, settings.mode == .assert {
            (tracer.withLock { $0?.load() } as? Tracer)?.flush()
            assertionFailure(Self.line(item.finding))
        }
    }

    /// The finding with what holds its object, when a search was asked
    /// for and the tracer still keeps its objects (nil otherwise); the
    /// result goes into the trace too.
    private func explained(_ item: Item) -> Finding? {
        var finding = item.finding
        guard let context = item.search,
              let tracer = tracer.withLock({ $0?.load() }) as? Tracer,
              tracer.liveObjects.isEnabled else { return nil }
        guard let found = RetainerSearch.runWaiting(target: finding.id, in: tracer.liveObjects, context: context) else { return nil }
        finding.retainers = found
        tracer.recordRetainers(found, of: finding.id)
        return finding
    }

    private func next() -> Item? {
        state.withLock { s in
            guard !s.queue.isEmpty else { return nil }
            s.busy = true
            return s.queue.removeFirst()
        }
    }

    /// Writes the finding's line (or, with `path`, its retainers' line)
    /// unless quiet, and calls the handler.
    private func deliver(_ finding: Finding, path: Bool = false) {
        switch settings.mode {
        case .log, .assert:
            DeveloperNotice.report(path ? Self.pathLine(finding) : Self.line(finding))
        case .quiet:
            break
        }
        guard let handler = settings.handler else { return }
        do {
            try handler(finding)
        } catch {
            let first = state.withLock { s -> Bool in
                s.statistics.handlerErrors += 1
                defer { s.thrown = true }
                return !s.thrown
            }
            if first { DeveloperNotice.report("napkin detect: the handler threw \(error); later errors are only counted") }
        }
    }

    /// What holds the finding's object, in the line that follows the
    /// finding's own (same fingerprint):
    ///
    ///     napkin detect: LoggedInRouter#6 retained by: LoggedInRouter#6.interactor → LoggedInInteractor#5.retainedRouter (suspect) → LoggedInRouter#6 (cycle) (1 of 1 strong reference found) [fingerprint 3f0c…]
    ///
    /// Without a path: `napkin detect: LoggedInRouter#6 no retainer path (0
    /// strong references found): Not searched: the process was exiting, …`.
    package static func pathLine(_ finding: Finding) -> String {
        let what: String = switch finding.retainers {
        case let retainers? where !retainers.paths.isEmpty: retainers.oneLine
        case let retainers?: "no retainer path (\(retainers.tally))" + (retainers.note.map { ": " + $0 } ?? "")
        case nil: "no retainer path (not searched)"
        }
        return "napkin detect: \(finding.subjectName) \(what) [fingerprint \(finding.fingerprint)]"
    }

    /// The finding in one line: rule, subject, explanation, code, fingerprint.
    ///
    ///     napkin detect: error[not-deallocated] LoggedInRouter#7: … at RibHouse/LoggedInRouter.swift:57 (attached); retained by: … (1 of 1 strong reference found) [fingerprint 3f0c…]
    package static func line(_ finding: Finding) -> String {
        var text = "napkin detect: \(finding.severity.rawValue)[\(finding.rule.rawValue)] \(finding.subjectName): \(finding.message)"
        if !finding.locations.isEmpty {
            text += " at " + finding.locations.map(\.description).joined(separator: ", ")
        }
        if let retainers = finding.retainers { text += "; " + retainers.oneLine }
        return text + " [fingerprint \(finding.fingerprint)]"
    }
}
