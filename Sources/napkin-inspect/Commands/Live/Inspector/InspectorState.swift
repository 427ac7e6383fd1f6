import NapkinTrace

/// What the live inspector shows and where the user is in it: the moment
/// (live or paused), the selected row, the scroll, the filter, the open
/// panel and the session. A value that keys change (``handle(_:sessionCount:)``)
/// and frames read and settle (``TreeWindow``), so that every key's effect
/// can be tested without a terminal.
struct InspectorState {
    // MARK: - Moments, travels and pins

    /// The moment shown.
    enum Moment: Equatable, Sendable {
        /// The newest state, as events arrive.
        case live
        /// Paused at moment `n`: the analysis after the session's first `n` events.
        case paused(Int)
    }

    /// A time-travel step a key asks for; the loop resolves it against the
    /// session's history (``travel(_:history:newest:)``).
    enum Travel: Equatable, Sendable {
        /// Freeze the newest moment.
        case pause
        /// One event back (-1) or forward (+1); pauses first when live.
        case step(Int)
        /// `n` seconds of trace time back (negative) or forward; pauses first when live.
        case jump(seconds: Int)
    }

    /// A node whose details are open, pinned by id (it stays the subject as
    /// the tree moves, and after it is gone).
    struct Pin: Equatable, Sendable {
        /// The node's id.
        var id: NodeID
        /// `Type#id`, as it was when the panel was opened.
        var name: String
    }

    // MARK: - State

    /// The moment shown.
    var moment: Moment = .live
    /// The selected row of the tree (its index among all rows); `Int.max`
    /// asks the next frame for the last row.
    var cursor = 0
    /// The first row of the tree on screen.
    var scroll = 0
    /// The node on the selected row at the last frame.
    var selected: Pin?
    /// Whether a key moved the cursor since the last frame (then the frame
    /// follows the cursor, not the selected node).
    var cursorMoved = false
    /// The direction of the last move (+1 down, -1 up), to step over headings.
    var direction = 1
    /// Tree rows on screen at the last frame: what PgUp and PgDn move by.
    var pageSize = 10
    /// The filter text (`/`); empty for none.
    var filter = ""
    /// Whether the filter prompt is open on the status line.
    var editingFilter = false
    /// The node whose details are open, if any.
    var details: Pin?
    /// Set by Enter: the next frame opens the details of the node it settles
    /// the selection on (keys read in one batch may have moved the cursor).
    var detailsRequested = false
    /// The first line of the details panel on screen.
    var detailsScroll = 0
    /// Whether the help overlay is shown.
    var showingHelp = false
    /// The session shown: its index among the sessions listed.
    var session = 0
    /// Set by q and Ctrl-C.
    var quit = false

    /// A state showing the first session, live, nothing selected yet.
    init() {}

    /// The filter in force, if any.
    var nodeFilter: NodeFilter? { filter.isEmpty ? nil : NodeFilter(name: filter) }

    /// Whether the view is paused.
    var isPaused: Bool { moment != .live }

    // MARK: - Keys

    /// Applies one key; returns the time travel it asks for, if any.
    /// `sessionCount` is how many sessions are listed.
    mutating func handle(_ key: Key, sessionCount: Int) -> Travel? {
        if key == .interrupt {
            quit = true
            return nil
        }
        if showingHelp {
            showingHelp = false
            return nil
        }
        if editingFilter, editFilter(key) { return nil }
        return apply(key, sessionCount: sessionCount)
    }

    /// A key that the help overlay and the filter prompt leave to the view:
    /// quit, help, time travel, sessions, the filter, details and moves.
    private mutating func apply(_ key: Key, sessionCount: Int) -> Travel? {
        switch key {
        case .character("q"), .character("Q"): quit = true
        case .character("?"): showingHelp = true
        case .character(" "): if isPaused { moment = .live } else { return .pause }
        case .character("l"), .character("L"): moment = .live
        case .left: return .step(-1)
        case .right: return isPaused ? .step(1) : nil
        case .character("["): return .jump(seconds: -1)
        case .character("]"): return isPaused ? .jump(seconds: 1) : nil
        case .tab: return showSession(session + 1, of: sessionCount)
        case .backTab: return showSession(session - 1, of: sessionCount)
        case .character(let digit) where ("1"..."9").contains(digit):
            let index = Int(String(digit))! - 1
            if index < sessionCount { return showSession(index, of: sessionCount) }
        case .character("/"): editingFilter = true
        case .escape: closeDetailsOrFilter()
        case .enter: toggleDetails()
        case .up, .character("k"): move(by: -1)
        case .down, .character("j"): move(by: 1)
        case .pageUp: move(by: -max(1, pageSize))
        case .pageDown: move(by: max(1, pageSize))
        case .home: if details != nil { detailsScroll = 0 } else { jump(to: 0, direction: 1) }
        case .end: if details != nil { detailsScroll = Int.max } else { jump(to: Int.max, direction: -1) }
        default: break
        }
        return nil
    }

