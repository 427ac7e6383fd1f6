import NapkinTrace
import Synchronization

/// Every session `live` shows, in order of arrival, with the bounds that keep
/// the inspector's memory finite whatever connects to it.
///
/// - At most ``maxKeptFinished`` finished sessions are kept; older ones are
///   forgotten first (their summaries were printed off a terminal, and their
///   files written with `--record`).
/// - Sessions rejected as not a trace are counted, the last reason kept for
///   the status line, and they are forgotten before any other.
/// - All sessions together may hold at most ``nodeBudget`` live routers,
///   interactors and tasks; a connection whose session would go beyond it is
///   cut (see ``LiveSession``).
///
/// Named as the list of every ``LiveSession`` (one traced process, or input, each), not a plural of it.
final class LiveSessionList: Sendable {
    /// Finished sessions kept for the view, at most.
    static let maxKeptFinished = 64
    /// Live nodes all sessions may hold together.
    static let nodeBudget = 2_000_000

    /// The analysis settings every session gets.
    let analysis: TraceAnalyzer.Options
    private let list = Locked<List>(List())
    /// Live nodes held by all sessions (see ``LiveSession``).
    let nodesHeld = Atomic<Int>(0)

    private struct List {
        var sessions: [LiveSession] = []
        var opened = 0
        var rejected = 0
        var lastRejection: String?
    }

    /// Whether each session keeps what the page of `live --web` draws.
    let keepsPages: Bool

    /// An empty list; every session is analysed with `analysis` (and, with
    /// `keepsPages`, keeps a ``LivePageHistory``).
    init(analysis: TraceAnalyzer.Options, keepsPages: Bool = false) {
        self.analysis = analysis
        self.keepsPages = keepsPages
    }

    /// A new session, added last; forgets the oldest finished sessions beyond the bound.
    func open(sourceName: String, isLive: Bool, limitNodes: Bool = false) -> LiveSession {
        list.withLock { l in
            l.opened += 1
            let session = LiveSession(number: l.opened, sourceName: sourceName, isLive: isLive, analysis: analysis,
                                      budget: limitNodes ? self : nil, keepsPage: keepsPages)
            l.sessions.append(session)
            // Forget the oldest finished sessions beyond the bound: rejected ones first.
            var finished = l.sessions.filter { $0.isFinished }.count
            for rejectedFirst in [true, false] {
                var index = 0
                while finished > Self.maxKeptFinished && index < l.sessions.count {
                    let candidate = l.sessions[index]
                    if candidate.isFinished && (!rejectedFirst || candidate.isRejected) {
                        l.sessions.remove(at: index)
                        finished -= 1
                    } else {
                        index += 1
                    }
                }
            }
            return session
        }
    }

    /// Counts a session that was rejected as not a trace, and remembers why.
    /// It stays in the list (so that off a terminal its rejection is printed)
    /// until newer sessions push it out; the terminal view does not show it.
    func noteRejection(_ reason: String) {
        list.withLock { l in
            l.rejected += 1
            l.lastRejection = reason
        }
    }

    /// The sessions kept, in order of arrival.
    var all: [LiveSession] { list.withLock { $0.sessions } }

    /// How many sessions were opened in all.
    var openedCount: Int { list.withLock { $0.opened } }

    /// How many connections were rejected as not a trace, and the last reason.
    var rejections: (count: Int, last: String?) { list.withLock { ($0.rejected, $0.lastRejection) } }
}
