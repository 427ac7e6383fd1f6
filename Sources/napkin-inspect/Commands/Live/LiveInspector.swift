import NapkinTrace

/// `live` on a terminal: the full-screen view, redrawn in place until the
/// user quits; keys choose what it shows.
struct LiveInspector {
    /// The shortest time between two turns of the loop: at most 20 redraws a second.
    static let frameInterval: UInt64 = 50_000_000

    /// Draws the frames.
    let view: LiveView

    /// Runs until the user quits (q, Ctrl-C) or, for a single input that is
    /// not a trace, at once. Returns the session that was shown last, if any.
    func run(_ feed: LiveFeed) -> LiveSession? {
        LiveSignals.install()
        let terminal = TerminalSession()
        defer { terminal.restore() }
        var rate = RateMeter()
        var selected = 0
        var childStatus: Int32?
        var lastFrame: UInt64 = 0
        var lastShown: ObjectIdentifier?
        var shown: LiveSession?
        while !LiveSignals.quit.load(ordering: .relaxed) {
            let now = Platform.monotonicNanoseconds()
            let sessions = feed.sessions.all.filter { !$0.isRejected || feed.listener == nil }
            for session in sessions { session.passTime(at: now) }
            if let child = feed.child, childStatus == nil, let status = child.poll() { childStatus = status }
            while let key = terminal.readKey() {
                switch key {
                case UInt8(ascii: "q"), UInt8(ascii: "Q"), 3: LiveSignals.quit.store(true, ordering: .relaxed)
                case 9: selected += 1   // Tab: the next session
                default: break
                }
            }
            let session = sessions.isEmpty ? nil : sessions[selected % sessions.count]
            if let session, ObjectIdentifier(session) != lastShown {
                lastShown = ObjectIdentifier(session)
                rate = RateMeter()
            }
            shown = session
            // A single input that is not a trace: nothing to show.
            if feed.listener == nil, let session, session.isRejected { break }
            let dirty = session?.withState { s -> Bool in
                defer { s.changed = false }
                return s.changed
            } ?? false
            let resized = LiveSignals.resized.exchange(false, ordering: .relaxed)
            if dirty || resized || now &- lastFrame >= 1_000_000_000 {
                let lines: [String]
                if let session {
                    lines = session.withState { s in
                        rate.note(total: s.events, at: now)
                        return view.frame(s.analyzer, events: s.events, rate: rate.perSecond(at: now), finished: s.finished,
                                          childStatus: childStatus, pane: feed.pane, diagnostic: s.lastDiagnostic,
                                          size: TerminalInfo.size(1), sessions: (sessions.firstIndex { $0 === session } ?? 0, sessions.count))
                    }
                } else {
                    lines = view.waitingFrame(feed.name, childStatus: childStatus, pane: feed.pane, size: TerminalInfo.size(1))
                }
                terminal.draw(lines)
                lastFrame = now
            }
            let elapsed = Platform.monotonicNanoseconds() &- now
            if elapsed < Self.frameInterval { Platform.sleep(nanoseconds: Self.frameInterval - elapsed) }
        }
        return shown
    }
}