    /// Escape: closes the details, or else clears the filter.
    private mutating func closeDetailsOrFilter() {
        if details != nil {
            details = nil
        } else if !filter.isEmpty {
            setFilter("")
        }
    }

    /// Enter: closes the details, or else asks the next frame to open them.
    private mutating func toggleDetails() {
        if details != nil {
            details = nil
        } else {
            detailsRequested = true
        }
    }

    /// A key while the filter prompt is open; returns whether it was used
    /// (other keys, such as the arrows, work as usual).
    private mutating func editFilter(_ key: Key) -> Bool {
        switch key {
        case .character(let character):
            if filter.count < Self.maxFilterLength { setFilter(filter + String(character)) }
        case .backspace:
            if !filter.isEmpty { setFilter(String(filter.dropLast())) }
        case .enter:
            editingFilter = false
        case .escape:
            editingFilter = false
            setFilter("")
        case .up, .down, .pageUp, .pageDown, .home, .end:
            return false
        default:
            break
        }
        return true
    }

    /// The longest filter text, in characters.
    static let maxFilterLength = 200

    /// Sets the filter; the selection goes back to the first row.
    private mutating func setFilter(_ text: String) {
        filter = text
        jump(to: 0, direction: 1)
    }

    /// Moves the selection (or, with the details open, their scroll) by `delta` rows.
    private mutating func move(by delta: Int) {
        if details != nil {
            detailsScroll = delta < 0 ? max(0, detailsScroll - (-delta)) : (detailsScroll > Int.max - delta ? Int.max : detailsScroll + delta)
            return
        }
        let target = delta < 0 ? max(0, cursor - (-delta)) : (cursor > Int.max - delta ? Int.max : cursor + delta)
        jump(to: target, direction: delta < 0 ? -1 : 1)
    }

    /// Opens the details of the selected node, if Enter asked for them (a
    /// frame calls this once it settled the selection).
    mutating func openRequestedDetails() {
        guard detailsRequested else { return }
        detailsRequested = false
        if let selected {
            details = selected
            detailsScroll = 0
        }
    }

    /// Puts the cursor on row `row`; the next frame settles it on a node.
    private mutating func jump(to row: Int, direction: Int) {
        cursor = row
        self.direction = direction
        cursorMoved = true
    }

    /// Shows session `index` (wrapping around) of `count`; a paused view
    /// stays paused, at the other session's newest moment.
    private mutating func showSession(_ index: Int, of count: Int) -> Travel? {
        guard count > 0 else { return nil }
        let next = ((index % count) + count) % count
        guard next != session else { return nil }
        session = next
        cursor = 0
        scroll = 0
        selected = nil
        cursorMoved = false
        details = nil
        detailsRequested = false
        detailsScroll = 0
        return isPaused ? .pause : nil
    }

    // MARK: - Time travel

    /// Resolves `travel` against `history`, whose newest moment is `newest`:
    /// the moment shown becomes the one asked for, within the moments the
    /// history can rebuild (or the newest, when it can rebuild none). A step
    /// back never moves forward: from a moment the history no longer reaches
    /// (it was dropped while paused), back stays where it is.
    mutating func travel(_ travel: Travel, history: LiveHistory, newest: Int) {
        let lowest = min(history.reachable?.lowerBound ?? newest, newest)
        let from: Int
        if case .paused(let index) = moment { from = index } else { from = newest }
        let target: Int
        let back: Bool
        switch travel {
        case .pause:
            moment = .paused(newest)
            return
        case .step(let delta):
            target = from + delta
            back = delta < 0
        case .jump(let seconds):
            target = history.moment(from, movedBy: Int64(seconds) * 1_000_000_000)
            back = seconds < 0
        }
        let within = min(max(target, lowest), newest)
        moment = .paused(back ? min(within, from) : max(within, from))
    }
}
