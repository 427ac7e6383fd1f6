/// The in-app detector: a ``TraceAnalyzer`` fed by the process-wide
/// tracer's writer thread, batch by batch, that decides its grace-period
/// checks as the app's time passes and hands new findings to a
/// ``FindingDelivery``.
///
/// Events decide checks the way `check` decides them on a trace (the
/// analyzer's rules, main-actor progress included). What an event cannot
/// tell, the app idle after a detach, an ``AppProgressProbe`` tells: while a
/// check is due, two rounds of probe jobs; once both ran, and one more batch
/// holds every event emitted before, the checks due at the first round's
/// start are decided. A main actor blocked for seconds finishes the probe
/// only when it runs again, after what was queued before it, so a release
/// it owed is seen in time.
///
/// Memory: the analyzer's (the live nodes, see ``TraceAnalyzer``); findings
/// are taken from it as they come (``TraceAnalyzer/takeFindings()``).
package final class Detector: Sendable {
    private let delivery: FindingDelivery
    private let probe = AppProgressProbe()
    private let state: Locked<State>
    /// Whether findings about objects still alive search what holds them.
    package let searchesRetainers: Bool

    private struct State {
        var analyzer: TraceAnalyzer
        /// The last sequence number consumed (events are consumed once).
        var lastSeq: UInt64 = 0
        var probing = Probing.idle
        /// The session ended (``Detector/sessionEnded(stoppedAt:timeoutMS:)``):
        /// later events of it are not the app's (a new session's start is).
        var ended = false

        /// Moves the probe along; decides the checks it proved due.
        mutating func step(now: UInt64, probe: AppProgressProbe) {
            switch probing {
            case .idle:
                if analyzer.hasChecksDue(by: now) { probing = .first(round: probe.start(), since: now) }
            case .first(let round, let since):
                if probe.hasFinished(round) { probing = .second(round: probe.start(), since: since) }
            case .second(let round, let since):
                if probe.hasFinished(round) { probing = .settled(since: since) }
            case .settled(let since):
                analyzer.advance(to: since)
                probing = .idle
            }
        }

        /// Ends the analysis of the current session: what only the end
        /// decides. With `stoppedAt`, the app's time ran until then: the
        /// checks due by then are decided, the later ones are undecided.
        mutating func finishSession(stoppedAt: UInt64? = nil) -> (found: [Finding], undecided: Undecided?) {
            guard analyzer.sessionCount > 0 else { return ([], nil) }
            if let stoppedAt { analyzer.advance(to: stoppedAt) }
            analyzer.finish()
            let found = analyzer.takeFindings()
            let undecided = analyzer.undecided > 0
                ? Undecided(count: analyzer.undecided, named: analyzer.undecidedChecks) : nil
            analyzer = TraceAnalyzer(options: analyzer.options)
            probing = .idle
            return (found, undecided)
        }
    }

    /// The checks a session's end left undecided: how many, and the first
    /// few by rule and subject.
    struct Undecided {
        var count: Int
        var named: [String]

        /// `napkin detect: 2 checks undecided: the process ended less than a
        /// grace period after their event (not-deallocated LoggedInRouter#6, …)`.
        var line: String {
            var text = "napkin detect: \(count) \(count == 1 ? "check" : "checks") undecided: "
                + "the process ended less than a grace period after \(count == 1 ? "its" : "their") event"
            guard !named.isEmpty else { return text }
            text += " (" + named.joined(separator: ", ")
            if count > named.count { text += ", and \(count - named.count) more" }
            return text + ")"
        }
    }

    /// Where the probe is.
    private enum Probing {
        /// No check due, or none waiting for the app.
        case idle
        /// The first round, started at `since` (trace time), is running.
        case first(round: UInt64, since: UInt64)
        /// The second round is running.
        case second(round: UInt64, since: UInt64)
        /// Both ran; the checks due at `since` are decided after the next batch.
        case settled(since: UInt64)
    }

    /// A detector for `settings`, with its reporting thread.
    package init(settings: DetectorSettings) {
        self.delivery = FindingDelivery(settings: settings)
        self.state = Locked(State(analyzer: TraceAnalyzer(options: settings.options)))
        self.searchesRetainers = settings.retainers
    }

    /// Feeds on `tracer` from now on: its retainer searches look in its
    /// live objects and are recorded in its trace.
    package func bind(to tracer: Tracer) {
        delivery.bind(to: tracer)
    }

    /// What was found and reported so far.
    package var statistics: NapkinDetector.Statistics { delivery.statistics }

    // MARK: - Fed by the tracer

    /// Folds a batch (oldest first; events already seen are skipped), then
    /// lets the app's time decide what it can. `now` is trace time.
    package func consume(_ events: [TraceEvent], now: UInt64) {
        let searches = searchesRetainers
        let found = state.withLock { s -> [FindingDelivery.Item] in
            var found: [FindingDelivery.Item] = []
            for event in events {
                if case .sessionStart = event.kind {
                    found += s.finishSession().found.map { FindingDelivery.Item(finding: $0) }
                    s.lastSeq = 0
                    s.ended = false
                } else if event.seq <= s.lastSeq || s.ended {
                    continue
                }
                s.lastSeq = event.seq
                s.analyzer.consume(event)
            }
            s.step(now: now, probe: probe)
            // What holds an object is searched on the reporting thread, with
            // the trace's state as it is when the finding is established.
            for finding in s.analyzer.takeFindings() {
                let context = searches && RetainerSearch.asks(finding)
                    ? RetainerSearch.Context(state: s.analyzer.state, target: finding.id) : nil
                found.append(FindingDelivery.Item(finding: finding, search: context))
            }
            return found
        }
        delivery.report(found)
    }

    /// How often the writer calls while the probe runs (ns): each of its
    /// three steps waits for the next call, so the flush interval (50 ms)
    /// would put 150 ms between a check's deadline and its finding.
    static let probePollNS: UInt64 = 5_000_000

    /// How soon (ns from `now`, trace time) the writer should call
    /// ``idle(now:)`` again, when that is sooner than its interval: at the
    /// next check's deadline, and every ``probePollNS`` while the probe runs.
    /// Nil when no check waits.
    package func nextCall(now: UInt64) -> UInt64? {
        state.withLock { s in
            switch s.probing {
            case .idle:
                guard let due = s.analyzer.nextDeadline else { return nil }
                return due > now ? due - now : Self.probePollNS
            case .first, .second, .settled:
                return Self.probePollNS
            }
        }
    }

    /// A flush interval passed with no event: the app's time still passes.
    package func idle(now: UInt64) {
        consume([], now: now)
    }

    /// Whether the app's time can still decide something (a check waits for
    /// its deadline or the probe runs): the writer keeps calling ``idle(now:)``.
    package var isWaitingForTime: Bool {
        state.withLock { s in
            if case .idle = s.probing { return s.analyzer.pendingChecks > 0 }
            return true
        }
    }

    /// The app goes to the background (or is told it will terminate): the
    /// findings already decided are reported (log, handler, trace) before
    /// the app may be suspended, waiting at most `timeoutMS`. Checks not yet
    /// due stay pending: the app may come back; an exit that follows ends
    /// the session (``sessionEnded(stoppedAt:timeoutMS:)``).
    package func flushReports(timeoutMS: Int) {
        delivery.waitForReports(timeoutMS: timeoutMS)
    }

    /// The session ended at trace time `stoppedAt` (the process exits, the
    /// app ended tracing, or a new tracer replaced this one; nil: at its
    /// last event, for a replayed trace): the app's time ran until then, so the checks due by then are decided (without the
    /// probe: the app no longer runs) and reported, searches included (an
    /// exit cuts them short first, ``SearchCutShort``), and the checks it
    /// cut short are reported as undecided, in one line. Waits at most
    /// `timeoutMS` for the reports to go out.
    package func sessionEnded(stoppedAt: UInt64? = nil, timeoutMS: Int) {
        let searches = searchesRetainers
        let (found, undecided) = state.withLock { s -> ([FindingDelivery.Item], Undecided?) in
            guard !s.ended else { return ([], nil) }
            s.ended = true
            let state = s.analyzer.state
            let (found, undecided) = s.finishSession(stoppedAt: stoppedAt)
            let items = found.map { finding in
                FindingDelivery.Item(finding: finding, search: searches && RetainerSearch.asks(finding)
                                     ? RetainerSearch.Context(state: state, target: finding.id) : nil)
            }
            return (items, undecided)
        }
        delivery.report(found)
        delivery.drain(timeoutMS: timeoutMS)
        if let undecided { delivery.note(undecided.line) }
    }
}
