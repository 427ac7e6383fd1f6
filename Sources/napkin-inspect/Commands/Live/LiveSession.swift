import Foundation
import NapkinTrace
import NapkinTraceReader
import Synchronization

/// One traced process as `live` shows it: its trace folded into an analysis
/// on the thread that reads it, and what the view needs to draw it.
///
/// Each source of events is a session of its own: a file, standard input, or
/// one connection to the listener (one process, or one part of a process's
/// trace after a reconnection). Sessions never share a model, so processes
/// never mix.
///
/// The reader thread folds each event as it arrives, with the lock held for
/// that one event; the view takes the same lock to draw (a frame costs what
/// fits on the screen). So the view never waits long, and the events never
/// queue up in memory: when the view is slow the reader waits, the socket or
/// pipe fills, and the app's trace writer drops and counts events rather than
/// block the app.
///
/// Named as one traced process's session in `live`; all of them are a ``LiveSessionList``, its tab a ``SessionTabBar`` item.
final class LiveSession: Sendable {
    // MARK: - State

    /// What the view reads, under the lock.
    struct State {
        /// The analysis of everything read so far.
        var analyzer: TraceAnalyzer
        /// Events folded so far.
        var events = 0
        /// What the view keeps for travelling back in time.
        var history = LiveHistory()
        /// Each population's live count over time, for the node details
        /// (one count a second, at most ``LiveSession/populationSamples``
        /// per population: older ones are merged two by two).
        var populations = PopulationSeries(capacity: LiveSession.populationSamples, width: 1_000_000_000)
        /// The input ended (the connection closed, the file or pipe ended).
        var finished = false
        /// Why the input is not a trace, if it is not.
        var rejection: TraceReadError?
        /// What the reader found about the trace itself, once the input ended.
        var integrity: TraceIntegrity?
        /// The last diagnostic, for the status line.
        var lastDiagnostic: TraceDiagnostic?
        /// Diagnostics not yet printed (off a terminal), at most ``maxDiagnostics`` in all.
        var unprinted: [TraceDiagnostic] = []
        /// Diagnostics seen.
        var diagnosticCount = 0
        /// When the last event arrived (monotonic ns), and the trace time then.
        var lastEventWall: UInt64 = 0
        var lastEventTrace: UInt64 = 0
        /// Set by every event: ``lastEventTrace`` is the analysis's time, not
        /// yet read (reading it copies the whole model, too dear per event;
        /// ``LiveSession/passTime(at:)`` reads it before it lets time pass).
        var lastEventTracePending = false
        /// Set by every change; cleared by the view when it draws.
        var changed = true
        /// Whether the final summary was printed (off a terminal).
        var summaryPrinted = false
        /// Why reading stopped before the input ended (the session grew past the inspector's bounds).
        var cut: String?
        /// Live nodes this session counts against ``LiveSessionList/nodeBudget``.
        var nodesHeld = 0
        /// Set when the listener closed the connection for sending nothing.
        var silent = false
        /// Called (on the reader thread) with the session record, once it is read.
        var onSessionRecord: (@Sendable (SessionInfo) -> Void)?
        /// What the page of `live --web` draws (nil without `--web`).
        var page: LivePageHistory?
    }

    /// Diagnostics printed per session, at most (off a terminal).
    static let maxDiagnostics = 10
    /// The most counts kept per population for the node details' series.
    static let populationSamples = 60

    /// The session's number, in order of arrival (1 for the first).
    let number: Int
    /// How messages name the source before the trace names its process:
    /// the file, `standard input`, the command line or the connection's peer.
    let sourceName: String
    /// Whether more events may come while the input is quiet (a followed
    /// file, a command, a connection), so that trace time passes with the
    /// wall clock.
    let isLive: Bool
    /// The shared bound on live nodes, for sessions from the network.
    private let budget: LiveSessionList?
    private let state: Locked<State>

    /// A session whose events are analysed with `analysis`; with `budget`,
    /// its live nodes count against the budget of all sessions.
    /// With `keepsPage`, it also keeps what the page of `live --web` draws (``LivePageHistory``).
    init(number: Int, sourceName: String, isLive: Bool, analysis: TraceAnalyzer.Options, budget: LiveSessionList? = nil,
         keepsPage: Bool = false) {
        self.number = number
        self.sourceName = sourceName
        self.isLive = isLive
        self.budget = budget
        var state = State(analyzer: TraceAnalyzer(options: analysis))
        if keepsPage { state.page = LivePageHistory(analysis) }
        self.state = Locked(state)
    }

    deinit {
        let held = state.withLock { $0.nodesHeld }
        if let budget, held != 0 { budget.nodesHeld.subtract(held, ordering: .relaxed) }
    }

    // MARK: - Reading the state

    /// How messages about the session name it: a connection by its process
    /// (once known), a file or standard input by its path.
    var messageName: String { budget != nil ? name : sourceName }

    /// Whether the input ended.
    var isFinished: Bool { withState { $0.finished } }

    /// Whether the input ended and was not a trace.
    var isRejected: Bool { withState { $0.rejection != nil } }

    /// Called (on the reader thread) with the session record, once it is read.
    var onSessionRecord: (@Sendable (SessionInfo) -> Void)? {
        get { withState { $0.onSessionRecord } }
        set { withState { $0.onSessionRecord = newValue } }
    }

    /// Runs `body` with the state locked.
    func withState<R>(_ body: (inout State) throws -> R) rethrows -> R {
        try state.withLock(body)
    }

