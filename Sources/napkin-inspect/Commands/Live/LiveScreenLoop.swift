import NapkinTrace

/// `live` on a terminal: the full-screen inspector, redrawn in place until
/// the user quits. Keys (``KeyDecoder`` → ``InspectorState``) select a node
/// and open its details, pause and travel back in time through the
/// session's ``LiveHistory``, filter the tree, and switch between sessions;
/// the key map is ``InspectorKeys`` (docs/live.md).
///
/// Each turn of the loop reads the keys, then draws a frame when something
/// changed. Live, a frame is drawn under the session's lock from its
/// analysis (it costs what fits on the screen, so the reader thread waits
/// little). Paused, the moment is rebuilt once from the history (the replay
/// runs off the lock) and drawn from the copy in hand; the reader threads go
/// on folding the live analysis meanwhile, so nothing is lost.
///
/// Named for what it is: `live`'s loop on a terminal, which draws the screen (its state: ``InspectorState``; off a terminal: ``LiveSummaryLoop``).
struct LiveScreenLoop {
    /// The shortest time between two turns of the loop: at most 20 redraws a second.
    static let frameInterval: UInt64 = 50_000_000

    /// Draws the frames.
    let view: LiveView

    /// What the loop keeps from one turn to the next.
    private struct LoopState {
        /// What the user sees and where they are.
        var inspector = InspectorState()
        /// The keyboard's bytes to keys.
        var decoder = KeyDecoder()
        /// The paused moments in hand.
        var moments = MomentCache()
        /// The events about the node whose details are open.
        var log: NodeLog?
        /// The events per second of the session shown.
        var rate = RateMeter()
        /// The session shown.
        var shown: LiveSession?
        /// The command's exit status, once it exited.
        var childStatus: Int32?
        /// When the last frame was drawn (monotonic ns).
        var lastFrame: UInt64 = 0
    }

    /// Runs until the user quits (q, Ctrl-C) or, for a single input that is
    /// not a trace, at once. Returns the session that was shown last, if any.
    func run(_ feed: LiveFeed) -> LiveSession? {
        LiveSignals.install()
        let terminal = TerminalSession()
        defer { terminal.restore() }
        var loop = LoopState()
        while !LiveSignals.quit.load(ordering: .relaxed) {
            let now = Platform.monotonicNanoseconds()
            // Sessions rejected as not a trace are not listed (a single input's rejection ends the view).
            let sessions = feed.sessions.all.filter { !$0.isRejected || feed.listener == nil }
            for session in sessions { session.passTime(at: now) }
            if let child = feed.child, loop.childStatus == nil, let status = child.poll() { loop.childStatus = status }

            // Keep showing the same session when older ones are forgotten.
            if let shown = loop.shown, let index = sessions.firstIndex(where: { $0 === shown }) { loop.inspector.session = index }
            let keys = loop.decoder.keys(terminal.readBytes())
            var travels: [InspectorState.Travel] = []
            for key in keys {
                if let travel = loop.inspector.handle(key, sessionCount: sessions.count) { travels.append(travel) }
            }
            if loop.inspector.quit { LiveSignals.quit.store(true, ordering: .relaxed) }
            loop.inspector.session = min(loop.inspector.session, max(0, sessions.count - 1))
            let session = sessions.isEmpty ? nil : sessions[loop.inspector.session]
            if session !== loop.shown {
                loop.rate = RateMeter()
                loop.log = nil
            }
            loop.shown = session
            // A single input that is not a trace: nothing to show.
            if feed.listener == nil, let session, session.isRejected { break }

            if let session {
                for travel in travels { self.travel(travel, in: session, &loop) }
                if !loop.inspector.isPaused { loop.moments.clear() }
                rebuildMoment(of: session, &loop)
            }
            let dirty = session?.withState { s -> Bool in
                defer { s.changed = false }
                return s.changed
            } ?? false
            let resized = LiveSignals.resized.exchange(false, ordering: .relaxed)
            if (dirty && !loop.inspector.isPaused) || resized || !keys.isEmpty || now &- loop.lastFrame >= 1_000_000_000 {
                let size = TerminalInfo.size(1)
                var lines = session.map { frame(of: $0, sessions: sessions, pane: feed.pane, size: size, now: now, &loop) }
                    ?? view.waitingFrame(feed.name, childStatus: loop.childStatus, pane: feed.pane, size: size)
                if let session, loop.inspector.details != nil, loop.log == nil {
                    // Enter opened the details in this frame (once it settled the selection): draw them with their history.
                    lines = frame(of: session, sessions: sessions, pane: feed.pane, size: size, now: now, &loop)
                }
                terminal.draw(lines)
                loop.lastFrame = now
            }
            let elapsed = Platform.monotonicNanoseconds() &- now
            if elapsed < Self.frameInterval { Platform.sleep(nanoseconds: Self.frameInterval - elapsed) }
        }
        return loop.shown
    }

