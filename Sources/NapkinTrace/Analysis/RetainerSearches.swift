/// The retainer searches a trace records (`retained` records), joined to the
/// findings they explain.
///
/// The app writes a `retained` record after its own detector established a
/// finding, so in a trace read later the record usually follows the grace
/// deadline, but it may also come before the analysis decides (the analysis
/// waits for the main actor). Both orders end the same way: a finding about
/// a router or interactor that a rule reports while it is alive past its
/// grace period (``Finding/Rule/searchesRetainers``) carries the latest
/// search about that node, whether the search came first (given when the
/// finding is reported) or later (given to the findings kept, and to those
/// already taken out with ``TraceAnalyzer/takeFindings()`` through
/// ``TraceAnalyzer/takeRetainerUpdates()``).
///
/// The latest search about each live node is the model's
/// (``TraceState/retainers(of:)``, forgotten at the node's `deinit`: no
/// later finding can be about a deallocated node); this keeps the findings
/// taken out that may still gain one, until their node's `deinit`, and the
/// updates not taken yet, each bounded like the findings kept.
struct RetainerSearches: Sendable {
    /// Findings taken out (``TraceAnalyzer/takeFindings()``) without a
    /// search, by node: they gain one if it comes.
    private var waiting: [NodeID: [Finding]] = [:]
    private var waitingCount = 0
    /// Findings taken out earlier that gained a search since.
    private(set) var updates: [Finding] = []

    /// Notes the search `retainers` about `id`: the findings about it taken
    /// out earlier gain it (``updates``).
    mutating func note(_ retainers: Retainers, about id: NodeID) {
        guard var taken = waiting.removeValue(forKey: id) else { return }
        waitingCount -= taken.count
        for k in taken.indices { taken[k].retainers = retainers }
        updates += taken
        // Nobody takes them: the oldest go, so memory stays bounded.
        if updates.count > TraceAnalyzer.maxKeptFindings { updates.removeFirst(updates.count - TraceAnalyzer.maxKeptFindings) }
    }

    /// Whether findings taken out wait for a search (a check before
    /// ``forget(_:)``, which a `deinit` would otherwise pay for).
    var hasWaiting: Bool { waitingCount > 0 }

    /// Forgets the findings about `id` that wait for a search: it was
    /// deallocated, so no search about it will come.
    mutating func forget(_ id: NodeID) {
        guard let gone = waiting.removeValue(forKey: id) else { return }
        waitingCount -= gone.count
    }

    /// Forgets the findings waiting (a new session: its ids are new).
    mutating func startSession() {
        waiting.removeAll()
        waitingCount = 0
    }

    /// Keeps `findings`, taken out of the analyzer, that a later search
    /// could explain (the first ``TraceAnalyzer/maxKeptFindings``).
    mutating func wait(for findings: [Finding]) {
        for finding in findings where finding.retainers == nil && finding.isExplainedByRetainers {
            guard waitingCount < TraceAnalyzer.maxKeptFindings else { return }
            waiting[finding.id, default: []].append(finding)
            waitingCount += 1
        }
    }

    /// Takes the findings that gained a search since they were taken out.
    mutating func takeUpdates() -> [Finding] {
        defer { updates.removeAll() }
        return updates
    }
}

extension Finding {
    /// Whether a retainer search about the finding's node explains it: a
    /// router or interactor that a rule reports alive past its grace period
    /// (``Finding/Rule/searchesRetainers``).
    var isExplainedByRetainers: Bool {
        rule.searchesRetainers && (subject == .router || subject == .interactor)
    }
}

extension Finding.Rule {
    /// Whether this rule's findings are about a router or interactor alive
    /// past its grace period, so that a retainer search explains them:
    /// `undetached-child`, `not-deallocated`, `active-after-detach`,
    /// `alive-at-end`, and the survivors of `growing-population` and
    /// `over-budget` (whose findings name the newest survivor).
    public var searchesRetainers: Bool {
        Self.retainerRules.contains(rawValue)
    }

    private static let retainerRules = Set(RuleID.allCases.filter(\.searchesRetainers).map(\.rule.rawValue))
}

extension RuleID {
    /// See ``Finding/Rule/searchesRetainers``. No `default:`: a new rule
    /// decides.
    var searchesRetainers: Bool {
        switch self {
        case .undetachedChild, .notDeallocated, .activeAfterDetach, .growingPopulation, .overBudget, .aliveAtEnd:
            true
        case .orphanedTask, .taskStartedInactive, .stuckHook, .viewGoneStillAttached, .viewShownAfterDetach, .duplicateChild,
             .doubleAttach, .attachUnderDescendant, .detachNonChild, .eventAfterDeinit, .eventsDropped:
            false
        }
    }
}
