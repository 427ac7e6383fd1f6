import NapkinTrace
import NapkinTraceReader

/// `live` off a terminal (a pipe, a file, CI): prints each session's final
/// tree and findings when its input ends, and the problems met on the way
/// on standard error.
///
/// Named for what it is: `live`'s loop off a terminal, which prints summaries (on a terminal: ``LiveScreenLoop``).
struct LiveSummaryLoop {
    /// How long the loop sleeps between looks at the sessions.
    static let tick: UInt64 = 20_000_000
    /// After the command exited, or the listener was told to stop, how long
    /// connections may stay open before they are read no more.
    static let drainAfterExit: UInt64 = 2_000_000_000
    /// Rejected connections reported on standard error, at most (the rest are counted).
    static let maxRejectionLines = 10

    /// Draws the summaries.
    let view: LiveView
    /// `--sessions N`: with `--listen`, stop once N sessions have ended.
    let sessionLimit: Int?

    /// Runs until the feed is done, printing as sessions end; returns the exit status.
    func run(_ feed: LiveFeed) -> Int32 {
        let listening = feed.listener != nil && feed.child == nil
        if listening { LiveSignals.install() }
        var printer = SummaryPrinter(view: view)
        var childStatus: Int32?
        var childExitedAt: UInt64 = 0
        while true {
            let now = Platform.monotonicNanoseconds()
            let sessions = feed.sessions.all
            // Trace time follows the trace only: off a terminal the verdict is
            // the one `check` gives the same trace, however fast or slowly (a
            // busy machine, a replayed file) its lines arrive.
            for session in sessions { printer.report(session) }
            for notice in feed.listener?.takeNotices() ?? [] { Output.error(notice) }
            if let child = feed.child, childStatus == nil, let status = child.poll() {
                childStatus = status
                childExitedAt = now
            }
            // A process that connected and exited before its connection was
            // accepted: accept it now, before deciding that nothing is left to read.
            if childStatus != nil { feed.listener?.acceptQueued() }
            let allFinished = feed.sessions.all.allSatisfy { $0.isFinished }
            if feed.child != nil {
                // The command's processes close their traces as they exit; one that
                // outlives it, or keeps its connection open, is given a moment.
                if childStatus != nil && ((allFinished && feed.listener?.openCount == 0) || now &- childExitedAt > Self.drainAfterExit) { break }
            } else if listening {
                if LiveSignals.quit.load(ordering: .relaxed) { break }
                if let sessionLimit, printer.summaries >= sessionLimit { break }
            } else if allFinished {
                break
            }
            Platform.sleep(nanoseconds: Self.tick)
        }
        // What is queued is accepted; what is open is read until it ends, for
        // at most `drainAfterExit`, then cut (the session says so on stderr).
        feed.finish(grace: Self.drainAfterExit)
        for session in feed.sessions.all { printer.report(session, final: true) }
        printer.reportRejections(feed.sessions, refused: feed.listener?.refusedCount ?? 0)

        if let child = feed.child {
            if feed.sessions.openedCount == 0 {
                Output.error("\(feed.name): no trace records (was NAPKIN_TRACE set?)")
            }
            let status = childStatus ?? child.wait()
            if status != 0 {
                Output.error("note: '\(feed.name)' exited with status \(status)")
                return status
            }
            return printer.unusable ? ExitStatus.unusable : ExitStatus.success
        }
        if listening { return ExitStatus.success }
        return printer.unusable ? ExitStatus.unusable : ExitStatus.success
    }
}

/// Prints what each session has to say, once: its diagnostics as they come
/// (at most ``LiveSession/maxDiagnostics``), then its summary (or why it is
/// not a trace) when it ends.
struct SummaryPrinter {
    /// Draws the summaries.
    let view: LiveView
    /// Summaries printed so far.
    private(set) var summaries = 0
    /// Whether a session was not a trace (for a single input: exit 2).
    private(set) var unusable = false
    private var rejectionLines = 0

    /// A printer drawing with `view`.
    init(view: LiveView) { self.view = view }

    /// Prints `session`'s new diagnostics and, once it ended (or at the
    /// `final` look, even if it did not), its summary.
    mutating func report(_ session: LiveSession, final: Bool = false) {
        let (diagnostics, done) = session.withState { s -> ([TraceDiagnostic], Bool) in
            defer { s.unprinted.removeAll() }
            return (s.unprinted, s.summaryPrinted || !(s.finished || final))
        }
        let name = session.messageName
        for diagnostic in diagnostics {
            Output.error("\(PrintableText.printable(name)): \(diagnostic.severity.rawValue): \(PrintableText.printable(diagnostic.description))")
        }
        guard !done else { return }
        let printed = session.withState { s -> Bool in
            defer { s.summaryPrinted = true }
            return s.summaryPrinted
        }
        guard !printed else { return }
        session.withState { s in
            if let rejection = s.rejection {
                unusable = true
                rejectionLines += 1
                if rejectionLines <= LiveSummaryLoop.maxRejectionLines { Output.error(PrintableText.printable(rejection.description)) }
                return
            }
            if summaries > 0 { Output.line() }
            summaries += 1
            let problems = s.integrity?.including(s.analyzer.state).problems ?? []
            view.printSummary(s.analyzer, eventCount: s.events, traceProblems: problems)
            if let cut = s.cut { Output.error("\(PrintableText.printable(session.name)): \(cut)") }
            if !s.finished { Output.error("\(PrintableText.printable(session.name)): still connected when the inspector stopped; its verdict is not final") }
        }
    }

    /// Says how many connections were not traces, beyond the ones reported, and how many were refused.
    mutating func reportRejections(_ sessions: LiveSessionList, refused: Int) {
        let (count, _) = sessions.rejections
        if count > LiveSummaryLoop.maxRejectionLines {
            Output.error("note: \(count) connections in all were not napkin traces and were closed")
        }
        if refused > 0 {
            Output.error("note: \(refused) connections were closed at once: \(LiveSocketListener.maxOpenConnections) were already open")
        }
    }
}