    /// Applies a time-travel key to `session`: pausing first keeps the live
    /// analysis as it is on screen.
    private func travel(_ travel: InspectorState.Travel, in session: LiveSession, _ loop: inout LoopState) {
        session.withState { s in
            if !loop.inspector.isPaused || travel == .pause {
                loop.moments.keepSnapshot(s.analyzer, index: s.events, session: ObjectIdentifier(session))
            }
            loop.inspector.travel(travel, history: s.history, newest: s.events)
        }
    }

    /// Makes sure the paused moment is in hand: rebuilt from the session's
    /// history (the replay runs off the lock); a moment the history no longer
    /// reaches moves to the oldest one it does (or, with no history, to the newest).
    private func rebuildMoment(of session: LiveSession, _ loop: inout LoopState) {
        guard case .paused(var index) = loop.inspector.moment else { return }
        let id = ObjectIdentifier(session)
        for _ in 0..<2 {
            if loop.moments.analyzer(at: index, session: id) != nil { return }
            let start = loop.moments.start(before: index, session: id)
            let (replay, fallback) = session.withState { s -> (LiveHistory.Replay?, Int?) in
                if let replay = s.history.replay(to: index, from: start) { return (replay, nil) }
                if let reachable = s.history.reachable { return (nil, min(max(index, reachable.lowerBound), reachable.upperBound)) }
                loop.moments.keepSnapshot(s.analyzer, index: s.events, session: id)
                return (nil, s.events)
            }
            if let replay {
                loop.moments.keepRebuilt(replay.run(), index: index, session: id)
                return
            }
            index = fallback ?? index
            loop.inspector.moment = .paused(index)
        }
    }

    /// One frame of `session`, the one shown among `sessions`, with the command's output `pane`.
    private func frame(of session: LiveSession, sessions: [LiveSession], pane: OutputPane?, size: (rows: Int, columns: Int), now: UInt64,
                       _ loop: inout LoopState) -> [String] {
        let bar = sessions.count > 1 ? sessions.map(Self.barItem) : []
        let id = ObjectIdentifier(session)
        var paused: TraceAnalyzer?
        var pausedIndex = 0
        if case .paused(let index) = loop.inspector.moment {
            paused = loop.moments.analyzer(at: index, session: id)
            pausedIndex = index
        }
        var matches: FilterMatches?
        if let paused, let filter = loop.inspector.nodeFilter { matches = FilterMatches(paused.state, filter: filter) }
        return session.withState { s in
            loop.rate.note(total: s.events, at: now)
            var facts = LiveFrame(analyzer: paused ?? s.analyzer)
            facts.events = s.events
            facts.rate = loop.rate.perSecond(at: now)
            facts.finished = s.finished
            facts.childStatus = loop.childStatus
            facts.pane = pane
            facts.diagnostic = s.lastDiagnostic
            facts.size = size
            facts.sessions = bar
            facts.sessionIndex = loop.inspector.session
            facts.newestTime = s.analyzer.state.time
            facts.newestSeq = s.analyzer.state.lastSeq
            if let lowest = s.history.reachable?.lowerBound, let event = s.history.lastEvent(atMoment: lowest) {
                facts.reach = LiveFrame.Reach(seq: event.seq, time: event.time, span: facts.newestTime &- min(facts.newestTime, event.time))
            }
            if paused == nil, let filter = loop.inspector.nodeFilter { matches = FilterMatches(s.analyzer.state, filter: filter) }
            facts.matches = matches
            if let pin = loop.inspector.details {
                if loop.log?.node != pin.id || loop.log?.session != id {
                    loop.log = NodeLog(node: pin.id, interactor: facts.analyzer.state[pin.id]?.interactor, session: id)
                }
                loop.log?.update(s.history, to: paused == nil ? s.events : pausedIndex)
                facts.log = loop.log
                facts.population = Self.population(of: pin.id, shown: facts.analyzer, series: s.populations, live: s.analyzer)
            } else {
                loop.log = nil
            }
            return view.frame(facts, inspector: &loop.inspector)
        }
    }

    /// The live count over time of the type of node `id` as `shown` (the
    /// moment on screen) knows it, from the session's `series` (indexed as
    /// `live`'s populations), up to the moment shown.
    static func population(of id: NodeID, shown: TraceAnalyzer, series: PopulationSeries, live: TraceAnalyzer) -> PopulationSeries.Points? {
        guard let key = NodeDetails.populationKey(of: id, in: shown.state), let index = live.populations.index(of: key) else { return nil }
        return series.points(of: index, until: shown.state.time, last: shown.populations[key]?.live ?? 0)
    }

    /// What the session bar says about `session` (under its lock).
    private static func barItem(_ session: LiveSession) -> SessionTabBar.Item {
        session.withState { s in
            SessionTabBar.Item(name: s.analyzer.state.session?.heading ?? session.sourceName, ended: s.finished,
                            findings: s.analyzer.findings.count + s.analyzer.findingsNotKept)
        }
    }
}