    /// How the session is named: its process once the trace says, else its source.
    var name: String {
        withState { $0.analyzer.state.session?.heading ?? sourceName }
    }

    // MARK: - Folding the trace

    /// Folds one item of the reader (on the reader thread); returns `false`
    /// when the session must stop reading (it grew past the shared bound).
    @discardableResult
    func consume(_ item: TraceReader.Item, at now: UInt64) -> Bool {
        state.withLock { s in
            switch item {
            case .event(let event):
                if case .sessionStart(let info) = event.kind, let named = s.onSessionRecord {
                    named(info)
                    s.onSessionRecord = nil
                }
                if s.populations.isDue(at: event.time) { s.populations.advance(to: event.time, s.analyzer.populations) }
                s.page?.before(event, s.analyzer.populations)
                s.analyzer.consume(event)
                s.page?.after(event)
                if s.history.keep(event) { s.history.considerCheckpoint(s.analyzer) }
                s.events += 1
                s.lastEventWall = now
                s.lastEventTracePending = true
                if let budget {
                    let nodes = { state in state.nodeCount + state.taskCount }(s.analyzer.state)
                    if nodes != s.nodesHeld {
                        let total = budget.nodesHeld.add(nodes - s.nodesHeld, ordering: .relaxed).newValue
                        let grew = nodes > s.nodesHeld
                        s.nodesHeld = nodes
                        if grew && total > LiveSessionList.nodeBudget {
                            s.cut = "cut after \(s.events) events: the sessions hold more than "
                                + "\(NumberFormat.grouped(LiveSessionList.nodeBudget)) live routers, interactors and tasks in all; "
                                + "record this app to a file (NAPKIN_TRACE=DIR/) and use check"
                            s.changed = true
                            return false
                        }
                    }
                }
            case .diagnostic(let diagnostic):
                s.lastDiagnostic = diagnostic
                s.diagnosticCount += 1
                if s.diagnosticCount <= Self.maxDiagnostics { s.unprinted.append(diagnostic) }
            }
            s.changed = true
            return true
        }
    }

    /// The input ended: with `rejection` when it is not a trace; otherwise the
    /// whole trace is in and gets the verdict `check` would give it.
    func finish(rejection: TraceReadError?, integrity: TraceIntegrity?) {
        state.withLock { s in
            guard !s.finished else { return }
            s.finished = true
            if s.silent && s.events == 0 {
                s.rejection = TraceReadError(source: sourceName, message:
                    "sent no trace record within \(LiveSocketListener.handshakeSeconds) s; closed")
            } else if let rejection {
                s.rejection = rejection
            } else if s.events == 0 {
                // Nothing but unusable lines (a line too long, a failed read) is no trace either.
                let why = s.lastDiagnostic.map { " (\($0))" } ?? ""
                s.rejection = TraceReadError(source: sourceName, message: "no trace records\(why) (was NAPKIN_TRACE set?)")
            }
            s.integrity = integrity
            // A session cut short gets no verdict on the part it did not read.
            if s.rejection == nil && s.cut == nil { s.analyzer.finish() }
            s.changed = true
            s.page?.touch()
        }
    }

    /// Lets trace time pass while the app is quiet, so that due checks run:
    /// from the last event's time, by the wall-clock time since it arrived.
    /// Not after the input ended or the session's end record (nothing happens
    /// after it, and `check` would not let time pass either).
    func passTime(at now: UInt64) {
        guard isLive else { return }
        state.withLock { s in
            // `now` may be a little older than the last event's arrival (another thread took it).
            guard !s.finished, s.lastEventWall > 0, now > s.lastEventWall else { return }
            // A copy of the model, dropped before the analysis changes (else the change would copy its tables).
            let (ended, started, time) = { state in (state.ended, state.session != nil, state.time) }(s.analyzer.state)
            guard !ended, started else { return }
            if s.lastEventTracePending {
                // Only this lets time pass, and not since that event: the analysis's time is still the one of then.
                s.lastEventTrace = time
                s.lastEventTracePending = false
            }
            // Saturating: a trace's times may be close to 2^64.
            let (later, overflow) = s.lastEventTrace.addingReportingOverflow(now &- s.lastEventWall)
            let before = s.analyzer.findings.count
            s.analyzer.advance(to: overflow ? .max : later)
            if s.populations.isDue(at: later), !overflow { s.populations.advance(to: later, s.analyzer.populations) }
            if s.analyzer.findings.count != before {
                s.changed = true
                s.page?.touch()
            }
        }
    }

    // MARK: - The reader thread

    /// Reads `reader` to its end on a new thread, folding what it reads;
    /// `done` runs on that thread once the input ended.
    func startReading(_ box: ReaderBox, done: (@Sendable () -> Void)? = nil) {
        let thread = Thread { [self] in
            while let item = box.reader.next() {
                // After a rejection (not a trace) only the rejection is reported.
                if case .diagnostic = item, box.reader.rejection != nil { continue }
                if !consume(item, at: Platform.monotonicNanoseconds()) { break }
            }
            finish(rejection: box.reader.rejection, integrity: box.reader.integrity)
            done?()
        }
        thread.name = "napkin-inspect-reader"
        thread.start()
    }
}

/// Lets a reader cross to its thread. `@unchecked Sendable`: after the hand-off
/// only the reading thread calls `next()`; other threads call only `stop()`,
/// which is an atomic store.
final class ReaderBox: @unchecked Sendable {
    /// The reader handed over.
    let reader: TraceReader
    /// Boxes `reader` for the hand-off.
    init(_ reader: TraceReader) { self.reader = reader }
}
